/** Settings of the view builder; the app reads them from the environment (`viewsOptionsFromEnv`). */
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

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** VIEW_SILENCE_SECONDS, VIEW_SWEEP_SECONDS, VIEW_STATE_CACHE_SIZE; a bad value throws naming the variable. */
export function viewsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ViewsOptions {
  return {
    silenceMs: positiveInteger(env, 'VIEW_SILENCE_SECONDS', DEFAULT_VIEWS_OPTIONS.silenceMs / 1000) * 1000,
    sweepIntervalMs: positiveInteger(env, 'VIEW_SWEEP_SECONDS', DEFAULT_VIEWS_OPTIONS.sweepIntervalMs / 1000) * 1000,
    cacheSize: positiveInteger(env, 'VIEW_STATE_CACHE_SIZE', DEFAULT_VIEWS_OPTIONS.cacheSize),
    sweepLimit: DEFAULT_VIEWS_OPTIONS.sweepLimit,
  };
}
