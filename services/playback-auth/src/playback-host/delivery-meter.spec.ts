import { DeliveryMeter, ServedSegment } from './delivery-meter';
import { SegmentCatalog } from './segment-catalog';

const MASTER =
  '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080\n1080p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360\n360p/index.m3u8\n';
const MEDIA = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\ns0.ts\n#EXTINF:2.0,\ns1.ts\n#EXT-X-ENDLIST\n';
const T0 = Date.parse('2026-11-27T13:59:59.000Z');

const served = (over: Partial<ServedSegment> = {}): ServedSegment => ({
  playbackId: 'pb1',
  assetId: 'a1',
  folder: '1080p',
  name: 's0.ts',
  bytes: 1000,
  share: 1,
  ...over,
});

function setup(files: Record<string, string> = {}) {
  let now = T0;
  const store = { getBuffer: jest.fn(async (key: string) => (key in files ? Buffer.from(files[key]) : Promise.reject(new Error('missing')))) };
  const clock = () => now;
  const catalog = new SegmentCatalog(store, clock);
  const meter = new DeliveryMeter(catalog, clock);
  return { catalog, meter, setNow: (t: number) => (now = t) };
}

describe('DeliveryMeter', () => {
  it('sums media seconds, bytes and segments per hour, playback id and tier', () => {
    const { catalog, meter, setNow } = setup();
    catalog.learnMaster('a1', MASTER);
    catalog.learnMedia('a1', '1080p', MEDIA);
    catalog.learnMedia('a1', '360p', MEDIA);
    meter.segmentServed(served());
    meter.segmentServed(served({ name: 's1.ts', bytes: 500 }));
    meter.segmentServed(served({ folder: '360p', bytes: 100 }));
    meter.segmentServed(served({ playbackId: 'pb2', bytes: 7 }));
    setNow(T0 + 1000); // the next hour
    meter.segmentServed(served({ bytes: 1 }));

    const items = meter.drain();
    const row = (hour: string, playbackId: string, tier: string) =>
      items.find((i) => i.hour === hour && i.playback_id === playbackId && i.resolution_tier === tier);
    expect(items).toHaveLength(4);
    expect(row('2026-11-27T13:00:00.000Z', 'pb1', '1080p')).toEqual({
      hour: '2026-11-27T13:00:00.000Z',
      playback_id: 'pb1',
      asset_id: 'a1',
      live_stream_id: null,
      resolution_tier: '1080p',
      media_seconds: 6,
      bytes: 1500,
      segments: 2,
    });
    expect(row('2026-11-27T13:00:00.000Z', 'pb1', '720p')).toMatchObject({ media_seconds: 4, bytes: 100, segments: 1 });
    expect(row('2026-11-27T13:00:00.000Z', 'pb2', '1080p')).toMatchObject({ media_seconds: 4, bytes: 7 });
    expect(row('2026-11-27T14:00:00.000Z', 'pb1', '1080p')).toMatchObject({ media_seconds: 4, bytes: 1, segments: 1 });
    expect(meter.drain()).toEqual([]);
  });

  it('counts a byte range’s share of the segment’s seconds', () => {
    const { catalog, meter } = setup();
    catalog.learnMaster('a1', MASTER);
    catalog.learnMedia('a1', '1080p', MEDIA);
    meter.segmentServed(served({ bytes: 250, share: 0.25 }));
    expect(meter.drain()[0]).toMatchObject({ media_seconds: 1, bytes: 250 });
  });

  it('counts a segment served before its playlists once they are read, in the hour it was served', async () => {
    const { meter, setNow } = setup({ 'assets/a1/hls/master.m3u8': MASTER, 'assets/a1/hls/1080p/index.m3u8': MEDIA });
    meter.segmentServed(served({ name: 's1.ts' }));
    setNow(T0 + 5000);
    expect(meter.drain()).toEqual([]);
    await meter.settled();
    expect(meter.drain()).toEqual([expect.objectContaining({ hour: '2026-11-27T13:00:00.000Z', resolution_tier: '1080p', media_seconds: 2, segments: 1 })]);
  });

  it('leaves out what is no variant of the master', async () => {
    const { catalog, meter } = setup({ 'assets/a1/hls/master.m3u8': MASTER });
    catalog.learnMaster('a1', MASTER);
    meter.segmentServed(served({ folder: 'text-t1', name: '0.vtt' }));
    await meter.settled();
    meter.segmentServed(served({ folder: 'text-t1', name: '1.vtt' }));
    await meter.settled();
    expect(meter.drain()).toEqual([]);
  });
});
