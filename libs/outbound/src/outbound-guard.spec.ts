import type { LookupAddress } from 'node:dns';
import { literalAddressOf, OutboundGuard, OutboundRefusedError, Resolver } from './outbound-guard';

const answers =
  (table: Record<string, string[]>): Resolver =>
  (host) =>
    Promise.resolve((table[host] ?? []).map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof OutboundRefusedError) return err.reason;
    throw err;
  }
  throw new Error('not refused');
}

describe('OutboundGuard', () => {
  describe('policies', () => {
    it('public refuses loopback and private addresses, and names the variable that switches it', () => {
      const guard = new OutboundGuard('public');
      expect(refusal(() => guard.checkAddress('127.0.0.1'))).toBe('127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)');
      expect(refusal(() => guard.checkAddress('10.0.0.1'))).toMatch(/private address/);
      expect(() => guard.checkAddress('8.8.8.8')).not.toThrow();
    });

    it('loopback allows loopback but not private ranges', () => {
      const guard = new OutboundGuard('loopback');
      expect(() => guard.checkAddress('127.0.0.1')).not.toThrow();
      expect(() => guard.checkAddress('::1')).not.toThrow();
      expect(refusal(() => guard.checkAddress('192.168.0.10'))).toMatch(/private address/);
    });

    it('private allows private ranges; metadata and link-local are refused under every policy', () => {
      const guard = new OutboundGuard('private');
      expect(() => guard.checkAddress('10.0.0.1')).not.toThrow();
      for (const allow of ['public', 'loopback', 'private'] as const) {
        const g = new OutboundGuard(allow);
        expect(refusal(() => g.checkAddress('169.254.169.254'))).toBe('169.254.169.254 is a cloud metadata address, which this platform does not connect to');
        expect(refusal(() => g.checkAddress('fe80::1'))).toMatch(/link-local/);
      }
    });
  });

  describe('checkUrl', () => {
    const guard = new OutboundGuard('public');

    it('refuses other schemes', () => {
      expect(refusal(() => guard.checkUrl('file:///etc/passwd', ['http', 'https']))).toBe('only http, https URLs are allowed, not file');
      expect(refusal(() => guard.checkUrl('gopher://x', ['http', 'https']))).toMatch(/not gopher/);
      expect(guard.checkUrl('rtmps://live.example.com/app', ['rtmp', 'rtmps']).hostname).toBe('live.example.com');
    });

    it('checks IP literals (v4, bracketed v6) and localhost names without DNS', () => {
      expect(refusal(() => guard.checkUrl('http://169.254.169.254/latest/meta-data/', ['http']))).toMatch(/metadata/);
      expect(refusal(() => guard.checkUrl('http://[::1]:8080/', ['http']))).toMatch(/loopback/);
      expect(refusal(() => guard.checkUrl('http://[::ffff:127.0.0.1]/', ['http']))).toMatch(/loopback/);
      expect(refusal(() => guard.checkUrl('http://0x7f.1/', ['http']))).toMatch(/loopback/); // WHATWG URL normalises to 127.0.0.1
      expect(refusal(() => guard.checkUrl('http://LOCALHOST./x', ['http']))).toMatch(/loopback/);
      expect(refusal(() => guard.checkUrl('http://app.localhost/x', ['http']))).toMatch(/loopback/);
      expect(guard.checkUrl('https://example.com/a.mp4', ['https']).toString()).toBe('https://example.com/a.mp4');
    });

    it('refuses what is not a URL', () => {
      expect(refusal(() => guard.checkUrl('not a url', ['http']))).toBe('not a valid URL');
    });

    it('urlRefusal gives the same refusal as a reason, or undefined', () => {
      expect(guard.urlRefusal('http://10.0.0.1/', ['http'])).toBe(refusal(() => guard.checkUrl('http://10.0.0.1/', ['http'])));
      expect(guard.urlRefusal('not a url', ['http'])).toBe('not a valid URL');
      expect(guard.urlRefusal('https://example.com/', ['https'])).toBeUndefined();
    });
  });

  describe('literalAddressOf', () => {
    it('is the IP literal itself, 127.0.0.1 for a localhost name, and nothing for other names', () => {
      expect(literalAddressOf('10.1.2.3')).toBe('10.1.2.3');
      expect(literalAddressOf('::1')).toBe('::1');
      expect(literalAddressOf('Api.LocalHost.')).toBe('127.0.0.1');
      expect(literalAddressOf('example.com')).toBeUndefined();
    });
  });

  describe('resolve and lookup', () => {
    it('refuses a name that resolves only to refused addresses', async () => {
      const guard = new OutboundGuard('public', answers({ 'inside.test': ['10.0.0.7'] }));
      await expect(guard.resolve('inside.test')).rejects.toThrow('inside.test resolves to 10.0.0.7 is a private address');
    });

    it('picks the first allowed address when a name resolves to several', async () => {
      const guard = new OutboundGuard('public', answers({ 'mixed.test': ['127.0.0.1', '93.184.216.34'] }));
      await expect(guard.resolve('mixed.test')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    });

    it('answers ENOTFOUND for a name without addresses', async () => {
      const guard = new OutboundGuard('public', answers({}));
      await expect(guard.resolve('nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    });

    it('lookup hands the checked address to the socket, in both callback forms', async () => {
      const guard = new OutboundGuard('loopback', answers({ 'files.test': ['127.0.0.1'] }));
      const one = await new Promise((resolve) => guard.lookup('files.test', {}, (err, address, family) => resolve([err, address, family])));
      expect(one).toEqual([null, '127.0.0.1', 4]);
      const all = await new Promise((resolve) => guard.lookup('files.test', { all: true }, (err, addresses) => resolve([err, addresses])));
      expect(all).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
      const refused = await new Promise((resolve) => new OutboundGuard('public', answers({ 'files.test': ['127.0.0.1'] })).lookup('files.test', {}, resolve));
      expect(refused).toBeInstanceOf(OutboundRefusedError);
    });
  });
});
