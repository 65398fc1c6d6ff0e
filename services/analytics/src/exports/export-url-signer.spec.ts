import { ExportUrlSigner, exportUrlKey } from './export-url-signer';

const now = Date.parse('2026-03-10T12:00:00Z');
const path = '/exports/views/2026-03-09/v1.csv.gz';

function queryOf(url: string): { expires: string; signature: string } {
  const parsed = new URL(url);
  return { expires: parsed.searchParams.get('expires') ?? '', signature: parsed.searchParams.get('signature') ?? '' };
}

describe('ExportUrlSigner', () => {
  const signer = new ExportUrlSigner(Buffer.from('k'.repeat(32)), 'https://data.example.com', 3600);

  it('signs an absolute URL that expires after the lifetime', () => {
    const url = signer.sign(path, now);
    expect(url).toMatch(/^https:\/\/data\.example\.com\/exports\/views\/2026-03-09\/v1\.csv\.gz\?expires=\d+&signature=[\w-]+$/);
    const { expires, signature } = queryOf(url);
    expect(Number(expires)).toBe(now / 1000 + 3600);
    expect(signer.check(path, expires, signature, now)).toBe('valid');
    expect(signer.check(path, expires, signature, now + 3599_000)).toBe('valid');
    expect(signer.check(path, expires, signature, now + 3600_000)).toBe('expired');
  });

  it('refuses a changed path, expiry or signature, a missing value and another key', () => {
    const { expires, signature } = queryOf(signer.sign(path, now));
    expect(signer.check('/exports/views/2026-03-08/v1.csv.gz', expires, signature, now)).toBe('invalid');
    expect(signer.check(path, String(Number(expires) + 1000), signature, now)).toBe('invalid');
    expect(signer.check(path, expires, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, now)).toBe('invalid');
    expect(signer.check(path, undefined, signature, now)).toBe('invalid');
    expect(signer.check(path, expires, undefined, now)).toBe('invalid');
    expect(signer.check(path, '1e12', signature, now)).toBe('invalid');
    const other = new ExportUrlSigner(Buffer.from('o'.repeat(32)), 'https://data.example.com', 3600);
    expect(other.check(path, expires, signature, now)).toBe('invalid');
  });

  it('takes the configured secret, else the key from DATA_DIR', () => {
    const fromDataDir = jest.fn(() => Buffer.alloc(32, 1));
    expect(exportUrlKey('secret', fromDataDir)).toEqual(Buffer.from('secret'));
    expect(fromDataDir).not.toHaveBeenCalled();
    expect(exportUrlKey(undefined, fromDataDir)).toEqual(Buffer.alloc(32, 1));
  });
});
