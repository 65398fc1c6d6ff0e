import { assetKeys } from './asset-keys';
import { contentTypeOf } from './content-type';
import { assertObjectKey } from './object-keys';

describe('contentTypeOf', () => {
  it.each([
    ['assets/a/hls/master.m3u8', 'application/vnd.apple.mpegurl'],
    ['assets/a/hls/720p/segment_000.ts', 'video/mp2t'],
    ['x/init.m4s', 'video/iso.segment'],
    ['x/static/high.mp4', 'video/mp4'],
    ['x/audio.m4a', 'audio/mp4'],
    ['x/audio.aac', 'audio/aac'],
    ['x/captions/en.vtt', 'text/vtt'],
    ['x/storyboard.json', 'application/json'],
    ['x/UPPER.M3U8', 'application/vnd.apple.mpegurl'],
    ['x/no-extension', 'application/octet-stream'],
    ['x.ts/file', 'application/octet-stream'],
  ])('%s → %s', (key, type) => {
    expect(contentTypeOf(key)).toBe(type);
  });
});

describe('assetKeys', () => {
  it('puts everything of an asset under one prefix, HLS under hls/', () => {
    expect(assetKeys.prefix('abc123')).toBe('assets/abc123/');
    expect(assetKeys.hls('abc123', 'master.m3u8')).toBe('assets/abc123/hls/master.m3u8');
    expect(assetKeys.hls('abc123', '720p/segment_000.ts')).toBe('assets/abc123/hls/720p/segment_000.ts');
    expect(assetKeys.hls('abc123', 'master.m3u8').startsWith(assetKeys.prefix('abc123'))).toBe(true);
    expect(() => assertObjectKey(assetKeys.hls('abc123', 'source/index.m3u8'))).not.toThrow();
  });

  it('puts static renditions under static/ and the master MP4 under master/, inside the asset prefix', () => {
    expect(assetKeys.staticRendition('abc123', 'high.mp4')).toBe('assets/abc123/static/high.mp4');
    expect(assetKeys.master('abc123')).toBe('assets/abc123/master/master.mp4');
    for (const key of [assetKeys.staticRendition('abc123', 'audio.m4a'), assetKeys.master('abc123')]) {
      expect(key.startsWith(assetKeys.prefix('abc123'))).toBe(true);
      expect(() => assertObjectKey(key)).not.toThrow();
    }
  });
});
