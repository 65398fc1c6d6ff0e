import { mediaFactsOf, sourceMediaOf } from './media-probe';

describe('reading ffprobe', () => {
  const probe = {
    streams: [
      { index: 0, codec_type: 'video', codec_name: 'h264', width: 1280, height: 720, avg_frame_rate: '30000/1001' },
      { index: 1, codec_type: 'audio', codec_name: 'aac', channels: 1 },
    ],
    format: { start_time: '1.400000' },
  };

  it('a segment: size, frame rate, channels and the first packet time', () => {
    expect(mediaFactsOf(probe)).toEqual({ video: { width: 1280, height: 720, frameRate: 29.97 }, audio: { channels: 1 }, startTime: 1.4 });
    expect(mediaFactsOf({})).toEqual({});
  });

  it('an encoder: codecs and size; cover art is no picture', () => {
    expect(sourceMediaOf(probe)).toEqual({ video: { codec: 'h264', width: 1280, height: 720 }, audio: { codec: 'aac', channels: 1 } });
    const art = { streams: [{ index: 0, codec_type: 'video', codec_name: 'mjpeg', width: 300, height: 300, disposition: { attached_pic: 1 } }] };
    expect(sourceMediaOf(art)).toEqual({});
  });
});
