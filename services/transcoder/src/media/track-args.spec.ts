import { buildAudioRenditionArgs, buildPcmFileArgs, buildStartTimeProbeArgs } from './track-args';

describe('track argument builders', () => {
  it('probes the start time of each stream of a segment', () => {
    expect(buildStartTimeProbeArgs('/w/segment_000.ts')).toEqual([
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,start_time',
      '-print_format',
      'json',
      '/w/segment_000.ts',
    ]);
  });

  it('encodes an audio file as an AAC rendition the video’s length, on the video’s timeline, in its segments', () => {
    expect(buildAudioRenditionArgs('/w/source', { outputDir: '/w/out', durationSeconds: 6.0004, timelineStart: 1.48, segmentSeconds: 4 })).toEqual([
      '-hide_banner',
      '-nostdin',
      '-y',
      '-nostats',
      '-progress',
      'pipe:1',
      '-i',
      '/w/source',
      '-map',
      '0:a:0',
      '-vn',
      '-af',
      'apad',
      '-t',
      '6.000',
      '-c:a',
      'aac',
      '-b:a',
      '128000',
      '-ac',
      '2',
      '-ar',
      '48000',
      '-muxdelay',
      '0',
      '-muxpreload',
      '0',
      '-output_ts_offset',
      '1.480000',
      '-f',
      'hls',
      '-hls_time',
      '4',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'mpegts',
      '-hls_segment_filename',
      '/w/out/segment_%03d.ts',
      '/w/out/index.m3u8',
    ]);
  });

  it('decodes a span’s audio into the recognizer’s PCM file', () => {
    expect(buildPcmFileArgs('/w/span-0.ts', '/w/span-0.pcm')).toEqual([
      '-hide_banner',
      '-nostdin',
      '-y',
      '-nostats',
      '-progress',
      'pipe:1',
      '-v',
      'error',
      '-i',
      '/w/span-0.ts',
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      '/w/span-0.pcm',
    ]);
  });
});
