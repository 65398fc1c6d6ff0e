import { buildMasterPlaylist, codecOf, codecsOf, measureBandwidth } from './master-playlist';

describe('buildMasterPlaylist', () => {
  it('lists every variant in order with its attributes', () => {
    expect(
      buildMasterPlaylist([
        {
          uri: '720p/index.m3u8',
          bandwidth: 3_400_000,
          averageBandwidth: 2_900_000,
          codecs: 'avc1.64001f,mp4a.40.2',
          width: 1280,
          height: 720,
          frameRate: 29.97,
        },
        { uri: 'audio/index.m3u8', bandwidth: 140_000, codecs: 'mp4a.40.2' },
      ]),
    ).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=3400000,AVERAGE-BANDWIDTH=2900000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970',
        '720p/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=140000,CODECS="mp4a.40.2"',
        'audio/index.m3u8',
        '',
      ].join('\n'),
    );
  });
});

describe('codecOf / codecsOf', () => {
  it.each([
    [{ codec_name: 'h264', profile: 'High', level: 31 }, 'avc1.64001f'],
    [{ codec_name: 'h264', profile: 'Main', level: 40 }, 'avc1.4d4028'],
    [{ codec_name: 'h264', profile: 'Constrained Baseline', level: 30 }, 'avc1.42e01e'],
    [{ codec_name: 'h264', profile: 'High', level: -99 }, undefined],
    [{ codec_name: 'h264', profile: 'High 4:4:4 Intra', level: 31 }, undefined],
    [{ codec_name: 'aac', profile: 'LC' }, 'mp4a.40.2'],
    [{ codec_name: 'aac', profile: 'HE-AAC' }, 'mp4a.40.5'],
    [{ codec_name: 'mp3' }, 'mp4a.40.34'],
    [{ codec_name: 'hevc', profile: 'Main', level: 93 }, undefined],
  ])('%j → %s', (stream, expected) => {
    expect(codecOf({ index: 0, ...stream })).toBe(expected);
  });

  it('joins video and audio, and gives nothing when one stream is unknown', () => {
    const video = { index: 0, codec_type: 'video', codec_name: 'h264', profile: 'High', level: 30 };
    const audio = { index: 1, codec_type: 'audio', codec_name: 'aac', profile: 'LC' };
    const data = { index: 2, codec_type: 'data', codec_name: 'timed_id3' };
    expect(codecsOf([video, audio, data])).toBe('avc1.64001e,mp4a.40.2');
    expect(codecsOf([video, { ...audio, codec_name: 'opus' }])).toBeUndefined();
    expect(codecsOf([])).toBeUndefined();
  });
});

describe('measureBandwidth', () => {
  it('takes the peak segment bit rate as BANDWIDTH and the overall rate as AVERAGE-BANDWIDTH', () => {
    expect(
      measureBandwidth([
        { duration: 4, bytes: 1_000_000 },
        { duration: 2, bytes: 750_000 },
        { duration: 0, bytes: 10 },
      ]),
    ).toEqual({
      peak: 3_000_000,
      average: Math.ceil((1_750_000 * 8) / 6),
    });
  });
});
