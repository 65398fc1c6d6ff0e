import { StepTimer } from './step-timer';

describe('StepTimer', () => {
  afterEach(() => jest.useRealTimers());

  it('names each step with the time since the previous mark, and the total since start', () => {
    jest.useFakeTimers({ now: 0, doNotFake: [] });
    const timer = new StepTimer();
    jest.advanceTimersByTime(1200);
    timer.mark('download');
    jest.advanceTimersByTime(50);
    timer.mark('probe');
    expect(timer.summary()).toBe('1.25 s (download 1.20 s, probe 0.05 s)');
    jest.advanceTimersByTime(3000);
    timer.mark('ladder');
    expect(timer.summary()).toBe('4.25 s (ladder 3.00 s)');
  });
});
