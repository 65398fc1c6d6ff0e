import { streamKeyOf } from './stream-path';

describe('streamKeyOf', () => {
  it('takes the key of /app/{key}', () => {
    expect(streamKeyOf('/app/6b1e8c1e-1f2a-4d4e-9a57-1c2d3e4f5a6b')).toBe('6b1e8c1e-1f2a-4d4e-9a57-1c2d3e4f5a6b');
  });

  it.each(['/live/key', '/app', '/app/', '/app/a/b', 'app/key', `/app/${'k'.repeat(256)}`])('refuses %s', (path) => {
    expect(streamKeyOf(path)).toBeUndefined();
  });
});
