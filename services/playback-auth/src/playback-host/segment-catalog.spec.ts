import { SegmentCatalog } from './segment-catalog';

const MASTER = [
  '#EXTM3U',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="fr",URI="audio-t1/index.m3u8"',
  '#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080',
  '1080p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720',
  '720p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=128000',
  'audio/index.m3u8',
  '',
].join('\n');
const MEDIA = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nsegment_000.ts\n#EXTINF:1.5,\nsegment_001.ts\n#EXT-X-ENDLIST\n';

function storeOf(files: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    getBuffer: jest.fn(async (key: string) => {
      reads.push(key);
      if (!(key in files)) throw new Error(`no ${key}`);
      return Buffer.from(files[key]);
    }),
  };
}

describe('SegmentCatalog', () => {
  it('knows a segment once its master and media playlists were served', () => {
    const catalog = new SegmentCatalog(storeOf({}));
    expect(catalog.find('a1', '1080p', 'segment_001.ts')).toBeUndefined();
    catalog.learnMaster('a1', MASTER);
    catalog.learnMedia('a1', '1080p', MEDIA);
    expect(catalog.find('a1', '1080p', 'segment_001.ts')).toEqual({ tier: '1080p', seconds: 1.5 });
    expect(catalog.find('a1', '720p', 'segment_000.ts')).toBeUndefined();
  });

  it('reads the playlists from the store for a segment served before them (another replica served them)', async () => {
    const store = storeOf({ 'assets/a1/hls/master.m3u8': MASTER, 'assets/a1/hls/720p/index.m3u8': MEDIA });
    const catalog = new SegmentCatalog(store);
    await expect(catalog.resolve('a1', '720p', 'segment_000.ts')).resolves.toEqual({ tier: '720p', seconds: 4 });
    expect(catalog.find('a1', '720p', 'segment_001.ts')).toEqual({ tier: '720p', seconds: 1.5 });
    await expect(catalog.resolve('a1', 'audio', 'segment_000.ts')).resolves.toEqual({ tier: 'audio_only', seconds: 0 });
  });

  it('does not count folders the master lists as no variant (alternate audio, text), and remembers that', async () => {
    const store = storeOf({ 'assets/a1/hls/master.m3u8': MASTER });
    const catalog = new SegmentCatalog(store);
    catalog.learnMaster('a1', MASTER);
    await expect(catalog.resolve('a1', 'audio-t1', 'segment_000.ts')).resolves.toBeNull();
    expect(catalog.find('a1', 'text-t2', 'x.vtt')).toBeUndefined();
    expect(catalog.find('a1', 'audio-t1', 'segment_000.ts')).toBeNull();
  });

  it('gives the live window’s tier to the recording’s segments it lists (../live/…) and keeps slid-out ones', () => {
    const catalog = new SegmentCatalog(storeOf({}));
    catalog.learnMaster('rec', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720\nwindow/index.m3u8\n');
    catalog.learnMedia('rec', 'window', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n../live/s1.ts\n#EXTINF:2.0,\n../live/s2.ts\n');
    catalog.learnMedia('rec', 'window', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n../live/s2.ts\n#EXTINF:1.8,\n../live/s3.ts\n');
    expect(catalog.find('rec', 'live', 's1.ts')).toEqual({ tier: '720p', seconds: 2 });
    expect(catalog.find('rec', 'live', 's3.ts')).toEqual({ tier: '720p', seconds: 1.8 });
  });

  it('re-reads a growing playlist for a new segment at most every 2 s, else counts the target duration', async () => {
    let now = 0;
    const files: Record<string, string> = { 'assets/a1/hls/master.m3u8': MASTER, 'assets/a1/hls/720p/index.m3u8': MEDIA };
    const store = storeOf(files);
    const catalog = new SegmentCatalog(store, () => now);
    await catalog.resolve('a1', '720p', 'segment_000.ts');
    files['assets/a1/hls/720p/index.m3u8'] = MEDIA.replace('#EXT-X-ENDLIST', '#EXTINF:3.0,\nsegment_002.ts');
    now = 500;
    await expect(catalog.resolve('a1', '720p', 'segment_002.ts')).resolves.toEqual({ tier: '720p', seconds: 4 });
    now = 2500;
    await expect(catalog.resolve('a1', '720p', 'segment_002.ts')).resolves.toEqual({ tier: '720p', seconds: 3 });
    expect(store.reads.filter((k) => k.endsWith('720p/index.m3u8'))).toHaveLength(2);
  });

  it('reads a playlist once for many segments waiting on it', async () => {
    const store = storeOf({ 'assets/a1/hls/master.m3u8': MASTER, 'assets/a1/hls/720p/index.m3u8': MEDIA });
    const catalog = new SegmentCatalog(store);
    const all = await Promise.all([0, 1, 0, 1].map((i) => catalog.resolve('a1', '720p', `segment_00${i}.ts`)));
    expect(all.map((f) => f?.seconds)).toEqual([4, 1.5, 4, 1.5]);
    expect(store.getBuffer).toHaveBeenCalledTimes(2);
  });

  it('an unreadable master teaches nothing (no folder is written off)', async () => {
    const catalog = new SegmentCatalog(storeOf({}));
    await expect(catalog.resolve('gone', '720p', 'segment_000.ts')).resolves.toBeNull();
    catalog.learnMaster('gone', MASTER);
    catalog.learnMedia('gone', '720p', MEDIA);
    expect(catalog.find('gone', '720p', 'segment_000.ts')).toEqual({ tier: '720p', seconds: 4 });
  });
});
