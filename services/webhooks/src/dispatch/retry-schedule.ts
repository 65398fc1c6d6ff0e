import { DeliveryTransition } from '../deliveries/delivery.entity';

export interface RetrySettings {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/** The share of a delay that jitter may take off, so retries of many deliveries spread out. */
export const JITTER = 0.2;

/**
 * Wait after failed attempt `attempt` (1-based): retryBaseMs·2^(attempt−1), at most
 * retryMaxMs, less up to 20 % jitter (`random` in [0, 1)). Never above the cap.
 */
export function retryDelayMs(attempt: number, settings: RetrySettings, random: () => number = Math.random): number {
  const nominal = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** (attempt - 1));
  return Math.round(nominal * (1 - JITTER * random()));
}

/** 2xx only; a redirect is not followed and counts as a failure. */
export function isDelivered(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

/** What attempt `attempt` leads to: delivered, another try later, or failed after the last one. */
export function transitionAfter(attempt: number, statusCode: number, settings: RetrySettings, random?: () => number): DeliveryTransition {
  if (isDelivered(statusCode)) return { status: 'delivered' };
  if (attempt >= settings.maxAttempts) return { status: 'failed' };
  return { status: 'pending', retryInMs: retryDelayMs(attempt, settings, random) };
}
