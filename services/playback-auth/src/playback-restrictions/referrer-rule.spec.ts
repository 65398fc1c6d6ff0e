import { DomainError, ErrorCode } from '@platform/errors';
import { isAllowedDomain } from '@platform/api-rules';
import { normalizeAllowedDomains, ReferrerRule, referrerAllowed } from './referrer-rule';

const rule = (allowed_domains: string[], allow_no_referrer = false): ReferrerRule => ({ allowed_domains, allow_no_referrer });

describe('referrerAllowed (Mux referrer semantics)', () => {
  it.each<[string, ReferrerRule, string | undefined, boolean]>([
    // no Referer: only allow_no_referrer decides
    ['no Referer, allow_no_referrer true', rule([], true), undefined, true],
    ['no Referer, allow_no_referrer false', rule(['example.com']), undefined, false],
    ['no Referer is not matched by *', rule(['*']), undefined, false],
    ['no Referer with * and allow_no_referrer', rule(['*'], true), undefined, true],
    ['empty Referer counts as none (denied)', rule(['*']), '', false],
    ['blank Referer counts as none (allowed)', rule([], true), '   ', true],
    // [] denies every domain
    ['[] denies a domain', rule([]), 'https://example.com/', false],
    ['[] denies a domain even with allow_no_referrer', rule([], true), 'https://example.com/', false],
    // * allows any domain
    ['* allows any domain', rule(['*']), 'https://anything.example.net/page?x=1', true],
    ['* allows an IP address', rule(['*']), 'http://10.0.0.1:8080/', true],
    ['* allows a Referer that is not a URL', rule(['*']), 'not a url', true],
    // exact hostnames
    ['exact host', rule(['example.com']), 'https://example.com/watch/1', true],
    ['exact host, http and a port', rule(['example.com']), 'http://example.com:8443/x', true],
    ['exact host, any case', rule(['example.com']), 'https://EXAMPLE.Com/', true],
    ['exact host, trailing dot', rule(['example.com']), 'https://example.com./', true],
    ['exact host does not match a subdomain', rule(['example.com']), 'https://www.example.com/', false],
    ['exact host does not match a longer name', rule(['example.com']), 'https://notexample.com/', false],
    ['exact host does not match a suffix trick', rule(['example.com']), 'https://example.com.evil.net/', false],
    ['exact host ignores the path', rule(['example.com']), 'https://evil.net/example.com', false],
    ['exact host ignores userinfo', rule(['example.com']), 'https://example.com@evil.net/', false],
    ['single-label host', rule(['localhost']), 'http://localhost:3000/player', true],
    ['a Referer that is not a URL names no domain', rule(['example.com']), 'example.com', false],
    // *.domain wildcards
    ['wildcard matches a subdomain', rule(['*.example.com']), 'https://www.example.com/', true],
    ['wildcard matches a deeper subdomain', rule(['*.example.com']), 'https://a.b.c.example.com/', true],
    ['wildcard does not match the domain itself', rule(['*.example.com']), 'https://example.com/', false],
    ['wildcard does not match a longer name', rule(['*.example.com']), 'https://badexample.com/', false],
    ['wildcard does not match a suffix trick', rule(['*.example.com']), 'https://www.example.com.evil.net/', false],
    ['domain and wildcard together cover both', rule(['example.com', '*.example.com']), 'https://example.com/', true],
    // lists
    ['any entry of the list may match', rule(['a.com', '*.b.com', 'c.com']), 'https://x.b.com/', true],
    ['no entry of the list matches', rule(['a.com', '*.b.com', 'c.com']), 'https://b.org/', false],
    ['allow_no_referrer does not open domains', rule(['a.com'], true), 'https://b.com/', false],
  ])('%s', (_name, r, referer, expected) => {
    expect(referrerAllowed(r, referer)).toBe(expected);
  });
});

describe('allowed_domains grammar', () => {
  it.each(['*', 'example.com', '*.example.com', 'localhost', 'a-b.c0.io', '123.example', '*.a.b.c', 'x'.repeat(63) + '.com'])('accepts %s', (value) => {
    expect(isAllowedDomain(value)).toBe(true);
  });

  it.each([
    'foo.*.com',
    '*example.com',
    '**.a.com',
    '*.*.a.com',
    'a.*',
    '*.',
    '.example.com',
    'example.com.',
    'a..com',
    '-a.com',
    'a-.com',
    'exa mple.com',
    'example.com:8080',
    'https://example.com',
    'example.com/path',
    'exa_mple.com',
    '',
    'x'.repeat(64) + '.com',
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, // 254 characters
  ])('rejects %j', (value) => {
    expect(isAllowedDomain(value)).toBe(false);
  });

  it('normalizes to lowercase without duplicates, keeping the first occurrence order', () => {
    expect(normalizeAllowedDomains(['B.com', 'a.COM', 'b.com', '*.A.com', 'a.com'])).toEqual(['b.com', 'a.com', '*.a.com']);
  });

  it('names each bad entry by index under the given field', () => {
    let error: unknown;
    try {
      normalizeAllowedDomains(['ok.com', 'foo.*.com', 'also.ok', '*x.com'], 'allowed_domains');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect((error as DomainError).messages).toEqual([
      'allowed_domains[1]: "foo.*.com" is not a valid domain',
      'allowed_domains[3]: "*x.com" is not a valid domain',
    ]);
  });
});
