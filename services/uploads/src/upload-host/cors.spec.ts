import { corsHeaders, preflightHeaders } from './cors';

describe('upload URL CORS', () => {
  const page = 'https://app.example.com';

  it('allows any page for "*" and exposes Range', () => {
    expect(corsHeaders('*', page)).toEqual({ 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Range' });
  });

  it('allows only the named origin, varying on Origin', () => {
    expect(corsHeaders(page, page)).toEqual({ 'access-control-allow-origin': page, 'access-control-expose-headers': 'Range', vary: 'Origin' });
    expect(corsHeaders(page, 'https://evil.example')).toEqual({});
  });

  it('gives no CORS headers without a cors_origin, or to a request that is not from a page', () => {
    expect(corsHeaders(null, page)).toEqual({});
    expect(corsHeaders('*', undefined)).toEqual({});
  });

  it('answers a preflight with PUT and the headers asked for', () => {
    expect(preflightHeaders('*', page, 'content-type,content-range')).toMatchObject({
      'access-control-allow-methods': 'PUT, OPTIONS',
      'access-control-allow-headers': 'content-type,content-range',
      'access-control-max-age': '3600',
    });
    expect(preflightHeaders('*', page, 'bad\r\nheader')['access-control-allow-headers']).toBe('Content-Type, Content-Range');
    expect(preflightHeaders(page, 'https://evil.example', 'content-type')).toEqual({});
  });
});
