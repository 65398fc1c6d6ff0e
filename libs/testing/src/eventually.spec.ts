import { eventually, readUntil, until } from './eventually';

/** A probe that answers `values` in turn, then keeps answering the last one. */
function sequence<T>(...values: T[]) {
  let calls = 0;
  const probe = jest.fn(() => values[Math.min(calls++, values.length - 1)]);
  return probe;
}

/** The error a promise rejects with (failing the test when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

describe('until', () => {
  it('resolves with the probe’s first value, asking once when it is there at once', async () => {
    const probe = jest.fn(() => 'ready');
    await expect(until('a value', probe, { intervalMs: 10_000 })).resolves.toBe('ready');
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('tries again until the probe yields, taking false and undefined as not yet', async () => {
    const probe = sequence<string | false | undefined>(undefined, false, undefined, 'third time');
    await expect(until('the third try', probe, { intervalMs: 1 })).resolves.toBe('third time');
    expect(probe).toHaveBeenCalledTimes(4);
  });

  it('awaits an async probe, and tries again after one that throws', async () => {
    let calls = 0;
    const probe = async () => {
      calls += 1;
      if (calls < 3) throw new Error(`not up (${calls})`);
      return { calls };
    };
    await expect(until('the service', probe, { intervalMs: 1 })).resolves.toEqual({ calls: 3 });
  });

  it('times out with an error naming what it waited for and what the last try threw', async () => {
    let calls = 0;
    const probe = (): number => {
      calls += 1;
      throw new Error(`connection refused (${calls})`);
    };
    const error = await rejectionOf(until('the broker', probe, { timeoutMs: 60, intervalMs: 10 }));
    expect(error.message).toBe(`timed out after 60 ms waiting for the broker; the last try threw: connection refused (${calls})`);
    expect(calls).toBeGreaterThan(2);
  });

  it('times out naming only what it waited for when the last try did not throw', async () => {
    let calls = 0;
    const probe = () => {
      if (++calls === 1) throw new Error('early hiccup');
      return undefined;
    };
    await expect(until('the flag', probe, { timeoutMs: 50, intervalMs: 5 })).rejects.toThrow(/^timed out after 50 ms waiting for the flag$/);
    expect(calls).toBeGreaterThan(2);
  });

  it('keeps trying for the whole timeout, and no longer', async () => {
    const started = Date.now();
    await expect(until('never', () => undefined, { timeoutMs: 150, intervalMs: 40 })).rejects.toThrow('never');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(145);
    expect(took).toBeLessThan(1500);
  });
});

describe('eventually', () => {
  it('returns once the expectations hold', async () => {
    const probe = sequence(1, 2, 3);
    await eventually(() => expect(probe()).toBe(3), { intervalMs: 1 });
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('awaits an async check', async () => {
    const probe = sequence(1, 2);
    await eventually(async () => expect(await Promise.resolve(probe())).toBe(2), { intervalMs: 1 });
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('rethrows the last failed expectation as it is at the deadline', async () => {
    let n = 0;
    const error = await rejectionOf(eventually(() => expect(++n).toBe(0), { timeoutMs: 50, intervalMs: 5 }));
    expect(n).toBeGreaterThan(2);
    expect(error.message).toContain('Expected: 0');
    expect(error.message).toContain(`Received: ${n}`);
  });
});

describe('readUntil', () => {
  it('resolves with the first read that passes the check', async () => {
    const read = sequence(1, 2, 3, 4);
    await expect(readUntil(read, (n) => n >= 3, { intervalMs: 1 })).resolves.toBe(3);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('resolves with the last read when the time runs out', async () => {
    let n = 0;
    const last = await readUntil(
      async () => ++n,
      () => false,
      { timeoutMs: 50, intervalMs: 5 },
    );
    expect(last).toBe(n);
    expect(n).toBeGreaterThan(2);
  });

  it('rejects at once when a read throws', async () => {
    const read = jest.fn(() => {
      throw new Error('no such asset');
    });
    await expect(readUntil(read, () => true, { timeoutMs: 5000 })).rejects.toThrow('no such asset');
    expect(read).toHaveBeenCalledTimes(1);
  });
});
