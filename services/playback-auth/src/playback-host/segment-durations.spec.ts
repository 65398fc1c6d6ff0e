import { parseMediaPlaylist } from './segment-durations';

describe('parseMediaPlaylist', () => {
  it('gives each segment its EXTINF seconds and the target duration', () => {
    const text = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.000000,\nsegment_000.ts\n#EXTINF:2.5,\nsegment_001.ts\n#EXT-X-ENDLIST\n';
    const parsed = parseMediaPlaylist(text, '720p');
    expect(parsed.targetSeconds).toBe(4);
    expect([...parsed.byFolder.keys()]).toEqual(['720p']);
    expect(Object.fromEntries(parsed.byFolder.get('720p')!)).toEqual({ 'segment_000.ts': 4, 'segment_001.ts': 2.5 });
  });

  it('files the live window’s ../live/ segments under live', () => {
    const text = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DISCONTINUITY\n#EXTINF:2.000000,\n../live/seg-7.ts\n#EXTINF:1.5,\n../live/seg-8.ts\n';
    const parsed = parseMediaPlaylist(text, 'window');
    expect([...parsed.byFolder.keys()]).toEqual(['live']);
    expect(parsed.byFolder.get('live')!.get('seg-8.ts')).toBe(1.5);
  });

  it('counts an fMP4 init section as no media time, and ignores absolute and query parts', () => {
    const text = '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:6,\nseg1.m4s?x=1\n#EXTINF:6,\nhttps://cdn.example/seg2.m4s\n#EXTINF:6,\n/abs/seg3.m4s\n';
    const parsed = parseMediaPlaylist(text, 'v');
    expect(Object.fromEntries(parsed.byFolder.get('v')!)).toEqual({ 'init.mp4': 0, 'seg1.m4s': 6 });
    expect(parsed.targetSeconds).toBe(0);
  });

  it('gives an LL-HLS part its DURATION, and the part a preload hint names its PART-TARGET', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:1',
      '#EXT-X-PART-INF:PART-TARGET=0.250',
      '#EXT-X-PART:DURATION=0.466667,URI="../live/s1_part00003.ts",INDEPENDENT=YES',
      '#EXTINF:0.466667,',
      '../live/s1_00001.ts',
      '#EXT-X-PART:DURATION=0.433333,URI="../live/s1_part00004.ts"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="../live/s1_part00005.ts"',
    ].join('\n');
    expect(Object.fromEntries(parseMediaPlaylist(text, 'window').byFolder.get('live')!)).toEqual({
      's1_part00003.ts': 0.466667,
      's1_00001.ts': 0.466667,
      's1_part00004.ts': 0.433333,
      's1_part00005.ts': 0.25,
    });
  });
});
