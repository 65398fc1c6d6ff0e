import { contentInput, slateInput } from './packager-inputs';

describe('contentInput', () => {
  const url = 'rtmp://127.0.0.1:1935/internal/abc';

  it('reads the local RTMP pull with a read timeout; copies H.264 and AAC, encodes anything else', () => {
    const h264 = contentInput(url, { video: { codec: 'h264', width: 640, height: 360 }, audio: { codec: 'aac', channels: 2 } });
    expect(h264).toMatchObject({
      args: ['-rw_timeout', '10000000', '-i', url],
      video: '0:v',
      audio: '0:a',
      copyVideo: true,
      copyAudio: true,
      keyFrames: 'source',
    });
    expect(h264.optional).toBe(true); // a probe of half a second may miss a stream that starts later
    const hevc = contentInput(url, { video: { codec: 'hevc', width: 640, height: 360 }, audio: { codec: 'opus', channels: 2 } });
    expect(hevc).toMatchObject({ copyVideo: false, copyAudio: false, tune: 'zerolatency', rateControl: 'bitrate', audioBitrate: '128k' });
  });

  it('maps only what the encoder sends: no picture for an audio_only stream or a sound-only encoder', () => {
    const aac = { codec: 'aac', channels: 2 };
    expect(contentInput(url, { video: { codec: 'h264', width: 640, height: 360 }, audio: aac }, true).video).toBeUndefined();
    expect(contentInput(url, { audio: aac }).video).toBeUndefined();
    expect(contentInput(url, { video: { codec: 'h264', width: 640, height: 360 } }).audio).toBeUndefined();
  });
});

describe('slateInput', () => {
  it('makes the default slate in real time at the session’s size, with silent audio of its channels, key frames at the segment length', () => {
    expect(slateInput({ video: { width: 1280, height: 720 }, audio: { channels: 2 } }, 2)).toEqual({
      args: ['-re', '-f', 'lavfi', '-i', 'color=c=0x1f2937:s=1280x720:r=30', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo'],
      video: '0:v',
      videoFilter: 'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,format=yuv420p,fps=30',
      audio: '1:a',
      copyVideo: false,
      copyAudio: false,
      keyFrames: { everyFrames: 60 },
      tune: 'stillimage',
      rateControl: 'quality',
      audioBitrate: '64k',
    });
  });

  it('loops the stream’s slate image, fitted into the picture; no sound for a silent session', () => {
    const slate = slateInput({ video: { width: 640, height: 360 } }, 4, '/tmp/slate-image');
    expect(slate.args).toEqual(['-re', '-loop', '1', '-framerate', '30', '-i', '/tmp/slate-image']);
    expect(slate.keyFrames).toEqual({ everyFrames: 120 });
    expect(slate.audio).toBeUndefined();
  });

  it('is silence only for an audio-only stream (mono stays mono)', () => {
    expect(slateInput({ audio: { channels: 1 } }, 1)).toMatchObject({ args: ['-re', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono'], audio: '0:a' });
    expect(slateInput({ audio: { channels: 1 } }, 1).video).toBeUndefined();
  });
});
