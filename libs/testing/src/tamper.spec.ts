import { tamperedAt } from './tamper';

describe('tamperedAt', () => {
  it('changes the one character, whatever it was', () => {
    expect(tamperedAt('xAx', 1)).toBe('xBx');
    expect(tamperedAt('xBx', 1)).toBe('xAx');
    expect(tamperedAt('abc', 0)).toBe('Abc');
    expect(tamperedAt('abc', -1)).toBe('abA');
  });

  it('refuses a position outside the text', () => {
    expect(() => tamperedAt('abc', 3)).toThrow('no character 3 in a text of 3');
    expect(() => tamperedAt('', -1)).toThrow(RangeError);
  });
});
