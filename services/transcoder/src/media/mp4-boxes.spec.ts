import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFaststart, parseBoxHeader, readTopLevelBoxes } from './mp4-boxes';

const box = (type: string, bodyBytes: number): Buffer => {
  const b = Buffer.alloc(8 + bodyBytes);
  b.writeUInt32BE(8 + bodyBytes, 0);
  b.write(type, 4, 'latin1');
  return b;
};

describe('MP4 top-level boxes', () => {
  it('reads 32-bit, 64-bit and to-the-end sizes, and refuses headers that do not fit the file', () => {
    expect(parseBoxHeader(box('ftyp', 24), 0, 1000)).toEqual({ type: 'ftyp', offset: 0, size: 32 });
    const large = Buffer.alloc(16);
    large.writeUInt32BE(1, 0);
    large.write('mdat', 4, 'latin1');
    large.writeBigUInt64BE(500n, 8);
    expect(parseBoxHeader(large, 100, 600)).toEqual({ type: 'mdat', offset: 100, size: 500 });
    const toEnd = Buffer.from([0, 0, 0, 0, ...Buffer.from('mdat')]);
    expect(parseBoxHeader(toEnd, 40, 1040)).toEqual({ type: 'mdat', offset: 40, size: 1000 });
    expect(parseBoxHeader(box('moov', 100), 950, 1000)).toBeUndefined(); // past the end
    expect(parseBoxHeader(Buffer.from([0, 0, 0, 4, 0x6d, 0x6f, 0x6f, 0x76]), 0, 100)).toBeUndefined(); // smaller than a header
    expect(parseBoxHeader(Buffer.alloc(4), 0, 100)).toBeUndefined();
  });

  it('is faststart when moov comes before mdat', () => {
    const at = (types: string[]) => types.map((type, i) => ({ type, offset: i * 10, size: 10 }));
    expect(isFaststart(at(['ftyp', 'moov', 'free', 'mdat']))).toBe(true);
    expect(isFaststart(at(['ftyp', 'mdat', 'moov']))).toBe(false);
    expect(isFaststart(at(['ftyp', 'moov']))).toBe(false);
  });

  it('walks a file’s top-level boxes by their headers alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxes-'));
    try {
      const file = join(dir, 'x.mp4');
      writeFileSync(file, Buffer.concat([box('ftyp', 24), box('moov', 100), box('mdat', 1000)]));
      expect((await readTopLevelBoxes(file)).map((b) => [b.type, b.offset, b.size])).toEqual([
        ['ftyp', 0, 32],
        ['moov', 32, 108],
        ['mdat', 140, 1008],
      ]);
      writeFileSync(file, Buffer.concat([box('ftyp', 24), Buffer.from('garbage!')]));
      expect((await readTopLevelBoxes(file)).map((b) => b.type)).toEqual(['ftyp']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
