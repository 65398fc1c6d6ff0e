/** Where the worker's picture and sound come from, and where they go. */
export interface CaptureEncoderInput {
  /** The X display the browser draws on, e.g. `:99`. */
  display: string;
  width: number;
  height: number;
  fps: number;
  /** The private PulseAudio server (`unix:/…/native`) and its null sink, whose monitor carries the page's sound. */
  pulseServer: string;
  sink: string;
  videoKbps: number;
  rtmpUrl: string;
}

/**
 * ffmpeg grabbing the display and the sink's monitor and pushing H.264/AAC over RTMP (FLV): an encoder like
 * any other to our ingest. Key frames every 2 s (the ingest segments on them); zerolatency so nothing waits on
 * lookahead; audio resampled to absorb the two clocks' drift; progress on stdout (`pipe:1`).
 */
export function captureEncoderArgs(i: CaptureEncoderInput): string[] {
  const kbps = `${i.videoKbps}k`;
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-thread_queue_size',
    '4096',
    '-f',
    'x11grab',
    '-draw_mouse',
    '0',
    '-framerate',
    String(i.fps),
    '-video_size',
    `${i.width}x${i.height}`,
    '-i',
    i.display,
    '-thread_queue_size',
    '4096',
    '-f',
    'pulse',
    '-server',
    i.pulseServer,
    '-i',
    `${i.sink}.monitor`,
    '-af',
    'aresample=async=1',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(i.fps * 2),
    '-keyint_min',
    String(i.fps * 2),
    '-sc_threshold',
    '0',
    '-b:v',
    kbps,
    '-maxrate',
    kbps,
    '-bufsize',
    `${i.videoKbps * 2}k`,
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-f',
    'flv',
    i.rtmpUrl,
  ];
}
