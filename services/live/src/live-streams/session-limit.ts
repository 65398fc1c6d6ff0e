import { LiveStreamEntity } from './live-stream.entity';

/** Test streams run at most 5 minutes (Mux); every stream at most its max_continuous_duration. */
export const TEST_STREAM_SECONDS = 300;

export function sessionLimitSeconds(stream: Pick<LiveStreamEntity, 'maxContinuousDuration' | 'test'>): number {
  return stream.test ? Math.min(stream.maxContinuousDuration, TEST_STREAM_SECONDS) : stream.maxContinuousDuration;
}
