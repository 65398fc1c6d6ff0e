import { captureEncoderArgs } from './capture-encoder-args';

describe('captureEncoderArgs', () => {
  it('grabs the display and the sink monitor and pushes H.264/AAC FLV with 2 s key frames', () => {
    const args = captureEncoderArgs({
      display: ':99',
      width: 1280,
      height: 720,
      fps: 30,
      pulseServer: 'unix:/tmp/job/native',
      sink: 'capture',
      videoKbps: 3000,
      rtmpUrl: 'rtmp://127.0.0.1:1935/app/key',
    });
    expect(args.join(' ')).toBe(
      '-hide_banner -loglevel error -nostats -progress pipe:1 ' +
        '-thread_queue_size 4096 -f x11grab -draw_mouse 0 -framerate 30 -video_size 1280x720 -i :99 ' +
        '-thread_queue_size 4096 -f pulse -server unix:/tmp/job/native -i capture.monitor ' +
        '-af aresample=async=1 -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 ' +
        '-b:v 3000k -maxrate 3000k -bufsize 6000k -c:a aac -b:a 128k -ar 48000 -ac 2 -f flv rtmp://127.0.0.1:1935/app/key',
    );
  });
});
