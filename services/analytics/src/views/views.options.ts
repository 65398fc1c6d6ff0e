/** Settings of the view builder; the app takes them from `config.views` (validated by @platform/config). */
export interface ViewsOptions {
  /** A view with no beacon for this long is closed as dropped (VIEW_SILENCE_SECONDS, default 3600: Mux's 60 min). */
  silenceMs: number;
  /** How often the sweeper looks for silent views (VIEW_SWEEP_SECONDS, default 60). */
  sweepIntervalMs: number;
  /** Open views whose folded state stays in memory; others are folded again from storage (VIEW_STATE_CACHE_SIZE, default 20000). */
  cacheSize: number;
  /** Silent views closed per sweep at most; the rest wait for the next one. */
  sweepLimit: number;
}

export const VIEWS_OPTIONS = Symbol('VIEWS_OPTIONS');

export const DEFAULT_VIEWS_OPTIONS: ViewsOptions = { silenceMs: 3_600_000, sweepIntervalMs: 60_000, cacheSize: 20_000, sweepLimit: 1_000 };
