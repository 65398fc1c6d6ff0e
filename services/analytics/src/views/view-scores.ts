import { ViewMetrics } from './view-metrics';

/**
 * Per-view scores on Mux's API scale 0–1 (the dashboard's 0–100 ÷ 100), from the formulas Mux
 * documents (research note §1 "Scores"). A view that never reached its first frame gets no
 * startup, smoothness or quality score.
 */
export interface ViewScores {
  playback_score: number | null;
  startup_score: number | null;
  rebuffering_score: number | null;
  quality_score: number | null;
  viewer_experience_score: number | null;
}

/** 1 played, 0.5 exit before video start (none under 1 s of waiting), 0 playback failure. */
export function playbackSuccessScore(m: ViewMetrics): number | null {
  if (m.playback_failure) return 0;
  if (m.exit_before_video_start) return m.watch_time !== null && m.watch_time < 1000 ? null : 0.5;
  return m.watched ? 1 : null;
}

/** 8 / (8 + startup seconds): 400 ms → 0.95, 2 s → 0.8, 8 s → 0.5. */
export function startupTimeScore(m: ViewMetrics): number | null {
  if (!m.watched || m.time_to_first_frame === null) return null;
  return 8 / (8 + m.time_to_first_frame / 1000);
}

/** Mean of 1/√(1 + (count/2)²) and e^(−10 × rebuffer fraction). */
export function smoothnessScore(m: ViewMetrics): number | null {
  if (!m.watched || m.buffering_count === null || m.rebuffer_percentage === null) return null;
  const byCount = 1 / Math.sqrt(1 + (m.buffering_count / 2) ** 2);
  const byShare = Math.exp(-10 * m.rebuffer_percentage);
  return (byCount + byShare) / 2;
}

/** e^(−0.33 × (0.15 × max upscale + 0.85 × average upscale)), upscales as fractions. */
export function videoQualityScore(m: ViewMetrics): number | null {
  if (!m.watched || m.upscale_percentage === null) return null;
  return Math.exp(-0.33 * (0.15 * (m.view_max_upscale_percentage ?? m.upscale_percentage) + 0.85 * m.upscale_percentage));
}

/**
 * Mux's pairwise "Tradeoff" is not published. Ours ("Mux-like"): a weighted harmonic mean, so
 * the worse of two scores dominates, with weights following Mux's stated importance (smoothness
 * 3 > startup 2 > quality 1).
 */
export function tradeoff(a: number, weightA: number, b: number, weightB: number): number {
  if (a <= 0 || b <= 0) return 0;
  return (weightA + weightB) / (weightA / a + weightB / b);
}

const WEIGHTS = { smoothness: 3, startup: 2, quality: 1 } as const;

/**
 * PlaybackSuccess × mean of the tradeoffs of each pair of the other scores present: all three
 * give (T(Sm,Q) + T(Sm,Su) + T(Su,Q)) / 3 as Mux writes it; one present counts alone; none gives
 * the playback success score itself (an exit before video start: 0.5).
 */
export function viewerExperienceScore(success: number | null, smoothness: number | null, startup: number | null, quality: number | null): number | null {
  if (success === null) return null;
  const present: [number, number][] = [];
  if (smoothness !== null) present.push([smoothness, WEIGHTS.smoothness]);
  if (startup !== null) present.push([startup, WEIGHTS.startup]);
  if (quality !== null) present.push([quality, WEIGHTS.quality]);
  if (present.length === 0) return success;
  if (present.length === 1) return success * present[0][0];
  const pairs: number[] = [];
  for (let i = 0; i < present.length; i++)
    for (let j = i + 1; j < present.length; j++) pairs.push(tradeoff(present[i][0], present[i][1], present[j][0], present[j][1]));
  return success * (pairs.reduce((s, v) => s + v, 0) / pairs.length);
}

export function viewScores(m: ViewMetrics): ViewScores {
  const playback = playbackSuccessScore(m);
  const startup = startupTimeScore(m);
  const rebuffering = smoothnessScore(m);
  const quality = videoQualityScore(m);
  return {
    playback_score: playback,
    startup_score: startup,
    rebuffering_score: rebuffering,
    quality_score: quality,
    viewer_experience_score: viewerExperienceScore(playback, rebuffering, startup, quality),
  };
}
