import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress } from './address-class';

/**
 * OUTBOUND_ALLOW: which addresses the platform may connect to when it fetches or posts to a URL a
 * user gave it (asset inputs, webhook, simulcast targets, slate images). Public addresses always;
 * `loopback` adds 127.0.0.0/8 and ::1 (the embedded default: a laptop serving its own files);
 * `private` adds RFC 1918, CGNAT and unique-local ranges too. Link-local, cloud metadata and other
 * special addresses are never allowed.
 */
export const OUTBOUND_ALLOW_VALUES = ['public', 'loopback', 'private'] as const;
export type OutboundAllow = (typeof OUTBOUND_ALLOW_VALUES)[number];

/** A URL the platform will not fetch; `reason` is safe to show to the caller. */
export class OutboundRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutboundRefusedError';
  }
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class OutboundGuard {
  constructor(
    readonly allow: OutboundAllow,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** Why `ip` may not be reached, or undefined when it may. */
  refusalOf(ip: string): string | undefined {
    const { kind, why } = classifyAddress(ip);
    if (kind === 'public') return undefined;
    if (kind === 'loopback' && this.allow !== 'public') return undefined;
    if (kind === 'private' && this.allow === 'private') return undefined;
    const switchable = kind === 'forbidden' ? '' : ' (OUTBOUND_ALLOW)';
    return `${ip} is ${why}, which this platform does not connect to${switchable}`;
  }

  checkAddress(ip: string): void {
    const refusal = this.refusalOf(ip);
    if (refusal) throw new OutboundRefusedError(refusal);
  }

  /**
   * What can be checked without DNS: the scheme, and the host when it is an IP literal or a
   * `localhost` name. A host name is checked again, resolved, when the connection is made.
   */
  checkUrl(raw: string, schemes: readonly string[]): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefusedError('not a valid URL');
    }
    const scheme = url.protocol.replace(/:$/, '');
    if (!schemes.includes(scheme)) throw new OutboundRefusedError(`only ${schemes.join(', ')} URLs are allowed, not ${scheme}`);
    const host = hostOf(url);
    if (host === '') throw new OutboundRefusedError('the URL has no host');
    const literal = literalAddressOf(host);
    if (literal) this.checkAddress(literal);
    return url;
  }

  /** checkUrl's refusal as a reason to show, or undefined when the URL may be used. */
  urlRefusal(raw: string, schemes: readonly string[]): string | undefined {
    try {
      this.checkUrl(raw, schemes);
      return undefined;
    } catch (err) {
      if (err instanceof OutboundRefusedError) return err.reason;
      throw err;
    }
  }

  /** Resolves `hostname` and returns the first address the policy allows (an IP literal is checked as it is). */
  async resolve(hostname: string): Promise<LookupAddress> {
    const host = hostname.replace(/^\[|\]$/g, '');
    const family = isIP(host);
    if (family !== 0) {
      this.checkAddress(host);
      return { address: host, family };
    }
    if (isLocalhostName(host)) this.checkAddress('127.0.0.1');
    const addresses = await this.resolver(host);
    const allowed = addresses.find((a) => this.refusalOf(a.address) === undefined);
    if (allowed) return allowed;
    if (addresses.length === 0) throw Object.assign(new Error(`host not found: ${host}`), { code: 'ENOTFOUND' });
    throw new OutboundRefusedError(`${host} resolves to ${this.refusalOf(addresses[0].address)!}`);
  }

  /**
   * A `lookup` for http, https, net and tls: the socket connects to the very address that was
   * checked, so a DNS answer that changes between check and connect (rebinding) cannot slip through.
   */
  readonly lookup = (hostname: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const done = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options.all === true;
    this.resolve(hostname).then(
      (a) => (all ? done(null, [a]) : done(null, a.address, a.family)),
      (err: NodeJS.ErrnoException) => done(err, all ? [] : '', 0),
    );
  };
}

export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** The address a host stands for without DNS: itself when it is an IP literal, 127.0.0.1 for a localhost name. */
export function literalAddressOf(host: string): string | undefined {
  if (isIP(host)) return host;
  return isLocalhostName(host) ? '127.0.0.1' : undefined;
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
