import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { guardedRequest, OutboundGuard, OutboundRefusedError } from '@platform/outbound';
import path from 'node:path';
import { LatencyMode } from '../live-streams/live-stream.entity';
import { probeMedia } from './media/media-probe';

const MAX_SLATE_BYTES = 20 * 1024 * 1024;
const SLATE_DOWNLOAD_MS = 10_000;

/** Whether slate fills the reconnect window (spec 2.3): reduced and low latency always, standard when asked; never without a window. */
export function slateEnabled(stream: { reconnectWindow: number; latencyMode: LatencyMode; useSlateForStandardLatency: boolean }): boolean {
  return stream.reconnectWindow > 0 && (stream.latencyMode !== 'standard' || stream.useSlateForStandardLatency);
}

/**
 * Downloads the stream's `reconnect_slate_url` for a new recording (spec 2.3: per recorded asset),
 * through the outbound guard (OUTBOUND_ALLOW: the address checked after DNS, the connection made to
 * it, every redirect checked again). Undefined when it cannot be had (the default slate is used
 * then); the reason goes to `warn`.
 */
export async function downloadSlate(
  url: string,
  file: string,
  isImage: (file: string) => Promise<boolean>,
  warn: (message: string) => void,
  guard: OutboundGuard,
): Promise<string | undefined> {
  try {
    const { response } = await guardedRequest(guard, url, { signal: AbortSignal.timeout(SLATE_DOWNLOAD_MS) });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.resume();
      throw new Error(`HTTP ${status}`);
    }
    const length = Number(response.headers['content-length'] ?? 0);
    if (length > MAX_SLATE_BYTES) {
      response.destroy();
      throw new Error(`larger than ${MAX_SLATE_BYTES} bytes`);
    }
    let seen = 0;
    response.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > MAX_SLATE_BYTES) response.destroy(new Error(`larger than ${MAX_SLATE_BYTES} bytes`));
    });
    await pipeline(response, fs.createWriteStream(file));
    if (!(await isImage(file))) throw new Error('not an image ffmpeg can read');
    return file;
  } catch (err) {
    await fsp.rm(file, { force: true });
    const reason = err instanceof OutboundRefusedError ? `refused: ${err.reason}` : err instanceof Error ? err.message : String(err);
    warn(`reconnect_slate_url could not be downloaded (${reason}); the default slate is used`);
    return undefined;
  }
}

/** The slate image of a recording, downloaded into its work folder and checked to be a picture (downloadSlate). */
export async function fetchSlateImage(
  url: string,
  workDir: string,
  tools: { ffprobePath: string; guard: OutboundGuard; warn(message: string): void },
): Promise<string | undefined> {
  await fsp.mkdir(workDir, { recursive: true });
  const isPicture = async (file: string) => (await probeMedia(tools.ffprobePath, file)).video !== undefined;
  return downloadSlate(url, path.join(workDir, 'slate-image'), isPicture, (message) => tools.warn(message), tools.guard);
}
