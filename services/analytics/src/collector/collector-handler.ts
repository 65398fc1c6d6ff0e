import type { IncomingMessage, ServerResponse } from 'node:http';
import { BEACONS_STREAM, EventBus, publishData } from '@platform/events';
import { beaconBatches } from './beacon-batches';
import { parseBeaconPayload, PayloadLimits } from './beacon-payload';
import { clientAddress } from './client-address';
import { CollectorCounters } from './collector-counters';
import { readBody } from './read-body';
import { UserAgentCache } from './user-agent-fields';

export interface CollectorOptions extends PayloadLimits {
  maxBodyBytes: number;
  trustProxy: boolean;
}

/** Geo fields for an address (`country_code`, `region`, `city`, `asn`…); none without a geo database (README: the beacon collector). */
export type GeoLookup = (address: string | undefined) => Readonly<Record<string, string>>;
const NO_GEO: GeoLookup = () => ({});

/** Any origin may post beacons: players run on customers' pages; nothing is read back and no credentials are involved. */
const CORS = { 'access-control-allow-origin': '*' };
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400',
};

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...CORS, ...headers, ...(text ? { 'content-type': 'application/json' } : {}), 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

const errorBody = (type: string, message: string) => ({ error: { type, messages: [message] } });

/**
 * The collector's request handler. `POST` on any path (mux-embed posts to the root of `beaconCollectionDomain`,
 * which may carry a path) takes a beacon body whatever its Content-Type (mux-embed sends text/plain, sendBeacon
 * text/plain;charset=UTF-8): 200 once every view's batch is on the bus, 400 malformed, 413 too large, 503 when the
 * bus refuses (the player resends later). `OPTIONS` is a permissive preflight; `GET /healthz` the counters.
 * Other requests go to `fallback` when one is set, else 404.
 */
export class CollectorHandler {
  readonly counters = new CollectorCounters();
  private readonly userAgents = new UserAgentCache();
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;

  constructor(
    private readonly bus: EventBus,
    private readonly options: CollectorOptions,
    private readonly geo: GeoLookup = NO_GEO,
    private readonly now: () => number = Date.now,
  ) {}

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.route(req, res).catch(() => send(res, 500, errorBody('internal_error', 'the collector failed on this request')));
  };

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'POST') return this.collect(req, res);
    if (req.method === 'OPTIONS') return send(res, 204, undefined, PREFLIGHT);
    if (req.method === 'GET' && req.url?.split('?')[0] === '/healthz') return send(res, 200, { status: 'ok', counters: this.counters.snapshot() });
    if (this.fallback) return this.fallback(req, res);
    req.resume();
    send(res, 404, errorBody('not_found', 'the collector takes POST beacons'));
  }

  private async collect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readBody(req, this.options.maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'aborted') return;
      this.counters.rejectedTooLarge++;
      return send(res, 413, errorBody('invalid_parameters', `body larger than ${this.options.maxBodyBytes} bytes`), { connection: 'close' });
    }
    const payload = parseBeaconPayload(read.body, this.options);
    if (!payload.ok) {
      this.counters.rejectedMalformed++;
      return send(res, 400, errorBody('invalid_parameters', payload.reason));
    }
    const userAgent = (req.headers['user-agent'] ?? '').slice(0, this.options.maxValueChars);
    const enrichment = { ...this.userAgents.fieldsOf(userAgent), ...this.geo(clientAddress(req, this.options.trustProxy)) };
    const { batches, orphans } = beaconBatches(payload.events, enrichment, this.now());
    this.counters.truncatedValues += payload.truncatedValues;
    this.counters.eventsWithoutView += orphans;
    try {
      await Promise.all(batches.map((batch) => publishData(this.bus, BEACONS_STREAM, batch)));
    } catch {
      this.counters.publishFailures++;
      return send(res, 503, errorBody('service_unavailable', 'beacons could not be queued; retry later'), { 'retry-after': '10' });
    }
    this.counters.acceptedPosts++;
    this.counters.publishedBatches += batches.length;
    this.counters.acceptedEvents += payload.events.length - orphans;
    send(res, 200);
  }
}
