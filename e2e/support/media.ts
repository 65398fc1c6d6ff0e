import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The system ffmpeg the scripts installed (FFMPEG_PATH/FFPROBE_PATH override). */
export const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

export interface ClipOptions {
  seconds: number;
  width: number;
  height: number;
  fps?: number;
  /** Default `libx264` + `aac` in MP4: a standard input. */
  videoCodec?: string;
  audioCodec?: string | null;
  extension?: string;
  /** MP4 with its index (moov) first, as files made for the web are. */
  faststart?: boolean;
}

/** A synthetic clip (moving test pattern and a tone) made with ffmpeg. */
export async function makeClip(dir: string, name: string, o: ClipOptions): Promise<string> {
  const file = path.join(dir, `${name}.${o.extension ?? 'mp4'}`);
  const fps = o.fps ?? 30;
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${fps}:duration=${o.seconds}`];
  if (o.audioCodec !== null) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${o.seconds}`);
  args.push('-c:v', o.videoCodec ?? 'libx264', '-pix_fmt', 'yuv420p');
  if ((o.videoCodec ?? 'libx264') === 'libx264') args.push('-preset', 'ultrafast', '-g', String(fps * 2));
  if (o.audioCodec !== null) args.push('-c:a', o.audioCodec ?? 'aac', '-ac', '2');
  if (o.faststart) args.push('-movflags', '+faststart');
  args.push(file);
  await run(FFMPEG, args);
  return file;
}

export interface ProbeStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  channels?: number;
  sample_rate?: string;
}

export interface Probe {
  format: { format_name: string; duration?: string };
  streams: ProbeStream[];
}

/** ffprobe's own reading of a file or URL (HLS over http included). */
export async function ffprobe(input: string): Promise<Probe> {
  const { stdout } = await run(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Probe;
}

export interface FileServer {
  url(name: string): string;
  /** Every path requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of a folder over local HTTP, as a user's media host would. */
export async function serveFiles(dir: string): Promise<FileServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    requests.push(name);
    const file = path.join(dir, path.basename(name));
    if (!name || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
