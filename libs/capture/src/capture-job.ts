/** What a capture worker is told to do: load `url` in a `width`×`height` browser and push it to `rtmpUrl`. */
export interface CaptureJobSpec {
  jobId: string;
  url: string;
  width: number;
  height: number;
  fps: number;
  /** The live stream's ingest URL, stream key included. */
  rtmpUrl: string;
  /** Streaming seconds before the worker stops by itself. */
  timeoutSeconds: number;
  ffmpegPath: string;
  chromiumPath: string;
  /** OUTBOUND_ALLOW: which addresses the browser may load (checked on every request it makes). */
  outboundAllow: 'public' | 'loopback' | 'private';
  /** Origins the browser may load whatever their address (the platform's own pages: a broadcast's compositor). */
  trustedOrigins?: string[];
}

/** Who a job is for: a web input, or (from spaces) a space's broadcast. Capture Pods are labelled with it. */
export type CaptureJobKind = 'web_input' | 'broadcast';

/** What a worker reports while it runs; `ended` is its last word (then it exits). */
export type CaptureReport =
  | { type: 'page_loaded'; loads: number }
  | { type: 'encoding' }
  /** The browser's process group (the launcher kills it with the job's own). */
  | { type: 'browser'; pid: number }
  | { type: 'ended'; reason: string; failed: boolean };

/** What the control plane may tell a running worker. */
export type CaptureCommand = { type: 'reload' } | { type: 'shutdown' };

/** Video bitrate for a frame size (LiveKit egress presets: 720p30 3000 kb/s, 1080p30 4500 kb/s). */
export function captureVideoKbps(width: number, height: number): number {
  return width * height > 1280 * 720 ? 4500 : 3000;
}

/** A web input's or broadcast's `resolution` (`1920x1080`) → the browser's width and height. */
export function viewportOf(resolution: string): { width: number; height: number } {
  const [width, height] = resolution.split('x').map(Number);
  return { width, height };
}
