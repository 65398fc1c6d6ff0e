/** Mux's limit on an asset's length (12 hours): no media time of an asset lies beyond it. */
export const THUMBNAIL_TIME_MAX = 43200;

/**
 * Mux's `thumbnail_time` (PATCH): seconds into the asset, a finite number from 0 to 12 hours.
 * The problems found without the asset, each naming the field (none: valid so far).
 */
export function thumbnailTimeProblems(value: number): string[] {
  if (!Number.isFinite(value)) return ['thumbnail_time: must be a finite number'];
  if (value < 0) return ['thumbnail_time: must be at least 0'];
  if (value > THUMBNAIL_TIME_MAX) return [`thumbnail_time: must be at most ${THUMBNAIL_TIME_MAX}`];
  return [];
}

/**
 * Against the asset: within its duration once that is known (0 to the duration, both included).
 * While the duration is unknown (the asset is being prepared, a live recording is under way) the
 * value is stored as given, and whoever makes the thumbnail clamps it to the media.
 */
export function thumbnailTimeBeyondDuration(value: number, duration: number | null): string | undefined {
  return duration !== null && value > duration ? `thumbnail_time: must be within the asset's duration (${duration} s)` : undefined;
}
