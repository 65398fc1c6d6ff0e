import { csvField, csvLine } from './csv';

describe('CSV (RFC 4180)', () => {
  it('writes plain values as they are and null as the empty field', () => {
    expect(csvLine(['a', 1, 2.5, true, false, null, undefined])).toBe('a,1,2.5,true,false,,\r\n');
  });

  it('quotes fields with commas, quotes, line breaks or edge spaces, doubling inner quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded ')).toBe('" padded "');
    expect(csvField('')).toBe('');
  });

  it('writes objects as JSON (quoted)', () => {
    expect(csvField({ a: 1, b: 'x' })).toBe('"{""a"":1,""b"":""x""}"');
  });
});
