import { cuesFromUtterance, twoLines } from './utterance-cues';

const words = (...list: Array<[string, number, number]>) => list.map(([text, start, end]) => ({ text, start, end }));

describe('cuesFromUtterance', () => {
  it('makes one cue of a short utterance, timed from its first word to its last', () => {
    const u = { start: 0.5, end: 1.9, words: words(['the', 0.5, 0.7], ['weather', 0.7, 1.2], ['is', 1.2, 1.4], ['nice', 1.4, 1.9]) };
    expect(cuesFromUtterance(u)).toEqual([{ start: 0.5, end: 1.9, text: 'the weather is nice' }]);
  });

  it('breaks at a pause of a second or more', () => {
    const u = { start: 0, end: 4, words: words(['hello', 0, 0.5], ['world', 0.5, 1], ['good', 2, 2.5], ['morning', 2.5, 3]) };
    expect(cuesFromUtterance(u)).toEqual([
      { start: 0, end: 1, text: 'hello world' },
      { start: 2, end: 3, text: 'good morning' },
    ]);
  });

  it('keeps a cue within two 32-character lines and 5 seconds', () => {
    const many = Array.from({ length: 30 }, (_, i) => [`word${i}`, i * 0.3, i * 0.3 + 0.25] as [string, number, number]);
    const cues = cuesFromUtterance({ start: 0, end: 9, words: words(...many) });
    expect(cues.length).toBeGreaterThan(1);
    for (const c of cues) {
      expect(c.end - c.start).toBeLessThanOrEqual(5);
      expect(c.text.split('\n').every((line) => line.length <= 32)).toBe(true);
      expect(c.text.split('\n').length).toBeLessThanOrEqual(2);
    }
    expect(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(many.map(([w]) => w).join(' '));
  });

  it('makes no cue of an utterance without words', () => {
    expect(cuesFromUtterance({ start: 0, end: 1, words: [] })).toEqual([]);
  });
});

describe('twoLines', () => {
  it('breaks a long line where the longer of its two lines is shortest', () => {
    expect(twoLines(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'])).toBe('one two three four five\nsix seven eight nine');
    expect(twoLines(['short', 'line'])).toBe('short line');
  });
});
