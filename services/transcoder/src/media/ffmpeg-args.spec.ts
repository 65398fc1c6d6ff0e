import { Ladder } from '@platform/media';
import {
  buildKeyframeProbeArgs,
  buildLadderArgs,
  buildProbeArgs,
  buildRemuxArgs,
  buildSegmentProbeArgs,
  TEST_WATERMARK,
  TEST_WATERMARK_NO_FONT,
  testWatermark,
  variantFolder,
} from './ffmpeg-args';

const HEAD = ['-hide_banner', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1'];
const hls = (dir: string, seconds: string) => [
  '-f',
  'hls',
  '-hls_time',
  seconds,
  '-hls_playlist_type',
  'vod',
  '-hls_flags',
  'independent_segments',
  '-hls_segment_type',
  'mpegts',
  '-hls_segment_filename',
  `${dir}/%v/segment_%03d.ts`,
  '-master_pl_name',
  'master.m3u8',
];

const twoRungs: Ladder = {
  video: [
    { name: '720p', width: 1280, height: 720, videoBitrate: 3_000_000 },
    { name: '360p', width: 640, height: 360, videoBitrate: 800_000 },
  ],
  audio: { bitrate: 128_000, channels: 2 },
};

describe('buildLadderArgs', () => {
  it('decodes once, splits into every rendition and maps each with the audio into one HLS variant', () => {
    expect(buildLadderArgs('/in/source.mp4', twoRungs, { outputDir: '/out', frameRate: 30 })).toEqual([
      ...HEAD,
      '-i',
      '/in/source.mp4',
      '-filter_complex',
      '[0:v:0]split=2[s0][s1];[s0]scale=1280:720,setsar=1,format=yuv420p[v0];[s1]scale=640:360,setsar=1,format=yuv420p[v1]',
      '-map',
      '[v0]',
      '-map',
      '0:a:0',
      '-map',
      '[v1]',
      '-map',
      '0:a:0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'high',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-sc_threshold',
      '0',
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
      '-b:v:0',
      '3000000',
      '-maxrate:v:0',
      '3210000',
      '-bufsize:v:0',
      '4500000',
      '-b:v:1',
      '800000',
      '-maxrate:v:1',
      '856000',
      '-bufsize:v:1',
      '1200000',
      '-c:a',
      'aac',
      '-b:a',
      '128000',
      '-ac',
      '2',
      ...hls('/out', '4'),
      '-var_stream_map',
      'v:0,a:0,name:720p v:1,a:1,name:360p',
      '/out/%v/index.m3u8',
    ]);
  });

  it('for a test asset of a silent 120 fps video: reads 10 s, caps to 60 fps and burns the watermark once before the split', () => {
    const ladder: Ladder = { video: [{ name: '1080p', width: 1920, height: 1080, videoBitrate: 5_000_000 }] };
    expect(buildLadderArgs('in.mov', ladder, { outputDir: 'o', frameRate: 120, test: true, segmentSeconds: 2, preset: 'ultrafast' })).toEqual([
      ...HEAD,
      '-t',
      '10',
      '-i',
      'in.mov',
      '-filter_complex',
      `[0:v:0]fps=60,${TEST_WATERMARK},split=1[s0];[s0]scale=1920:1080,setsar=1,format=yuv420p[v0]`,
      '-map',
      '[v0]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-profile:v',
      'high',
      '-g',
      '120',
      '-keyint_min',
      '120',
      '-sc_threshold',
      '0',
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
      '-b:v:0',
      '5000000',
      '-maxrate:v:0',
      '5350000',
      '-bufsize:v:0',
      '7500000',
      ...hls('o', '2'),
      '-var_stream_map',
      'v:0,name:1080p',
      'o/%v/index.m3u8',
    ]);
    expect(TEST_WATERMARK).toMatch(/^drawtext=font=Sans:text='TEST ASSET':/);
  });

  it('relies on time-based key frames alone when the frame rate is unknown', () => {
    const args = buildLadderArgs('in.mkv', twoRungs, { outputDir: '/o', frameRate: -1 });
    expect(args).not.toContain('-g');
    expect(args).not.toContain('fps=60');
    expect(args.slice(args.indexOf('-sc_threshold'), args.indexOf('-sc_threshold') + 4)).toEqual([
      '-sc_threshold',
      '0',
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
    ]);
  });

  it('puts a key frame every keyframeSeconds (2 s by default), never further apart than a segment', () => {
    const gopOf = (options: { segmentSeconds?: number; keyframeSeconds?: number }) => {
      const args = buildLadderArgs('in.mp4', twoRungs, { outputDir: '/o', frameRate: 25, ...options });
      return [args[args.indexOf('-g') + 1], args[args.indexOf('-force_key_frames') + 1]];
    };
    expect(gopOf({})).toEqual(['50', 'expr:gte(t,n_forced*2)']);
    expect(gopOf({ keyframeSeconds: 1 })).toEqual(['25', 'expr:gte(t,n_forced*1)']);
    expect(gopOf({ segmentSeconds: 6, keyframeSeconds: 6 })).toEqual(['150', 'expr:gte(t,n_forced*6)']);
    expect(gopOf({ segmentSeconds: 1 })).toEqual(['25', 'expr:gte(t,n_forced*1)']);
  });

  it('encodes an audio-only ladder without any video option', () => {
    const ladder: Ladder = { video: [], audio: { bitrate: 128_000, channels: 2 } };
    expect(buildLadderArgs('in.m4a', ladder, { outputDir: '/o', frameRate: -1 })).toEqual([
      ...HEAD,
      '-i',
      'in.m4a',
      '-map',
      '0:a:0',
      '-c:a',
      'aac',
      '-b:a',
      '128000',
      '-ac',
      '2',
      ...hls('/o', '4'),
      '-var_stream_map',
      'a:0,name:audio',
      '/o/%v/index.m3u8',
    ]);
  });
});

describe('with the legacy HLS muxer of ffmpeg 4.1', () => {
  const legacyHls = (dir: string, seconds: string) => hls(dir, seconds).slice(0, -2); // no -master_pl_name

  it('leaves out `name:` and the master playlist, so variants are written by index', () => {
    expect(buildLadderArgs('/in/source.mp4', twoRungs, { outputDir: '/out', frameRate: 30, legacyHlsMuxer: true }).slice(-15)).toEqual([
      ...legacyHls('/out', '4'),
      '-var_stream_map',
      'v:0,a:0 v:1,a:1',
      '/out/%v/index.m3u8',
    ]);
    expect(buildRemuxArgs('a.mp4', { outputDir: 'o', hasVideo: true, hasAudio: true, legacyHlsMuxer: true }).slice(-3)).toEqual([
      '-var_stream_map',
      'v:0,a:0',
      'o/%v/index.m3u8',
    ]);
    const audioOnly = buildLadderArgs(
      'in.m4a',
      { video: [], audio: { bitrate: 128_000, channels: 2 } },
      { outputDir: '/o', frameRate: -1, legacyHlsMuxer: true },
    );
    expect(audioOnly.slice(-2)).toEqual(['a:0', '/o/%v/index.m3u8']);
  });

  it('names the folder of a variant by index then, by name otherwise', () => {
    expect([variantFolder(0, '720p'), variantFolder(1, '360p', { legacyHlsMuxer: false }), variantFolder(1, '360p', { legacyHlsMuxer: true })]).toEqual([
      '720p',
      '360p',
      '1',
    ]);
  });
});

describe('test watermark', () => {
  it('burns the given watermark filter instead of the default', () => {
    const ladder: Ladder = { video: [{ name: '240p', width: 426, height: 240, videoBitrate: 300_000 }] };
    const args = buildLadderArgs('in.mp4', ladder, { outputDir: 'o', frameRate: 25, test: true, watermark: TEST_WATERMARK_NO_FONT });
    expect(args[args.indexOf('-filter_complex') + 1]).toBe(`[0:v:0]${TEST_WATERMARK_NO_FONT},split=1[s0];[s0]scale=426:240,setsar=1,format=yuv420p[v0]`);
  });

  it('uses fontconfig, else a font file, else boxes only', () => {
    expect(testWatermark('fontconfig')).toBe(TEST_WATERMARK);
    expect(testWatermark({ fontFile: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf' })).toBe(
      "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='TEST ASSET':fontcolor=white@0.8:fontsize=h/10:box=1:boxcolor=black@0.5:boxborderw=12:x=(w-text_w)/2:y=(h-text_h)/2",
    );
    // a path the filtergraph would need escaped is not used
    expect(testWatermark({ fontFile: "C:\\Fonts\\it's.ttf" })).toBe(TEST_WATERMARK_NO_FONT);
    expect(testWatermark('none')).toBe(TEST_WATERMARK_NO_FONT);
  });
});

describe('buildRemuxArgs', () => {
  it('copies the first video and audio streams into one HLS variant folder', () => {
    expect(buildRemuxArgs('/in/a.mp4', { outputDir: '/out', hasVideo: true, hasAudio: true })).toEqual([
      ...HEAD,
      '-i',
      '/in/a.mp4',
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      '4',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'mpegts',
      '-hls_segment_filename',
      '/out/%v/segment_%03d.ts',
      '-var_stream_map',
      'v:0,a:0,name:source',
      '/out/%v/index.m3u8',
    ]);
  });

  it('maps only the video of a silent input, under the given name', () => {
    const args = buildRemuxArgs('a.mp4', { outputDir: 'o', hasVideo: true, hasAudio: false, name: 'src', segmentSeconds: 6 });
    expect(args.slice(args.indexOf('-i'), args.indexOf('-c'))).toEqual(['-i', 'a.mp4', '-map', '0:v:0']);
    expect(args.slice(-3)).toEqual(['-var_stream_map', 'v:0,name:src', 'o/%v/index.m3u8']);
    expect(args[args.indexOf('-hls_time') + 1]).toBe('6');
  });
});

describe('probe arguments', () => {
  it('asks ffprobe for format and streams as JSON', () => {
    expect(buildProbeArgs('/in/a.mp4')).toEqual(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '/in/a.mp4']);
  });

  it('asks for the codec, profile, level, size and frame rate of the streams of one segment, and decodes its first packets', () => {
    expect(buildSegmentProbeArgs('/o/720p/segment_000.ts')).toEqual([
      '-v',
      'error',
      '-read_intervals',
      '%+#20',
      '-count_frames',
      '-show_entries',
      'stream=codec_type,codec_name,profile,level,width,height,avg_frame_rate,nb_read_frames',
      '-print_format',
      'json',
      '/o/720p/segment_000.ts',
    ]);
  });

  it('asks for the packets of the first video stream only', () => {
    expect(buildKeyframeProbeArgs('x.mp4')).toEqual([
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,dts_time,size,flags',
      '-print_format',
      'json',
      'x.mp4',
    ]);
  });
});
