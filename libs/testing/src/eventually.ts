/**
 * Waiting in tests for something that happens in the background: poll it (never a bare sleep). Each
 * function tries at once, then every `intervalMs` until `timeoutMs` has passed, with a last try at the deadline.
 */
export interface PollOptions {
  /** How long to keep trying (default 5000 ms). */
  timeoutMs?: number;
  /** The pause between tries (default 20 ms). */
  intervalMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_INTERVAL_MS = 20;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it reports done; when the time is up, returns false instead of trying again. */
async function poll(attempt: () => Promise<boolean>, options: PollOptions): Promise<boolean> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await attempt()) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await pause(Math.min(intervalMs, left));
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Resolves with the first value of `probe` that is neither `undefined` nor `false` (so a condition can be
 * returned as it is). A probe that throws is tried again; at the deadline it rejects with an error naming
 * `what`, and the error of the last try if that try threw.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, options: PollOptions = {}): Promise<T> {
  let value: T | undefined;
  let lastError: { error: unknown } | undefined;
  const done = await poll(async () => {
    try {
      const got = await probe();
      lastError = undefined;
      if (got === undefined || got === false) return false;
      value = got;
      return true;
    } catch (error) {
      lastError = { error };
      return false;
    }
  }, options);
  if (done) return value as T;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const last = lastError ? `; the last try threw: ${messageOf(lastError.error)}` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}`, lastError ? { cause: lastError.error } : undefined);
}

/**
 * Retries `check` (a block of expectations) until it stops throwing. At the deadline it rethrows the last
 * error as it is, so jest shows the expectation that still failed, with its diff.
 */
export async function eventually(check: () => void | Promise<void>, options: PollOptions = {}): Promise<void> {
  let lastError: unknown;
  const done = await poll(async () => {
    try {
      await check();
      return true;
    } catch (error) {
      lastError = error;
      return false;
    }
  }, options);
  if (!done) throw lastError;
}

/**
 * Reads until `check` holds of what was read, and resolves with the last read either way: at the deadline the
 * caller's own expectations on it show what it was. A read that throws rejects at once.
 */
export async function readUntil<T>(read: () => T | Promise<T>, check: (value: T) => boolean, options: PollOptions = {}): Promise<T> {
  let value!: T;
  await poll(async () => {
    value = await read();
    return check(value);
  }, options);
  return value;
}
