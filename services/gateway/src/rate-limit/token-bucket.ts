import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * One token bucket per access token id: it refills at `perSecond` up to `burst`; a request
 * takes one token. In memory, per gateway replica.
 */
@Injectable()
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perSecond: number;
  private readonly burst: number;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.perSecond = config.rateLimit.perSecond;
    this.burst = config.rateLimit.burst;
  }

  take(key: string, now = Date.now()): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }
}
