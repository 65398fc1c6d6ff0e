import { OutboundGuard, OutboundRefusedError } from '@platform/outbound';
import http from 'node:http';
import net from 'node:net';
import { Duplex, pipeline } from 'node:stream';

/** The header of a refusal's 403, with the reason (PageBrowser names it when a navigation is refused). */
export const REFUSED_HEADER = 'x-outbound-refused';

/** How long dialling an upstream may take. */
const CONNECT_TIMEOUT_MS = 30_000;

/** The `host:port` of an origin, with the scheme's default port (what a CONNECT line names). */
export function hostPortOf(origin: string): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}

type Destination = { address: string } | { refused: string } | { unreachable: string };

/**
 * The capture browser's only way out: Chromium runs with `--proxy-server` pointing here (loopback included),
 * so every connection its pages open — navigations, redirect hops, subresources, fetches, WebSockets,
 * workers — is checked against OUTBOUND_ALLOW and made to the very address that was checked (no DNS
 * rebinding between check and connect). A request routed in the browser sees only a redirect chain's first
 * URL and never a WebSocket; a proxy sees each connection.
 *
 * https and ws(s) arrive as CONNECT tunnels; plain http as absolute-form requests, forwarded one by one.
 * A refusal is an HTTP 403 with the reason (a failed load for the page); a name that does not resolve is a
 * 502; an upstream that fails is a dropped connection, which the browser reports as it would without a proxy.
 */
export class GuardedProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly guard: OutboundGuard,
    /** host:port the proxy connects to without the address check (the platform's own pages). */
    private readonly trusted: ReadonlySet<string>,
    private readonly log: (line: string) => void,
  ) {
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    // a plain ws:// upgrade in absolute form (Chromium tunnels WebSockets with CONNECT, other clients may not)
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => this.refuseUpgrade(req, socket));
    this.server.on('connection', (socket: net.Socket) => this.track(socket));
  }

  /** `log` gets a line for each refusal and each upstream that could not be reached. */
  static async start(guard: OutboundGuard, trustedOrigins: readonly string[], log: (line: string) => void = () => undefined): Promise<GuardedProxy> {
    const proxy = new GuardedProxy(guard, new Set(trustedOrigins.map(hostPortOf)), log);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Where a connection to `host:port` may go: the address to dial, a refusal, or why the name has no address. */
  private async destination(target: string, host: string, port: number): Promise<Destination> {
    if (this.trusted.has(`${host.toLowerCase()}:${port}`)) return { address: host.replace(/^\[|\]$/g, '') };
    try {
      return { address: (await this.guard.resolve(host)).address };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.log(`${err instanceof OutboundRefusedError ? 'refused' : 'could not resolve'} ${target}: ${why}`);
      return err instanceof OutboundRefusedError ? { refused: why } : { unreachable: why };
    }
  }

  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    // the HTTP server lets go of a CONNECT socket: its errors (a page that gave up) are ours to absorb
    let upstream: net.Socket | undefined;
    client.on('error', () => upstream?.destroy());
    client.once('close', () => upstream?.destroy());
    this.track(client);
    const target = parseAuthority(req.url ?? '');
    if (!target) return void client.end(plainAnswer(400, 'Bad Request', 'a CONNECT needs host:port'));
    const where = await this.destination(req.url ?? '', target.host, target.port);
    if (client.destroyed) return;
    if ('refused' in where) return void client.end(plainAnswer(403, 'Forbidden', where.refused, { [REFUSED_HEADER]: where.refused }));
    if ('unreachable' in where) return void client.end(plainAnswer(502, 'Bad Gateway', where.unreachable));
    const socket = (upstream = net.connect({ host: where.address, port: target.port }));
    this.track(socket);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`)));
    let established = false;
    socket.once('connect', () => {
      established = true;
      socket.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) socket.write(head);
      socket.pipe(client);
      client.pipe(socket);
    });
    socket.on('error', (err) => {
      this.log(`could not reach ${req.url ?? ''}: ${err.message}`);
      // before the tunnel, an answer; inside it, the bytes are the page's (TLS, WebSocket): only a drop
      if (established) client.destroy();
      else client.end(plainAnswer(502, 'Bad Gateway', err.message));
    });
    socket.once('close', () => client.destroy());
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('a proxy request needs an absolute URL');
    }
    if (url.protocol !== 'http:') return void res.writeHead(400, { 'content-type': 'text/plain' }).end(`${url.protocol} is not proxied here`);
    const port = Number(url.port || 80);
    const where = await this.destination(url.href, url.hostname, port);
    if (res.destroyed) return;
    if ('refused' in where) return void res.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: where.refused }).end(where.refused);
    if ('unreachable' in where) return void res.writeHead(502, { 'content-type': 'text/plain' }).end(where.unreachable);
    const upstream = http.request(
      { host: where.address, port, method: req.method, path: url.pathname + url.search, headers: withoutProxyHeaders(req.headers), setHost: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        pipeline(answer, res, (err) => err && res.destroy());
      },
    );
    upstream.once('socket', (socket: net.Socket) => {
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`)));
      socket.once('connect', () => socket.setTimeout(0));
    });
    upstream.once('error', (err) => {
      this.log(`could not reach ${url.href}: ${err.message}`);
      // dropped, as the upstream dropped it: the browser sees a failed connection (and retries a navigation)
      res.destroy();
    });
    res.once('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  private refuseUpgrade(req: http.IncomingMessage, socket: Duplex): void {
    socket.on('error', () => undefined);
    this.log(`refused ${req.url ?? ''}: WebSocket upgrades are accepted through CONNECT only`);
    socket.end(plainAnswer(403, 'Forbidden', 'WebSocket upgrades are accepted through CONNECT only'));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}

/** A whole HTTP/1.1 answer on a raw socket (a CONNECT's, an upgrade's). */
function plainAnswer(status: number, text: string, body: string, headers: Record<string, string> = {}): Buffer {
  const content = Buffer.from(body);
  const lines = [`HTTP/1.1 ${status} ${text}`, 'content-type: text/plain', `content-length: ${content.length}`, 'connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value.replace(/[\r\n]/g, ' ')}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), content]);
}

/** `host:port` of a CONNECT line (`[v6]:port` too), or undefined when it is not one. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1], port } : undefined;
}

function withoutProxyHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const rest: http.OutgoingHttpHeaders = { ...headers };
  delete rest['proxy-connection'];
  delete rest['proxy-authorization'];
  return rest;
}
