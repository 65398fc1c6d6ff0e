import { Ladder } from '@platform/media';
import { buildLadderArgs, buildRemuxArgs, LadderOverlay, TEST_WATERMARK } from './ffmpeg-args';

/** Watermarks and loudness normalization in the ladder and the quick source rendition (exact arguments). */

const twoRungs: Ladder = {
  video: [
    { name: '720p', width: 1280, height: 720, videoBitrate: 3_000_000 },
    { name: '360p', width: 640, height: 360, videoBitrate: 800_000 },
  ],
  audio: { bitrate: 128_000, channels: 2 },
};
const LOUDNORM = 'aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=11:measured_I=-40.00,aresample=48000';
const corner: LadderOverlay = {
  image: '/w/overlay',
  imageSize: { width: 200, height: 100 },
  settings: { vertical_align: 'bottom', vertical_margin: '5%', horizontal_align: 'right', horizontal_margin: '5%', width: '20%' },
};
const between = (args: string[], from: string, to: string) => args.slice(args.indexOf(from), args.indexOf(to));

describe('buildLadderArgs with a watermark', () => {
  it('reads the image as the second input and burns it once, at the top rendition size, before the split', () => {
    const args = buildLadderArgs('/in/source.mp4', twoRungs, { outputDir: '/out', frameRate: 30, overlays: [corner] });
    expect(between(args, '-i', '-c:v')).toEqual([
      '-i',
      '/in/source.mp4',
      '-i',
      '/w/overlay',
      '-filter_complex',
      // 20 % of 1280 = 256 wide (128 high, the image's 2:1); 5 % margins: 64 from the right, 36 from the bottom
      '[1:v]scale=256:128,format=rgba[wm0];' +
        '[0:v:0]scale=1280:720,setsar=1[base];' +
        '[base][wm0]overlay=x=960:y=556:eof_action=repeat,split=2[s0][s1];' +
        '[s0]scale=1280:720,setsar=1,format=yuv420p[v0];' +
        '[s1]scale=640:360,setsar=1,format=yuv420p[v1]',
      '-map',
      '[v0]',
      '-map',
      '0:a:0',
      '-map',
      '[v1]',
      '-map',
      '0:a:0',
    ]);
  });

  it('places a centred image with its shift and opacity, its own pixels as if the video were 1920x1080', () => {
    const overlay: LadderOverlay = {
      image: 'wm.jpg',
      imageSize: { width: 300, height: 150 },
      settings: { vertical_align: 'middle', vertical_margin: '-10%', horizontal_align: 'center', horizontal_margin: '60px', opacity: '50%' },
    };
    const args = buildLadderArgs('in.mp4', twoRungs, { outputDir: 'o', frameRate: 25, overlays: [overlay] });
    // on 1280x720 (2/3 of 1920x1080): 200x100; x = (1280-200)/2 + 40, y = (720-100)/2 - 72
    expect(args[args.indexOf('-filter_complex') + 1]).toBe(
      '[1:v]scale=200:100,format=rgba,colorchannelmixer=aa=0.5[wm0];' +
        '[0:v:0]scale=1280:720,setsar=1[base];' +
        '[base][wm0]overlay=x=580:y=238:eof_action=repeat,split=2[s0][s1];' +
        '[s0]scale=1280:720,setsar=1,format=yuv420p[v0];' +
        '[s1]scale=640:360,setsar=1,format=yuv420p[v1]',
    );
  });

  it('on a test asset: 10 s of the main input only, the frame-rate cap and the test mark first', () => {
    const ladder: Ladder = { video: [{ name: '1080p', width: 1920, height: 1080, videoBitrate: 5_000_000 }] };
    const args = buildLadderArgs('in.mov', ladder, { outputDir: 'o', frameRate: 120, test: true, overlays: [{ ...corner, settings: {} }] });
    expect(between(args, '-t', '-map')).toEqual([
      '-t',
      '10',
      '-i',
      'in.mov',
      '-i',
      '/w/overlay',
      '-filter_complex',
      `[1:v]scale=200:100,format=rgba[wm0];[0:v:0]fps=60,${TEST_WATERMARK},scale=1920:1080,setsar=1[base];` +
        '[base][wm0]overlay=x=0:y=0:eof_action=repeat,split=1[s0];[s0]scale=1920:1080,setsar=1,format=yuv420p[v0]',
    ]);
  });

  it('burns several watermarks one over the other, each an input of its own, the last feeding the split', () => {
    const logo: LadderOverlay = { image: '/w/logo', imageSize: { width: 100, height: 100 }, settings: { width: '10%' } };
    const args = buildLadderArgs('/in/source.mp4', twoRungs, { outputDir: '/out', frameRate: 30, overlays: [corner, logo] });
    expect(between(args, '-i', '-filter_complex')).toEqual(['-i', '/in/source.mp4', '-i', '/w/overlay', '-i', '/w/logo']);
    expect(args[args.indexOf('-filter_complex') + 1]).toBe(
      '[1:v]scale=256:128,format=rgba[wm0];[2:v]scale=128:128,format=rgba[wm1];' +
        '[0:v:0]scale=1280:720,setsar=1[base];' +
        '[base][wm0]overlay=x=960:y=556:eof_action=repeat[o0];' +
        '[o0][wm1]overlay=x=0:y=0:eof_action=repeat,split=2[s0][s1];' +
        '[s0]scale=1280:720,setsar=1,format=yuv420p[v0];' +
        '[s1]scale=640:360,setsar=1,format=yuv420p[v1]',
    );
  });

  it('leaves an audio-only ladder without the image', () => {
    const args = buildLadderArgs('in.m4a', { video: [], audio: { bitrate: 128_000, channels: 2 } }, { outputDir: '/o', frameRate: -1, overlays: [corner] });
    expect(args).not.toContain('/w/overlay');
    expect(args).not.toContain('-filter_complex');
  });
});

