import { imageFile, ImageRequestError, mergeClaims, parseImageRequest } from './image-request';

const parse = (name: string, params: Record<string, string> = {}) => parseImageRequest(imageFile(name)!, params);
const problems = (name: string, params: Record<string, string>) => {
  try {
    parse(name, params);
  } catch (err) {
    if (err instanceof ImageRequestError) return err.messages;
    throw err;
  }
  throw new Error('parsed without a problem');
};

describe('image file names', () => {
  it('knows Mux’s image files and their extensions, nothing else', () => {
    expect(imageFile('thumbnail.jpg')).toEqual({ kind: 'thumbnail', extension: 'jpg' });
    expect(imageFile('thumbnail.webp')).toEqual({ kind: 'thumbnail', extension: 'webp' });
    expect(imageFile('animated.gif')).toEqual({ kind: 'animated', extension: 'gif' });
    expect(imageFile('storyboard.vtt')).toEqual({ kind: 'storyboard', extension: 'vtt' });
    expect(imageFile('storyboard.json')).toEqual({ kind: 'storyboard', extension: 'json' });
    for (const name of ['thumbnail.gif', 'animated.jpg', 'storyboard.gif', 'thumbnail.jpg.png', 'high.mp4', 'thumbnail'])
      expect(imageFile(name)).toBeUndefined();
  });
});

describe('parseImageRequest', () => {
  it('gives a thumbnail Mux’s defaults: no time (the asset decides), its own size, preserve, no rotation or flip', () => {
    expect(parse('thumbnail.png')).toEqual({
      kind: 'thumbnail',
      format: 'png',
      time: undefined,
      width: undefined,
      height: undefined,
      fitMode: 'preserve',
      rotate: 0,
      flipV: false,
      flipH: false,
      latest: false,
    });
  });

  it('reads every thumbnail parameter', () => {
    expect(
      parse('thumbnail.jpg', { time: '12.5', width: '640', height: '360', fit_mode: 'smartcrop', rotate: '90', flip_v: 'true', flip_h: '1', latest: 'false' }),
    ).toEqual({
      kind: 'thumbnail',
      format: 'jpg',
      time: 12.5,
      width: 640,
      height: 360,
      fitMode: 'smartcrop',
      rotate: 90,
      flipV: true,
      flipH: true,
      latest: false,
    });
    expect(parse('thumbnail.webp', { time: '.5' })).toMatchObject({ time: 0.5 });
    // an out-of-range time is clamped to the asset later, not refused
    expect(parse('thumbnail.webp', { time: '-3' })).toMatchObject({ time: -3 });
  });

  it('refuses each bad thumbnail parameter by name, all at once', () => {
    expect(problems('thumbnail.jpg', { time: 'soon', width: '0', height: '99999', fit_mode: 'zoom', rotate: '45', flip_v: 'yes' })).toEqual([
      'time: must be a number of seconds, got "soon"',
      'width: must be a whole number from 1 to 3840, got "0"',
      'height: must be a whole number from 1 to 3840, got "99999"',
      'fit_mode: must be one of preserve, stretch, crop, smartcrop, pad, got "zoom"',
      'rotate: must be one of 0, 90, 180, 270, got "45"',
      'flip_v: must be true or false, got "yes"',
    ]);
    expect(problems('thumbnail.jpg', { width: '12.5' })).toEqual(['width: must be a whole number from 1 to 3840, got "12.5"']);
    expect(problems('thumbnail.jpg', { time: 'Infinity' })).toEqual(['time: must be a number of seconds, got "Infinity"']);
    expect(problems('thumbnail.jpg', { program_time: '1700000000' })).toEqual([
      'program_time: not supported (recordings carry no program date time); use time or asset_start_time',
    ]);
  });

  it('gives an animated image 5 s from 0 at 15 fps, and keeps its span within Mux’s 250 ms to 10 s', () => {
    expect(parse('animated.gif')).toEqual({ kind: 'animated', format: 'gif', start: 0, end: 5, width: undefined, height: undefined, fps: 15 });
    expect(parse('animated.webp', { start: '3', width: '640', fps: '30' })).toEqual({
      kind: 'animated',
      format: 'webp',
      start: 3,
      end: 8,
      width: 640,
      height: undefined,
      fps: 30,
    });
    expect(problems('animated.gif', { start: '1', end: '12' })).toEqual(['end: must be at most 10 seconds after start (11 s asked)']);
    expect(problems('animated.gif', { start: '1', end: '1.1' })).toEqual(['end: must be at least 0.25 seconds after start']);
    expect(problems('animated.gif', { width: '641', fps: '31', start: '-1' })).toEqual([
      'start: must be at least 0, got -1',
      'width: must be a whole number from 1 to 640, got "641"',
      'fps: must be a whole number from 1 to 30, got "31"',
    ]);
  });

  it('gives a storyboard its sheet format: the extension, or for VTT and JSON the format parameter (jpg by default)', () => {
    expect(parse('storyboard.webp')).toEqual({ kind: 'storyboard', format: 'webp', imageFormat: 'webp' });
    expect(parse('storyboard.vtt')).toEqual({ kind: 'storyboard', format: 'vtt', imageFormat: 'jpg' });
    expect(parse('storyboard.json', { format: 'webp', asset_start_time: '10', asset_end_time: '20' })).toEqual({
      kind: 'storyboard',
      format: 'json',
      imageFormat: 'webp',
      assetStartTime: 10,
      assetEndTime: 20,
    });
    expect(problems('storyboard.vtt', { format: 'gif' })).toEqual(['format: must be one of jpg, png, webp, got "gif"']);
    expect(problems('storyboard.jpg', { asset_start_time: '20', asset_end_time: '10' })).toEqual(['asset_end_time: must be after asset_start_time']);
  });
});

describe('mergeClaims', () => {
  it('lays a signed token’s claims over the query (a claim wins), leaving out the token and JWT/Mux claims', () => {
    const merged = mergeClaims(
      { token: 'x.y.z', time: '1', width: '100', fit_mode: 'crop' },
      { sub: 'pid', aud: 't', exp: 1, kid: 'k', playback_restriction_id: 'r', time: 5, width: '320', flip_h: true, nested: { a: 1 } },
    );
    expect(merged).toEqual({ time: '5', width: '320', fit_mode: 'crop', flip_h: 'true' });
    expect(parse('thumbnail.jpg', merged)).toMatchObject({ time: 5, width: 320, fitMode: 'crop', flipH: true });
  });
});
