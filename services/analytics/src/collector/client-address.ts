import type { IncomingMessage } from 'node:http';

/**
 * The viewer's address: the socket's peer, or with `trustProxy` the first X-Forwarded-For entry (the address the
 * proxy in front saw; without a trusted proxy the header is the client's own claim and is ignored). Only a geo
 * lookup would use it; the collector stores no address (see README: the beacon collector).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress;
}