describe('buildLadderArgs with an audio filter (normalize_audio)', () => {
  it('filters the audio once and splits it to every variant', () => {
    const args = buildLadderArgs('/in/source.mp4', twoRungs, { outputDir: '/out', frameRate: 30, audioFilter: LOUDNORM });
    expect(between(args, '-filter_complex', '-c:v')).toEqual([
      '-filter_complex',
      '[0:v:0]split=2[s0][s1];[s0]scale=1280:720,setsar=1,format=yuv420p[v0];[s1]scale=640:360,setsar=1,format=yuv420p[v1];' +
        `[0:a:0]${LOUDNORM},asplit=2[a0][a1]`,
      '-map',
      '[v0]',
      '-map',
      '[a0]',
      '-map',
      '[v1]',
      '-map',
      '[a1]',
    ]);
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + 6)).toEqual(['-c:a', 'aac', '-b:a', '128000', '-ac', '2']);
  });

  it('filters an audio-only ladder through a filtergraph of its own', () => {
    const args = buildLadderArgs('in.m4a', { video: [], audio: { bitrate: 128_000, channels: 2 } }, { outputDir: '/o', frameRate: -1, audioFilter: LOUDNORM });
    expect(between(args, '-i', '-c:a')).toEqual(['-i', 'in.m4a', '-filter_complex', `[0:a:0]${LOUDNORM}[a0]`, '-map', '[a0]']);
  });

  it('ignores the filter for a silent video', () => {
    const silent: Ladder = { video: twoRungs.video };
    const args = buildLadderArgs('in.mp4', silent, { outputDir: '/o', frameRate: 30, audioFilter: LOUDNORM });
    expect(args.join(' ')).not.toContain('loudnorm');
    expect(args).not.toContain('-c:a');
  });

  it('goes with a watermark: video and audio graphs side by side', () => {
    const args = buildLadderArgs('in.mp4', twoRungs, { outputDir: '/o', frameRate: 30, audioFilter: LOUDNORM, overlays: [corner] });
    const graph = args[args.indexOf('-filter_complex') + 1].split(';');
    expect(graph[0]).toBe('[1:v]scale=256:128,format=rgba[wm0]');
    expect(graph[graph.length - 1]).toBe(`[0:a:0]${LOUDNORM},asplit=2[a0][a1]`);
  });
});

describe('buildRemuxArgs with an audio filter', () => {
  it('still copies the video, and encodes the filtered audio to AAC at the ladder bit rate', () => {
    const args = buildRemuxArgs('/in/a.mp4', { outputDir: '/out', hasVideo: true, hasAudio: true, audioFilter: LOUDNORM });
    expect(between(args, '-map', '-f')).toEqual(['-map', '0:v:0', '-map', '0:a:0', '-c:v', 'copy', '-af', LOUDNORM, '-c:a', 'aac', '-b:a', '128000']);
  });

  it('copies everything when there is no audio to filter', () => {
    const args = buildRemuxArgs('/in/a.mp4', { outputDir: '/out', hasVideo: true, hasAudio: false, audioFilter: LOUDNORM });
    expect(between(args, '-map', '-f')).toEqual(['-map', '0:v:0', '-c', 'copy']);
  });
});
