import { loadConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { createTestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { liveDatabase } from '../database-options';
import { INGEST_LEASE_SECONDS } from '../live-streams/live-stream-ingest.service';
import { FinalSubtitlePasses } from './final-subtitle-passes';

jest.setTimeout(30_000);

const pass = (assetId: string) => ({
  assetId,
  trackId: `track-${assetId}`,
  liveStreamId: 'stream-1',
  latencyMode: 'reduced' as const,
  subtitles: { name: 'English (generated)', languageCode: 'en' },
});
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

/** generated_live_final passes a gone process did not finish are resumed once, by one process. */
describe('FinalSubtitlePasses (Postgres)', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let passes: FinalSubtitlePasses;

  beforeAll(async () => {
    database = await createTestDatabase('live_final_passes');
    dataSource = await openDatabase(loadConfig({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' }), liveDatabase);
    passes = new FinalSubtitlePasses(dataSource);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('leaves a pass to its process while it renews, then to one other process; a released pass is taken at once; an ended one is gone', async () => {
    await passes.begin(pass('a1'), 'A');
    await passes.begin(pass('a2'), 'A');
    expect(await passes.claimOrphans('B')).toEqual([]);
    await passes.renew('A', later(5));
    expect(await passes.claimOrphans('B', later(INGEST_LEASE_SECONDS + 1))).toEqual([]);

    // A is killed: its leases run out; two processes look at once
    const expired = later(INGEST_LEASE_SECONDS + 10);
    const [b, c] = await Promise.all([passes.claimOrphans('B', expired), passes.claimOrphans('C', expired)]);
    expect([...b, ...c].map((p) => p.assetId).sort()).toEqual(['a1', 'a2']);
    expect([...b, ...c].find((p) => p.assetId === 'a1')).toEqual(pass('a1'));

    await passes.release(b.length > 0 ? 'B' : 'C'); // that one stops: what it held is taken at once
    expect((await passes.claimOrphans('D')).length).toBe(b.length > 0 ? b.length : c.length);
    await passes.end('a1');
    await passes.end('a2');
    expect(await passes.claimOrphans('E', later(100))).toEqual([]);
  });
});
