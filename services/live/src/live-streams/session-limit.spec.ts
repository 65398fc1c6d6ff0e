import { sessionLimitSeconds, TEST_STREAM_SECONDS } from './session-limit';

describe('sessionLimitSeconds', () => {
  it('is max_continuous_duration, and at most 5 minutes for a test stream', () => {
    expect(sessionLimitSeconds({ maxContinuousDuration: 43_200, test: false })).toBe(43_200);
    expect(sessionLimitSeconds({ maxContinuousDuration: 600, test: false })).toBe(600);
    expect(sessionLimitSeconds({ maxContinuousDuration: 43_200, test: true })).toBe(TEST_STREAM_SECONDS);
    expect(sessionLimitSeconds({ maxContinuousDuration: 60, test: true })).toBe(60);
  });
});
