import os from 'node:os';
import { OutboundRefusedError } from '@platform/outbound';
import { OutboundPolicy } from './outbound-policy';

const resolver = (answers: Record<string, string>) => (name: string) => Promise.resolve(answers[name] ? [{ address: answers[name], family: 4 }] : []);

describe('OutboundPolicy', () => {
  const policy = new OutboundPolicy(
    'loopback',
    1935,
    resolver({ 'loop.example': '127.0.0.1', 'lan.example': '10.0.0.8', 'cdn.example': '93.184.216.34', 'meta.example': '169.254.169.254' }),
  );

  it('refuses at create time a simulcast URL that names the platform’s own ingest or a refused address, or another scheme', () => {
    expect(policy.targetUrlRefusal('rtmp://127.0.0.1:1935/app')).toBe("it is this platform's own RTMP ingest");
    expect(policy.targetUrlRefusal('rtmp://localhost/app')).toBe("it is this platform's own RTMP ingest");
    expect(policy.targetUrlRefusal('rtmp://[::1]:1935/app')).toBe("it is this platform's own RTMP ingest");
    expect(policy.targetUrlRefusal('rtmp://0.0.0.0:1935/app')).toMatch(/unspecified/);
    expect(policy.targetUrlRefusal('rtmps://169.254.169.254/app')).toBe('169.254.169.254 is a cloud metadata address, which this platform does not connect to');
    expect(policy.targetUrlRefusal('rtmp://10.1.2.3/app')).toBe('10.1.2.3 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)');
    expect(policy.targetUrlRefusal('http://a.example/app')).toBe('only rtmp, rtmps URLs are allowed, not http');
    // loopback on another port (a second RTMP server on the machine) and names (checked when the relay starts) pass
    expect(policy.targetUrlRefusal('rtmp://127.0.0.1:1936/app')).toBeUndefined();
    expect(policy.targetUrlRefusal('rtmp://loop.example:1935/app')).toBeUndefined();
  });

  it('checks a slate URL’s scheme and literal address', () => {
    expect(policy.slateUrlRefusal('http://127.0.0.1:8000/slate.png')).toBeUndefined();
    expect(policy.slateUrlRefusal('http://169.254.169.254/latest/meta-data/')).toMatch(/cloud metadata/);
    expect(new OutboundPolicy('public', 1935).slateUrlRefusal('http://127.0.0.1/slate.png')).toMatch(/loopback address/);
  });

  it('resolves a target host when its relay starts, refusing the own ingest and refused addresses whatever the name', async () => {
    await expect(policy.resolveTarget('cdn.example', 1935)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(policy.resolveTarget('loop.example', 1936)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(policy.resolveTarget('loop.example', 1935)).rejects.toEqual(new OutboundRefusedError("it is this platform's own RTMP ingest"));
    await expect(policy.resolveTarget('lan.example', 1935)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(policy.resolveTarget('meta.example', 1935)).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('counts every address of this host as its own ingest on the RTMP port (it listens on all of them)', () => {
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
    for (const address of addresses) expect(policy.isOwnIngest(address, 1935)).toBe(true);
    expect(policy.isOwnIngest('93.184.216.34', 1935)).toBe(false);
    expect(policy.isOwnIngest('127.0.0.1', 1936)).toBe(false);
  });
});
