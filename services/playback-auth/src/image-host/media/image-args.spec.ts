import { FrameGeometry } from '../image-geometry';
import { buildAnimatedArgs, buildCoverFrameArgs, buildPictureArgs, buildRawPictureArgs, buildStoryboardArgs, selectFrames } from './image-args';

const HEAD = ['-hide_banner', '-nostats', '-v', 'error'];
const plain = (width: number, height: number): FrameGeometry => ({
  rotate: 0,
  scaled: { width, height },
  fit: 'none',
  output: { width, height },
  flipV: false,
  flipH: false,
});

describe('image ffmpeg arguments', () => {
  it('a JPEG thumbnail: the decoder output chosen, scaled, full-range 4:2:0, one frame to stdout', () => {
    expect(buildPictureArgs({ h264: [7] }, plain(1280, 720), 'jpg')).toEqual([
      ...HEAD,
      '-f',
      'h264',
      '-i',
      'pipe:0',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      'select=eq(n\\,7),scale=1280:720:flags=bicubic,format=yuvj420p',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2pipe',
      'pipe:1',
    ]);
  });

  it('rotates, crops or pads, and flips in that order; PNG is RGB, WebP 4:2:0', () => {
    const crop: FrameGeometry = { rotate: 90, scaled: { width: 178, height: 100 }, fit: 'crop', output: { width: 100, height: 100 }, flipV: true, flipH: true };
    const args = buildPictureArgs({ h264: [0] }, crop, 'png');
    expect(args[args.indexOf('-vf') + 1]).toBe('select=eq(n\\,0),transpose=clock,scale=178:100:flags=bicubic,crop=100:100,hflip,vflip,format=rgb24');
    expect(args.slice(-5)).toEqual(['-c:v', 'png', '-f', 'image2pipe', 'pipe:1']);
    const pad: FrameGeometry = { ...crop, rotate: 180, scaled: { width: 100, height: 56 }, fit: 'pad', flipV: false, flipH: false };
    const padded = buildPictureArgs({ h264: [3] }, pad, 'webp');
    expect(padded[padded.indexOf('-vf') + 1]).toBe(
      'select=eq(n\\,3),hflip,vflip,scale=100:56:flags=bicubic,pad=100:100:(ow-iw)/2:(oh-ih)/2:black,format=yuv420p',
    );
    expect(padded.slice(-9)).toEqual(['-c:v', 'libwebp', '-quality', '80', '-compression_level', '2', '-f', 'image2pipe', 'pipe:1']);
    const rotated = buildPictureArgs({ h264: [0] }, { ...plain(100, 178), rotate: 270 }, 'jpg');
    expect(rotated[rotated.indexOf('-vf') + 1]).toBe('select=eq(n\\,0),transpose=cclock,scale=100:178:flags=bicubic,format=yuvj420p');
  });

  it('decodes MPEG-TS whole with the original timestamps for video the cut cannot take, choosing each first frame at or after its time', () => {
    const args = buildPictureArgs({ ts: [12.5] }, plain(640, 360), 'jpg');
    expect(args.slice(4, 11)).toEqual(['-copyts', '-f', 'mpegts', '-i', 'pipe:0', '-an', '-sn']);
    expect(args[args.indexOf('-vf') + 1]).toBe('select=gte(t\\,12.499900)*not(gte(prev_t\\,12.499900)),scale=640:360:flags=bicubic,format=yuvj420p');
  });

  it('smartcrop: the cover frame as raw RGB24, then the window encoded from raw RGB24 with the flips', () => {
    const geometry: FrameGeometry = {
      rotate: 0,
      scaled: { width: 178, height: 100 },
      fit: 'smartcrop',
      output: { width: 100, height: 100 },
      flipV: false,
      flipH: true,
    };
    expect(buildCoverFrameArgs({ h264: [2] }, geometry)).toEqual([
      ...HEAD,
      '-f',
      'h264',
      '-i',
      'pipe:0',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      'select=eq(n\\,2),scale=178:100:flags=bicubic,format=rgb24',
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      'pipe:1',
    ]);
    expect(buildRawPictureArgs({ width: 100, height: 100 }, geometry, 'jpg')).toEqual([
      ...HEAD,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      '100x100',
      '-i',
      'pipe:0',
      '-vf',
      'hflip,format=yuvj420p',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2pipe',
      'pipe:1',
    ]);
  });

  it('a storyboard: the tiles’ outputs, each scaled to the tile, laid out by the tile filter into one sheet', () => {
    const args = buildStoryboardArgs({ h264: [0, 3, 4] }, { width: 256, height: 144 }, { columns: 3, rows: 1 }, 'webp');
    expect(args[args.indexOf('-vf') + 1]).toBe('select=eq(n\\,0)+eq(n\\,3)+eq(n\\,4),scale=256:144:flags=bicubic,tile=3x1,format=yuv420p');
    expect(selectFrames([1])).toBe('select=eq(n\\,1)');
  });

  it('an animated GIF: the span trimmed on the segments’ clock, resampled, scaled, one palette for the clip', () => {
    expect(buildAnimatedArgs({ from: 3.4, to: 8.4 }, plain(320, 180), 15, 'gif')).toEqual([
      ...HEAD,
      '-copyts',
      '-f',
      'mpegts',
      '-i',
      'pipe:0',
      '-an',
      '-sn',
      '-dn',
      '-filter_complex',
      '[0:v:0]trim=start=3.399900:end=8.399900,setpts=PTS-STARTPTS,fps=15:round=up,scale=320:180:flags=lanczos,split[frames][stats];' +
        '[stats]palettegen=stats_mode=diff[palette];[frames][palette]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle',
      '-loop',
      '0',
      '-f',
      'gif',
      'pipe:1',
    ]);
    const webp = buildAnimatedArgs({ from: 0, to: 1 }, plain(320, 180), 10, 'webp');
    expect(webp.slice(webp.indexOf('-vf'))).toEqual([
      '-vf',
      'trim=start=-0.000100:end=0.999900,setpts=PTS-STARTPTS,fps=10:round=up,scale=320:180:flags=lanczos,format=yuv420p',
      '-c:v',
      'libwebp_anim',
      '-quality',
      '70',
      '-loop',
      '0',
      '-f',
      'webp',
      'pipe:1',
    ]);
  });
});
