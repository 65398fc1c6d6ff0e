/** Backoff before retry `attempt` (1-based) of a failed handler: 50 ms doubling, at most 5 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5000, 50 * 2 ** (attempt - 1));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
