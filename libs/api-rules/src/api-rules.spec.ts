import { isAllowedDomain } from './allowed-domain';
import { isLanguageCode } from './language-code';
import { characterCount, lengthProblems, MAX_PASSTHROUGH_LENGTH, MAX_URL_LENGTH, passthroughProblems, PHRASE_PATTERN } from './text-length';
import { CORS_ORIGIN_PATTERN, HTTP_URL_PATTERN, RTMP_URL_PATTERN } from './url-pattern';

describe('api rules', () => {
  it('allowed domains: *, hostnames and *.hostname, any case, at most 253 characters', () => {
    for (const ok of ['*', 'localhost', 'example.com', 'Video.Example.COM', '*.example.com', 'a-b.c1']) expect(isAllowedDomain(ok)).toBe(true);
    for (const bad of ['', '*.', 'ex*.com', '-a.com', 'a-.com', 'a..b', 'exa mple.com', '*.*.com', `${'a'.repeat(64)}.com`, `${'a.'.repeat(126)}ab`]) {
      expect(isAllowedDomain(bad)).toBe(false);
    }
  });

  it('language codes are BCP 47 tags', () => {
    for (const ok of ['en', 'es-MX', 'zh-Hant-TW', 'fil']) expect(isLanguageCode(ok)).toBe(true);
    for (const bad of ['', 'e', 'english', 'en_US', 'en-', 'en-x']) expect(isLanguageCode(bad)).toBe(false);
  });

  it('URL patterns take what the platform can fetch, and everything they take parses as a URL', () => {
    const ok = ['https://example.com/a.mp4', 'http://127.0.0.1:8080/x?y=1#z', 'https://cdn.example.com:443', 'http://localhost/a b'.replace(' ', '%20')];
    for (const url of ok) {
      expect(HTTP_URL_PATTERN.test(url)).toBe(true);
      expect(URL.canParse(url)).toBe(true);
    }
    for (const bad of [
      '',
      'X',
      'ftp://example.com/a',
      'https://',
      'https://1.2.3.999/',
      'https://a.0x7f/',
      'https://exa mple.com/',
      'https://example.com:70000/',
    ]) {
      expect(HTTP_URL_PATTERN.test(bad)).toBe(false);
    }
    for (const v6 of ['http://[::1]/a', 'http://[fe80::1]:8080/', 'http://[::ffff:127.0.0.1]/', 'http://[2001:db8::8a2e:370:7334]/x']) {
      expect(HTTP_URL_PATTERN.test(v6)).toBe(true);
      expect(URL.canParse(v6)).toBe(true);
    }
    for (const bad of ['http://[::1/', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[fe80::1%eth0]/', 'http://[:::]/'])
      expect(HTTP_URL_PATTERN.test(bad)).toBe(false);
    expect(RTMP_URL_PATTERN.test('rtmps://live.example.com:443/app')).toBe(true);
    expect(RTMP_URL_PATTERN.test('https://live.example.com/app')).toBe(false);
  });

  it('cors origins: *, empty, or an http(s) origin in any case with an optional port and trailing slash', () => {
    for (const ok of ['', '*', 'https://app.example.com', 'HTTP://App.Example.com:8080/', 'http://127.0.0.1:3000']) {
      expect(CORS_ORIGIN_PATTERN.test(ok)).toBe(true);
      if (ok.length > 1) expect(URL.canParse(ok)).toBe(true);
    }
    for (const bad of ['**', 'app.example.com', 'https://app.example.com/path', 'https://a.com?x', 'ftp://a.com', 'https://a.com:99999']) {
      expect(CORS_ORIGIN_PATTERN.test(bad)).toBe(false);
    }
  });

  it('counts characters as code points, and phrases need a visible character', () => {
    expect(characterCount('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
    expect(PHRASE_PATTERN.test('hls')).toBe(true);
    expect(PHRASE_PATTERN.test(' \t')).toBe(false);
    expect(PHRASE_PATTERN.test('a\u0000')).toBe(false);
  });

  it('length limits: a passthrough of 255 characters, a URL of 2048, each problem named as the services name it', () => {
    expect(MAX_PASSTHROUGH_LENGTH).toBe(255);
    expect(MAX_URL_LENGTH).toBe(2048);
    expect(passthroughProblems(undefined)).toEqual([]);
    expect(passthroughProblems('')).toEqual([]);
    expect(passthroughProblems('x'.repeat(255))).toEqual([]);
    expect(passthroughProblems('😀'.repeat(255))).toEqual([]);
    expect(passthroughProblems('x'.repeat(256))).toEqual(['passthrough: must be at most 255 characters']);
    expect(passthroughProblems('😀'.repeat(256), 'broadcasts[0].passthrough')).toEqual(['broadcasts[0].passthrough: must be at most 255 characters']);
    expect(lengthProblems('url', `https://example.com/${'a'.repeat(2028)}`, MAX_URL_LENGTH)).toEqual([]);
    expect(lengthProblems('url', `https://example.com/${'a'.repeat(2029)}`, MAX_URL_LENGTH)).toEqual(['url: must be at most 2048 characters']);
    expect(lengthProblems('name', undefined, 1)).toEqual([]);
  });
});
