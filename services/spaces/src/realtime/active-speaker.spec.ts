import { ActiveSpeakerDetector } from './active-speaker';

/** Feeds 20 ms audio level packets (as Chrome sends them) and evaluates every 100 ms, like the room does. */
function run(detector: ActiveSpeakerDetector, fromMs: number, toMs: number, levels: Record<string, number>): { atMs: number; speaker: string | null }[] {
  const changes: { atMs: number; speaker: string | null }[] = [];
  for (let t = fromMs; t < toMs; t += 20) {
    for (const [id, dbov] of Object.entries(levels)) detector.addLevel(id, dbov, t);
    if (t % 100 === 0 && detector.update(t)) changes.push({ atMs: t, speaker: detector.activeSpeaker });
  }
  return changes;
}

describe('ActiveSpeakerDetector', () => {
  it('smooths levels with a 300 ms moving average starting from silence', () => {
    const detector = new ActiveSpeakerDetector();
    for (let t = 0; t <= 300; t += 20) detector.addLevel('a', -20, t);
    // −127 + 107·(1 − e^−1)
    expect(detector.smoothedLevel('a')).toBeCloseTo(-59.365, 2);
    for (let t = 320; t <= 3000; t += 20) detector.addLevel('a', -20, t);
    expect(detector.smoothedLevel('a')).toBeCloseTo(-20, 2);
  });

  it('needs a level above −50 dBov and 1.5 s as the loudest before choosing a speaker', () => {
    const detector = new ActiveSpeakerDetector();
    // −45 dBov: the average passes −50 after 300·ln(82/5) ≈ 839 ms, first seen at the 900 ms tick.
    expect(run(detector, 0, 5000, { quiet: -55, talker: -45 })).toEqual([{ atMs: 2400, speaker: 'talker' }]);
    expect(new ActiveSpeakerDetector().smoothedLevel('nobody')).toBeUndefined();
    const belowThreshold = new ActiveSpeakerDetector();
    expect(run(belowThreshold, 0, 5000, { a: -55, b: -60 })).toEqual([]);
    expect(belowThreshold.activeSpeaker).toBeNull();
  });

  it('switches only after the new speaker has dominated for 1.5 s', () => {
    const detector = new ActiveSpeakerDetector();
    // −10 dBov passes −50 after 300·ln(117/40) ≈ 322 ms (the 400 ms tick); 1.5 s later a is chosen.
    expect(run(detector, 0, 3000, { a: -10, b: -127 })).toEqual([{ atMs: 1900, speaker: 'a' }]);
    // b louder than a for a moment only: a stays.
    expect(run(detector, 3000, 4000, { a: -10, b: -3 })).toEqual([]);
    expect(run(detector, 4000, 6000, { a: -10, b: -127 })).toEqual([]);
    expect(detector.activeSpeaker).toBe('a');
    // a falls silent and b speaks: b is the loudest above −50 from the 6400 ms tick, chosen 1.5 s later.
    expect(run(detector, 6000, 9000, { a: -127, b: -10 })).toEqual([{ atMs: 7900, speaker: 'b' }]);
  });

  it('keeps the last speaker through silence and decays a participant that stopped sending', () => {
    const detector = new ActiveSpeakerDetector();
    run(detector, 0, 3000, { a: -10 });
    expect(run(detector, 3000, 6000, { a: -127 })).toEqual([]);
    expect(detector.activeSpeaker).toBe('a');
    run(detector, 6000, 7000, { a: -5 });
    // a stops sending packets; b speaks more quietly yet becomes the speaker once a's level decays.
    const changes = run(detector, 7000, 12000, { b: -40 });
    expect(changes).toHaveLength(1);
    expect(changes[0].speaker).toBe('b');
    expect(changes[0].atMs).toBeGreaterThanOrEqual(8500);
    expect(changes[0].atMs).toBeLessThanOrEqual(9500);
  });

  it('drops a participant that leaves, clearing the active speaker when it was them', () => {
    const detector = new ActiveSpeakerDetector();
    run(detector, 0, 3000, { a: -10, b: -127 });
    expect(detector.remove('b')).toBe(false);
    expect(detector.activeSpeaker).toBe('a');
    expect(detector.remove('a')).toBe(true);
    expect(detector.activeSpeaker).toBeNull();
    expect(detector.smoothedLevel('a')).toBeUndefined();
  });
});
