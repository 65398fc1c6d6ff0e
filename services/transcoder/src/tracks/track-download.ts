import { PlatformConfig } from '@platform/config';
import { DownloadError } from '../ingest/download';
import { downloadInThread } from '../ingest/download-thread';
import { TrackInputError } from './track-task';

/**
 * A track's file (subtitles, audio) fetched as an asset's input is: through the outbound guard
 * (OUTBOUND_ALLOW), bounded in size, time and idle time, on a thread of its own. A failure is the
 * track's error (`Unable to download input file: …`).
 */
export async function downloadTrackFile(
  config: PlatformConfig,
  url: string,
  file: string,
  signal: AbortSignal,
  maxBytes = config.media.inputMaxBytes,
): Promise<void> {
  const { inputDownloadTimeoutSeconds, inputDownloadIdleSeconds } = config.media;
  try {
    await downloadInThread(url, file, {
      maxBytes,
      timeoutSeconds: inputDownloadTimeoutSeconds,
      idleSeconds: inputDownloadIdleSeconds,
      outboundAllow: config.outboundAllow,
      signal,
    });
  } catch (err) {
    if (err instanceof DownloadError) throw new TrackInputError([err.message]);
    throw err;
  }
}
