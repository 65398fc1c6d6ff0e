import { LowLatencyEdge } from './low-latency-edge';

const part = (name: string, independent = false) => ({ name, duration: 0.45, independent });

describe('LowLatencyEdge', () => {
  it('lists the parts under way with the next as hint, moves them to their segment when it is listed', () => {
    const edge = new LowLatencyEdge();
    edge.partAdded(0, part('s1_part00000.ts', true), 's1_part00001.ts', false);
    edge.partAdded(0, part('s1_part00001.ts'), 's1_part00002.ts', false);
    expect(edge.listing()).toMatchObject({
      partTarget: 0.25,
      open: [{ name: 's1_part00000.ts' }, { name: 's1_part00001.ts' }],
      preloadHint: 's1_part00002.ts',
    });
    expect(edge.segmentAdded(0, 's1_00000.ts', [part('s1_part00000.ts', true), part('s1_part00001.ts')])).toEqual([]);
    expect(edge.listing().open).toEqual([]);
    expect([...edge.listing().partsOf.keys()]).toEqual(['s1_00000.ts']);
  });

  it('starts a new span’s parts after a discontinuity, and lists no hint once its span ended', () => {
    const edge = new LowLatencyEdge();
    edge.partAdded(0, part('s1_part00007.ts'), 's1_part00008.ts', false);
    edge.partAdded(1, part('slate2_part00000.ts', true), 'slate2_part00001.ts', true);
    expect(edge.listing()).toMatchObject({ open: [{ name: 'slate2_part00000.ts' }], openDiscontinuity: true });
    // the first span's last segment comes after: the slate's parts stay under way
    edge.segmentAdded(0, 's1_00003.ts', [part('s1_part00007.ts')]);
    expect(edge.listing().open).toHaveLength(1);
    edge.spanEnded(1);
    expect(edge.listing()).toMatchObject({ open: [], preloadHint: undefined });
  });

  it('keeps the parts of the last 12 segments, handing back the older ones to delete', () => {
    const edge = new LowLatencyEdge();
    const stale = Array.from({ length: 14 }, (_, i) => edge.segmentAdded(0, `s1_${i}.ts`, [part(`p${i}a`, true), part(`p${i}b`)]));
    expect(stale.flat()).toEqual(['p0a', 'p0b', 'p1a', 'p1b']);
    expect(edge.listing().partsOf.size).toBe(12);
  });
});
