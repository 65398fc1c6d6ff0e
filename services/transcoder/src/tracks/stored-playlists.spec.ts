import { segmentLength } from './audio-track.handler';
import { masterVariants, playlistEntries, resolveUnder, spansOf } from './stored-playlists';

describe('stored playlists', () => {
  it('lists a master’s variants with their bandwidth, in its order', () => {
    const master =
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.64001f,mp4a.40.2"\n360p/index.m3u8\n#EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=1,BANDWIDTH=400000\n270p/index.m3u8\n';
    expect(masterVariants(master)).toEqual([
      { uri: '360p/index.m3u8', bandwidth: 900000 },
      { uri: '270p/index.m3u8', bandwidth: 400000 },
    ]);
  });

  it('reads a media playlist’s segments with their starts, and groups them in spans at discontinuities', () => {
    const playlist = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:4',
      '#EXTINF:4.000000,',
      's1_00000.ts',
      '#EXTINF:2.5,',
      's1_00001.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:4.000000,',
      'slate2_00000.ts',
      '#EXT-X-ENDLIST',
    ].join('\n');
    const entries = playlistEntries(playlist);
    expect(entries).toEqual([
      { uri: 's1_00000.ts', duration: 4, start: 0, discontinuity: false },
      { uri: 's1_00001.ts', duration: 2.5, start: 4, discontinuity: false },
      { uri: 'slate2_00000.ts', duration: 4, start: 6.5, discontinuity: true },
    ]);
    expect(spansOf(entries).map((s) => [s.start, s.duration, s.entries.length])).toEqual([
      [0, 6.5, 2],
      [6.5, 4, 1],
    ]);
  });

  it('resolves segment URIs under the asset’s hls folder, refusing anything that leaves it', () => {
    expect(resolveUnder('360p/index.m3u8', 'segment_000.ts')).toBe('360p/segment_000.ts');
    expect(resolveUnder('index.m3u8', 'a.ts?x=1')).toBe('a.ts');
    expect(() => resolveUnder('360p/index.m3u8', '../../other/a.ts')).toThrow('is not a file of the asset');
    expect(() => resolveUnder('360p/index.m3u8', 'https://evil.example/a.ts')).toThrow('is not a file of the asset');
  });

  it('cuts alternate audio at the video’s segment length, in one segment for a video shorter than one', () => {
    expect(segmentLength([4, 4, 2.04])).toBe(4);
    expect(segmentLength([3.003])).toBe(5);
  });
});
