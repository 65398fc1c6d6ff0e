import { freePort, portRange } from './free-port';

describe('portRange', () => {
  it('is 20000–32000 (below the ephemeral range) unless TEST_PORT_RANGE narrows it', () => {
    expect(portRange(undefined)).toEqual([20_000, 32_000]);
    expect(portRange('26000-31999')).toEqual([26_000, 31_999]);
  });

  it('refuses a range that is malformed, too small or outside the port numbers', () => {
    for (const bad of ['26000', '26000-26050', '80-2000', '60000-70000', 'a-b']) expect(() => portRange(bad)).toThrow(/TEST_PORT_RANGE/);
  });
});

describe('freePort', () => {
  it('hands out distinct bindable ports inside the range', async () => {
    const [first, last] = portRange(process.env.TEST_PORT_RANGE);
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) expect(port >= first && port < last).toBe(true);
  });
});
