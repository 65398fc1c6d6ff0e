import { KeyedSerialQueue } from './keyed-serial-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerialQueue', () => {
  it('runs one key’s work in order, each after the previous settled, even when one fails', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    let release!: () => void;
    const first = queue.run('a', async () => {
      log.push('1 start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('1 end');
      throw new Error('boom');
    });
    const second = queue.run('a', async () => {
      log.push('2');
      return 2;
    });
    await tick();
    expect(log).toEqual(['1 start']);
    release();
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBe(2);
    expect(log).toEqual(['1 start', '1 end', '2']);
  });

  it('runs different keys concurrently', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    let release!: () => void;
    const blocked = queue.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await queue.run('b', async () => void log.push('b ran while a waits'));
    expect(log).toEqual(['b ran while a waits']);
    release();
    await blocked;
  });
});
