import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INestApplication } from '@nestjs/common';
import { loadConfig } from '@platform/config';
import { assetKeys, createObjectStore } from '@platform/storage';
import { playbackHttpApp, playbackHttpFakes } from '../testing';
import { DeliveryMeter } from './delivery-meter';

const MASTER =
  '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720\n720p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=6000000,RESOLUTION=1920x1080\n1080p/index.m3u8\n';
const VARIANT = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.000000,\nsegment_000.ts\n#EXTINF:2.500000,\nsegment_001.ts\n#EXT-X-ENDLIST\n';
const SEGMENT = Buffer.alloc(1000, 0x47);

describe('playback host: what it serves is metered for delivery usage', () => {
  let app: INestApplication;
  let base: string;
  let dataDir: string;
  let meter: DeliveryMeter;
  const fakes = playbackHttpFakes();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-metering-'));
    const config = { ...loadConfig({}), dataDir, s3: undefined, playback: { grantSecret: 'test-grant-secret', grantSeconds: 3600 } };
    const store = createObjectStore(config);
    await store.putBuffer(assetKeys.hls('asset-1', 'master.m3u8'), MASTER);
    for (const variant of ['720p', '1080p']) {
      await store.putBuffer(assetKeys.hls('asset-1', `${variant}/index.m3u8`), VARIANT);
      for (const segment of ['segment_000.ts', 'segment_001.ts']) await store.putBuffer(assetKeys.hls('asset-1', `${variant}/${segment}`), SEGMENT);
    }
    await store.putBuffer(assetKeys.hls('asset-1', 'text-t1/0.vtt'), 'WEBVTT\n');
    fakes.assets.add('pubId1', 'public', 'asset-1');
    app = await playbackHttpApp(config, fakes);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    meter = app.get(DeliveryMeter);
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => meter.drain());

  const grantOf = (text: string) => /grant=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(text)![1];

  it('counts each segment played through the playlists: EXTINF seconds, bytes, the rendition’s tier', async () => {
    const grant = grantOf(await (await fetch(`${base}/pubId1.m3u8`)).text());
    await (await fetch(`${base}/pubId1/1080p/index.m3u8?grant=${grant}`)).text();
    for (const segment of ['segment_000.ts', 'segment_001.ts']) {
      const res = await fetch(`${base}/pubId1/1080p/${segment}?grant=${grant}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(meter.drain()).toEqual([
      expect.objectContaining({ playback_id: 'pubId1', asset_id: 'asset-1', resolution_tier: '1080p', media_seconds: 6.5, bytes: 2000, segments: 2 }),
    ]);
  });

  it('counts a segment fetched without its playlists (read from the store), a byte range pro rata, and no HEAD', async () => {
    const grant = grantOf(await (await fetch(`${base}/pubId1.m3u8`)).text());
    await (await fetch(`${base}/pubId1/720p/segment_000.ts?grant=${grant}`, { headers: { range: 'bytes=0-499' } })).arrayBuffer();
    await fetch(`${base}/pubId1/720p/segment_001.ts?grant=${grant}`, { method: 'HEAD' });
    await meter.settled();
    expect(meter.drain()).toEqual([expect.objectContaining({ resolution_tier: '720p', media_seconds: 2, bytes: 500, segments: 1 })]);
  });

  it('does not count text track segments', async () => {
    const grant = grantOf(await (await fetch(`${base}/pubId1.m3u8`)).text());
    await (await fetch(`${base}/pubId1/text-t1/0.vtt?grant=${grant}`)).text();
    await meter.settled();
    expect(meter.drain()).toEqual([]);
  });
});
