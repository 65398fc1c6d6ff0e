import { Readable } from 'node:stream';
import { BodyLengthError, bodySlice } from './body-slice';

async function collect(pieces: string[], skip: number, expected: number | undefined, max = 1000): Promise<string> {
  let out = '';
  for await (const b of bodySlice(Readable.from(pieces.map((p) => Buffer.from(p))), skip, expected, max)) out += b.toString();
  return out;
}

describe('bodySlice', () => {
  it('passes the body through when nothing is skipped', async () => {
    expect(await collect(['abc', 'def'], 0, 6)).toBe('abcdef');
  });

  it('drops the bytes already held, across piece boundaries', async () => {
    expect(await collect(['abc', 'def', 'gh'], 4, 8)).toBe('efgh');
    expect(await collect(['abc', 'def'], 3, 6)).toBe('def');
    expect(await collect(['abc', 'def'], 6, 6)).toBe('');
  });

  it('takes any length when none was promised, up to the maximum', async () => {
    expect(await collect(['abc', 'def'], 0, undefined)).toBe('abcdef');
    await expect(collect(['abc', 'def'], 0, undefined, 5)).rejects.toThrow(/larger than this platform takes \(5 bytes\)/);
  });

  it('refuses a body shorter or longer than promised', async () => {
    await expect(collect(['abc'], 0, 6)).rejects.toThrow(new BodyLengthError('The body ended after 3 of the 6 bytes its range or length says'));
    await expect(collect(['abcdefg'], 0, 6)).rejects.toThrow(/more than the 6 bytes/);
  });
});
