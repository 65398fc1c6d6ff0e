/** Time, injectable so that time-driven work (timeouts, the sweeper) can be tested. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };
