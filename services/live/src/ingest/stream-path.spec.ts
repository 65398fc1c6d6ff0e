import { ingestPathOf, SrtBridgeTokens } from './stream-path';

describe('ingestPathOf', () => {
  it('takes the key of /app/{key}', () => {
    expect(ingestPathOf('/app/6b1e8c1e-1f2a-4d4e-9a57-1c2d3e4f5a6b')).toEqual({ app: 'app', streamKey: '6b1e8c1e-1f2a-4d4e-9a57-1c2d3e4f5a6b' });
  });

  it('takes the token of an SRT bridge’s /srt/{token}', () => {
    expect(ingestPathOf('/srt/0a1b2c')).toEqual({ app: 'srt', token: '0a1b2c' });
  });

  it.each(['/live/key', '/app', '/app/', '/app/a/b', 'app/key', `/app/${'k'.repeat(256)}`, '/srt/'])('refuses %s', (path) => {
    expect(ingestPathOf(path)).toBeUndefined();
  });
});

describe('SrtBridgeTokens', () => {
  it('redeems a token once, for the key it was issued for', () => {
    const tokens = new SrtBridgeTokens();
    const token = tokens.issue('key-1');
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(tokens.redeem(token)).toBe('key-1');
    expect(tokens.redeem(token)).toBeUndefined();
  });

  it('refuses an unknown or expired token', () => {
    const tokens = new SrtBridgeTokens();
    const token = tokens.issue('key-1', 0);
    expect(tokens.redeem('nope')).toBeUndefined();
    expect(tokens.redeem(token, 30_001)).toBeUndefined();
  });
});
