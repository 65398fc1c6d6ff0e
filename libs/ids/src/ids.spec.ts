import { newId, unixSeconds } from './index';

describe('newId', () => {
  it('is base62 of the requested length and does not repeat', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(newId(12)).toHaveLength(12);
  });
});

describe('unixSeconds', () => {
  it('floors to whole seconds as a string', () => {
    expect(unixSeconds(new Date(1_700_000_000_999))).toBe('1700000000');
  });
});
