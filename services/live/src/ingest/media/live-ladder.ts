import { bitrateFor, chooseLadder } from '@platform/media';

export type LiveLadderMode = 'passthrough' | 'full';

/** One rendition a live session publishes, in the order of the master playlist (the encoder's own first). */
export interface LiveRung {
  /** Its folder under the asset's `hls/`: `live` for the encoder's own, `live-360p`… below it. */
  folder: string;
  /** Its live-edge folder: `window`, `window-360p`… */
  windowFolder: string;
  /** The size it is scaled to; undefined for the encoder's own rendition (any size it sends). */
  scale?: { width: number; height: number };
  /** Target bit rate (bits per second) when it is encoded. */
  videoBitrate: number;
}

export const SOURCE_RUNG_FOLDER = 'live';
export const SOURCE_WINDOW_FOLDER = 'window';

/**
 * The renditions of a live session: the encoder's own on top (stream-copied when it is H.264/AAC),
 * then, for `full`, the VOD ladder's rungs below it (`chooseLadder`: the same short sides, bit rates
 * and spacing, capped by the source). Audio-only streams and video-less inputs have one rendition.
 */
export function planLiveLadder(mode: LiveLadderMode, video: { width: number; height: number } | undefined, audioOnly: boolean): LiveRung[] {
  const source: LiveRung = {
    folder: SOURCE_RUNG_FOLDER,
    windowFolder: SOURCE_WINDOW_FOLDER,
    videoBitrate: video ? bitrateFor(video.width * video.height) : 0,
  };
  if (mode === 'passthrough' || !video || audioOnly) return [source];
  const lower = chooseLadder(video, true).video.slice(1);
  return [
    source,
    ...lower.map((r) => ({
      folder: `live-${r.name}`,
      windowFolder: `window-${r.name}`,
      scale: { width: r.width, height: r.height },
      videoBitrate: r.videoBitrate,
    })),
  ];
}
