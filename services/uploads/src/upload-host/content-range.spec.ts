import { ContentRangeError, parseContentRange, rangeHeader } from './content-range';

describe('parseContentRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['', { kind: 'whole' }],
    ['bytes 0-262143/1048576', { kind: 'chunk', start: 0, end: 262143, total: 1048576 }],
    ['bytes 786432-1048575/1048576', { kind: 'chunk', start: 786432, end: 1048575, total: 1048576 }],
    ['bytes 0-99/*', { kind: 'chunk', start: 0, end: 99, total: undefined }],
    ['bytes */1048576', { kind: 'query', total: 1048576 }],
    ['bytes */*', { kind: 'query', total: undefined }],
    ['bytes 0-0/1', { kind: 'chunk', start: 0, end: 0, total: 1 }],
  ])('reads %j', (header, expected) => {
    expect(parseContentRange(header)).toEqual(expected);
  });

  it.each([
    ['items 0-1/2', /must be "bytes/],
    ['bytes 10-5/100', /ends \(5\) before it starts \(10\)/],
    ['bytes 0-100/100', /ends at byte 100, past the file's 100 bytes/],
    ['bytes 0-1/99999999999999999999', /too large/],
    ['bytes -5/100', /must be "bytes/],
  ])('refuses %j', (header, message) => {
    expect(() => parseContentRange(header)).toThrow(ContentRangeError);
    expect(() => parseContentRange(header)).toThrow(message);
  });
});

describe('rangeHeader', () => {
  it('names the bytes held, and nothing before the first', () => {
    expect(rangeHeader(0)).toBeUndefined();
    expect(rangeHeader(262144)).toBe('bytes=0-262143');
  });
});
