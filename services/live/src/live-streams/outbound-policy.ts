import type { LookupAddress } from 'node:dns';
import os from 'node:os';
import { hostOf, literalAddressOf, OutboundAllow, OutboundGuard, OutboundRefusedError, Resolver } from '@platform/outbound';

export const SIMULCAST_SCHEMES = ['rtmp', 'rtmps'] as const;
export const SLATE_SCHEMES = ['http', 'https'] as const;

/**
 * Which URLs users give a live stream the live service connects to (OUTBOUND_ALLOW, see
 * @platform/outbound): simulcast targets (rtmp, rtmps) and `reconnect_slate_url` (http, https).
 * A simulcast target may never be this platform's own RTMP ingest, whatever OUTBOUND_ALLOW says:
 * a relay into it would make another stream go live with its key.
 */
export class OutboundPolicy {
  readonly guard: OutboundGuard;

  constructor(
    allow: OutboundAllow,
    private readonly rtmpPort: number,
    resolver?: Resolver,
  ) {
    this.guard = new OutboundGuard(allow, resolver);
  }

  /** Why a simulcast target URL is refused at create time (scheme, literal address, own ingest), or undefined. */
  targetUrlRefusal(raw: string): string | undefined {
    const refusal = this.guard.urlRefusal(raw, SIMULCAST_SCHEMES);
    if (refusal) return refusal;
    const url = new URL(raw);
    const literal = literalAddressOf(hostOf(url));
    return literal && this.isOwnIngest(literal, portOf(url)) ? OWN_INGEST : undefined;
  }

  /** Why a slate image URL is refused at create time (scheme, literal address), or undefined. */
  slateUrlRefusal(raw: string): string | undefined {
    return this.guard.urlRefusal(raw, SLATE_SCHEMES);
  }

  /** The address a relay connects to for `host:port`, resolved and checked; OutboundRefusedError when refused. */
  async resolveTarget(host: string, port: number): Promise<LookupAddress> {
    const address = await this.guard.resolve(host);
    if (this.isOwnIngest(address.address, port)) throw new OutboundRefusedError(OWN_INGEST);
    return address;
  }

  /** Whether `address:port` reaches this platform's RTMP ingest (loopback, any address of this host, RTMP_PORT). */
  isOwnIngest(address: string, port: number): boolean {
    if (port !== this.rtmpPort) return false;
    const plain = address.replace(/^::ffff:/i, '').toLowerCase();
    if (plain.startsWith('127.') || plain === '::1' || plain === '0.0.0.0' || plain === '::') return true;
    return Object.values(os.networkInterfaces()).some((list) => (list ?? []).some((i) => i.address.toLowerCase() === plain));
  }
}

const OWN_INGEST = "it is this platform's own RTMP ingest";

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'rtmps:' ? 443 : 1935;
}
