/**
 * The renditions a view played, weighted by playing time: weighted_average_bitrate is computed
 * server-side (mux-embed does not send it) from `video_source_bitrate` (the manifest's BANDWIDTH,
 * carried by every renditionchange) and the growth of `view_playing_time_ms_cumulative` between
 * consecutive events, credited to the bitrate that was current before the later event.
 */
export interface RenditionTimeline {
  bitrate: number | null;
  lastPlayingMs: number;
  /** Σ bitrate × playing ms, over the playing time whose bitrate was known. */
  bitrateMs: number;
  knownPlayingMs: number;
  changeCount: number;
  upshiftCount: number;
  downshiftCount: number;
}

export function emptyRenditionTimeline(): RenditionTimeline {
  return { bitrate: null, lastPlayingMs: 0, bitrateMs: 0, knownPlayingMs: 0, changeCount: 0, upshiftCount: 0, downshiftCount: 0 };
}

/** Credits the playing time since the previous event to the bitrate current until now. */
export function advancePlayingTime(timeline: RenditionTimeline, playingMs: number | null): void {
  if (playingMs === null) return;
  const delta = playingMs - timeline.lastPlayingMs;
  if (delta > 0 && timeline.bitrate !== null) {
    timeline.bitrateMs += timeline.bitrate * delta;
    timeline.knownPlayingMs += delta;
  }
  if (delta > 0) timeline.lastPlayingMs = playingMs;
}

/** A new current bitrate; a renditionchange between two known, different bitrates is a shift. */
export function switchBitrate(timeline: RenditionTimeline, bitrate: number | null, isRenditionChange: boolean): void {
  if (bitrate === null || bitrate <= 0 || bitrate === timeline.bitrate) return;
  if (isRenditionChange && timeline.bitrate !== null) {
    timeline.changeCount++;
    if (bitrate > timeline.bitrate) timeline.upshiftCount++;
    else timeline.downshiftCount++;
  }
  timeline.bitrate = bitrate;
}

/** bits per second, or null before any playing time at a known bitrate. */
export function weightedAverageBitrate(timeline: RenditionTimeline): number | null {
  return timeline.knownPlayingMs > 0 ? timeline.bitrateMs / timeline.knownPlayingMs : null;
}
