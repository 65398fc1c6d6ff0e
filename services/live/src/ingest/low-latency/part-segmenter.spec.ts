import { ListedPart, PartSegmenter } from './part-segmenter';

const part = (name: string, duration: number, independent = false): ListedPart => ({ name, duration, independent });

describe('PartSegmenter', () => {
  it('closes a segment before the first independent part once it holds the segment length', () => {
    const s = new PartSegmenter(1);
    expect(s.add(part('p0', 0.5, true))).toBeUndefined();
    expect(s.add(part('p1', 0.3, true))).toBeUndefined(); // 0.5 s: too short to close at this key frame
    expect(s.add(part('p2', 0.5))).toBeUndefined(); // 0.8 s
    expect(s.add(part('p3', 0.5))).toBeUndefined(); // 1.3 s, but no key frame
    expect(s.pending.map((p) => p.name)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(s.add(part('p4', 0.5, true))?.map((p) => p.name)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(s.pending.map((p) => p.name)).toEqual(['p4']);
    expect(s.add(part('p5', 0.5, true))).toBeUndefined();
    expect(s.add(part('p6', 0.2, true))?.map((p) => p.name)).toEqual(['p4', 'p5']); // exactly 1 s
    expect(s.end()?.map((p) => p.name)).toEqual(['p6']);
    expect(s.end()).toBeUndefined();
  });

  it('keeps parts in one segment while the encoder sends no key frame', () => {
    const s = new PartSegmenter(1);
    for (let i = 0; i < 10; i++) expect(s.add(part(`p${i}`, 0.45, i === 0))).toBeUndefined();
    expect(s.end()).toHaveLength(10);
  });
});
