import { slateEnabled, slateInput } from './slate';

describe('slateEnabled', () => {
  it('is always on for reduced and low latency with a reconnect window, on for standard only when asked', () => {
    expect(slateEnabled({ reconnectWindow: 10, latencyMode: 'reduced', useSlateForStandardLatency: false })).toBe(true);
    expect(slateEnabled({ reconnectWindow: 10, latencyMode: 'low', useSlateForStandardLatency: false })).toBe(true);
    expect(slateEnabled({ reconnectWindow: 60, latencyMode: 'standard', useSlateForStandardLatency: false })).toBe(false);
    expect(slateEnabled({ reconnectWindow: 60, latencyMode: 'standard', useSlateForStandardLatency: true })).toBe(true);
  });

  it('is off without a reconnect window', () => {
    expect(slateEnabled({ reconnectWindow: 0, latencyMode: 'low', useSlateForStandardLatency: true })).toBe(false);
  });
});

describe('slateInput', () => {
  it('makes the default slate in real time at the session’s size, with silent audio of its channels, key frames at the segment length', () => {
    expect(slateInput({ video: { width: 1280, height: 720 }, audio: { channels: 2 } }, 'reduced')).toEqual([
      '-re',
      '-f',
      'lavfi',
      '-i',
      'color=c=0x1f2937:s=1280x720:r=30',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=stereo',
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-vf',
      'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,format=yuv420p,fps=30',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'stillimage',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
    ]);
  });

  it('loops the stream’s slate image, fitted into the picture', () => {
    const args = slateInput({ video: { width: 640, height: 360 } }, 'standard', '/tmp/slate-image');
    expect(args.slice(0, 7)).toEqual(['-re', '-loop', '1', '-framerate', '30', '-i', '/tmp/slate-image']);
    expect(args).toContain('-g');
    expect(args[args.indexOf('-g') + 1]).toBe('120');
    expect(args).not.toContain('-c:a');
  });

  it('is silence only for an audio-only stream (mono stays mono)', () => {
    expect(slateInput({ audio: { channels: 1 } }, 'low')).toEqual([
      '-re',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=mono',
      '-map',
      '0:a',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
    ]);
  });
});
