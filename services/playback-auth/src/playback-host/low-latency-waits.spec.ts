import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsObjectStore } from '@platform/storage';
import { LowLatencyWaits } from './low-latency-waits';
import { PlaybackError } from './playback-error';

const edge = (segments: number, parts: number) =>
  [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:1',
    '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.0,PART-HOLD-BACK=0.750',
    '#EXT-X-MEDIA-SEQUENCE:0',
    ...Array.from({ length: segments }, (_, i) => [`#EXTINF:1.0,`, `s${i}.ts`]).flat(),
    ...Array.from({ length: parts }, (_, i) => `#EXT-X-PART:DURATION=0.2,URI="p${i}.ts"`),
    '',
  ].join('\n');

describe('LowLatencyWaits', () => {
  let dir: string;
  let store: FsObjectStore;
  let waits: LowLatencyWaits;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-waits-'));
    store = new FsObjectStore(dir);
    waits = new LowLatencyWaits(store);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds a blocking reload until the part is in the stored playlist, then answers with that playlist', async () => {
    await store.putBuffer('a/window/index.m3u8', edge(3, 1));
    const started = Date.now();
    setTimeout(() => void store.putBuffer('a/window/index.m3u8', edge(3, 2)), 300);
    const text = await waits.playlistReaching('a/window/index.m3u8', edge(3, 1), 3, 1);
    expect(text).toBe(edge(3, 2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('answers at once what is there already, and a playlist that offers no blocking as it is', async () => {
    expect(await waits.playlistReaching('k', edge(3, 1), 2)).toBe(edge(3, 1));
    const vod = '#EXTM3U\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n';
    expect(await waits.playlistReaching('k', vod, 40, 2)).toBe(vod);
  });

  it('refuses a reload too far ahead at once (400) and gives up after three target durations (503)', async () => {
    await expect(waits.playlistReaching('k', edge(3, 0), 9)).rejects.toMatchObject({ status: 400 });
    await store.putBuffer('b/index.m3u8', edge(3, 0));
    const started = Date.now();
    const late = await waits.playlistReaching('b/index.m3u8', edge(3, 0), 4).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(PlaybackError);
    expect((late as PlaybackError).getStatus()).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('holds a hinted part (the one after the last stored) until it is stored; any other missing part is answered at once', async () => {
    await store.putBuffer('a/live/s1_part00002.ts', Buffer.alloc(188, 0x47));
    setTimeout(() => void store.putBuffer('a/live/s1_part00003.ts', Buffer.alloc(188, 0x47)), 200);
    expect(await waits.partStored('a/live/s1_part00003.ts')).toBe(true);
    const started = Date.now();
    expect(await waits.partStored('a/live/s1_part00009.ts')).toBe(false);
    expect(await waits.partStored('a/live/s1_part00000.ts')).toBe(false);
    expect(await waits.partStored('vod/720p/segment_part00001.ts')).toBe(false);
    expect(Date.now() - started).toBeLessThan(200);
  });
});
