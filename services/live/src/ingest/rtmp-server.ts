import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';

/** What the ingest needs of one publishing encoder session. */
export interface PublishSession {
  readonly id: string;
  /** `/{app}/{name}` as the encoder published it: a credential (it names the stream key). */
  readonly streamPath: string;
  /**
   * Where the platform's own tools pull this session's media from: an alias of the stream path
   * that is not the key (`rtmp://127.0.0.1:{port}/internal/{random}`), so the key never appears on
   * a command line. Only loopback players may play it, and only while the session lasts.
   */
  readonly pullUrl: string;
  /** The encoder's address and port, as the RTMP server sees them. */
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Drops the encoder's connection at once. */
  drop(): void;
}

export interface RtmpServerOptions {
  port: number;
  host: string;
  dataDir: string;
  logLevel: string;
  onPublish(session: PublishSession): void;
  onUnpublish(session: PublishSession): void;
}

interface NmsSession {
  id: string;
  ip: string;
  streamPath: string;
  socket?: { destroy(): void };
  close(): void;
  broadcast?: { publishGraceMs: number };
}

interface NmsRtmpListener {
  tcpServer?: import('node:net').Server;
  run(): void;
  stop(): void;
}

interface Nms {
  on(event: string, listener: (session: NmsSession) => void): void;
  rtmpServer: NmsRtmpListener;
}

interface NmsContext {
  broadcasts: Map<string, unknown>;
}

/** The RTMP application of pull aliases (never published to). */
export const PULL_APP = 'internal';

/**
 * The RTMP listener: node-media-server 4.4 (one per process: it keeps its state in a module
 * singleton). It only relays; the ingest decides who may publish. Only its RTMP listener is run:
 * not its JSON store (which wrote every stream path, stream keys included, to
 * `stream_history.json`, and re-raised SIGTERM/SIGINT after flushing, killing the process before
 * its own shutdown could run), nor its HTTP, relay, record and notify servers. Its 30 s "publish
 * grace" (a disconnected publisher is reported late, in case it comes back) is turned off: the
 * live stream's reconnect window is ours to run. Plays are refused except the pull aliases
 * (`PublishSession.pullUrl`) from loopback: the stream key does not let anyone watch over RTMP.
 */
export class RtmpServer {
  private nms?: Nms;
  private context?: NmsContext;
  /** A timer node-media-server starts with itself (its stream statistics). */
  private rateSampler?: { stop(): void };
  private readonly sessions = new Map<string, PublishSession>();
  /** Pull alias path → the publish session it stands for. */
  private readonly aliases = new Map<string, string>();

  constructor(private readonly options: RtmpServerOptions) {}

  async start(): Promise<void> {
    // node-media-server's store, from before it was turned off: stream paths with stream keys
    await fsp.rm(path.join(this.options.dataDir, 'rtmp-server'), { recursive: true, force: true });
    routeNmsLogs(this.options.logLevel);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const NodeMediaServer = require('node-media-server') as new (config: object) => Nms;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.context = require('node-media-server/src/core/context.js') as NmsContext;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.rateSampler = (require('node-media-server/src/core/rate_sampler.js') as { rateSampler: { stop(): void } }).rateSampler;
    const nms = new NodeMediaServer({
      bind: this.options.host,
      rtmp: { port: this.options.port, chunk_size: 60000, gop_cache: true, ping: 30, ping_timeout: 60 },
    });
    nms.on('prePublish', (session) => {
      if (session.broadcast) session.broadcast.publishGraceMs = 0;
      const publish = this.wrap(session);
      this.sessions.set(session.id, publish);
      this.options.onPublish(publish);
    });
    nms.on('donePublish', (session) => {
      const publish = this.sessions.get(session.id) ?? this.wrap(session);
      this.sessions.delete(session.id);
      this.forgetAlias(publish);
      this.options.onUnpublish(publish);
    });
    nms.on('prePlay', (session) => {
      if (!this.aliases.has(session.streamPath) || !isLoopback(addressOf(session.ip).address)) dropSession(session);
    });
    const listener = nms.rtmpServer;
    listener.run();
    const server = listener.tcpServer;
    if (server) {
      // its own handler exits the process on a listen error: fail the start instead
      server.removeAllListeners('error');
      if (!server.listening) {
        await new Promise<void>((resolve, reject) => {
          server.once('listening', () => resolve());
          server.once('error', (err) => reject(new Error(`RTMP_PORT ${this.options.port}: ${err.message}`)));
        });
      }
      server.on('error', (err) => console.error(`[RtmpServer] ${err.message}`));
    }
    this.nms = nms;
  }

  /** Stops listening and drops every connection (publishers' `onUnpublish` follows as they close). */
  async stop(): Promise<void> {
    const nms = this.nms;
    this.nms = undefined;
    if (!nms) return;
    for (const session of this.sessions.values()) session.drop();
    const server = nms.rtmpServer.tcpServer;
    const closed = server?.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    nms.rtmpServer.stop();
    this.rateSampler?.stop();
    await closed;
  }

  private wrap(session: NmsSession): PublishSession {
    const existing = this.sessions.get(session.id);
    if (existing) return existing;
    const alias = `/${PULL_APP}/${randomBytes(16).toString('hex')}`;
    const broadcast = session.broadcast;
    if (broadcast) {
      this.context?.broadcasts.set(alias, broadcast);
      this.aliases.set(alias, session.id);
    }
    const remote = addressOf(session.ip);
    return {
      id: session.id,
      streamPath: session.streamPath,
      pullUrl: `rtmp://127.0.0.1:${this.options.port}${alias}`,
      remoteAddress: remote.address,
      remotePort: remote.port,
      drop: () => dropSession(session),
    };
  }

  private forgetAlias(publish: PublishSession): void {
    const alias = new URL(publish.pullUrl).pathname;
    if (this.aliases.get(alias) !== publish.id) return;
    this.aliases.delete(alias);
    // players already attached keep the broadcast object; a new play of the alias finds nothing
    this.context?.broadcasts.delete(alias);
  }
}

function dropSession(session: NmsSession): void {
  if (session.socket) session.socket.destroy();
  else session.close();
}

/** node-media-server's `ip`: "address:port" (IPv6 addresses unbracketed). */
export function addressOf(ip: string): { address: string; port: number } {
  const i = ip.lastIndexOf(':');
  if (i < 0) return { address: ip, port: 0 };
  return { address: ip.slice(0, i), port: Number(ip.slice(i + 1)) || 0 };
}

export function isLoopback(address: string): boolean {
  const plain = address.replace(/^::ffff:/i, '');
  return (isIP(plain) === 4 && plain.startsWith('127.')) || plain === '::1';
}

/** Stream paths name stream keys (`/app/{key}`) and one-time tokens: logged without their last part. */
export function redactStreamPaths(message: string): string {
  return message.replace(/(\/[A-Za-z0-9_-]+\/)[^\s,/]+/g, '$1…').replace(/\b(name|streamName|streamPath)=[^\s,]*/g, '$1=…');
}

const NMS_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'];

/**
 * node-media-server logs through a module singleton it sets to debug, with stream paths (stream
 * keys) in its lines. Its lines go through `redactStreamPaths`, at its `info` level with LOG_LEVEL
 * debug or verbose and only its errors otherwise.
 */
function routeNmsLogs(level: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const logger = require('node-media-server/src/core/logger.js') as { log(message: string, level?: string): void };
  const threshold = NMS_LEVELS.indexOf(level === 'debug' || level === 'verbose' ? 'info' : 'error');
  logger.log = (message: string, messageLevel = 'info') => {
    if (NMS_LEVELS.indexOf(messageLevel) < threshold) return;
    const line = `[RtmpServer] ${messageLevel.toUpperCase()} ${redactStreamPaths(String(message))}`;
    if (messageLevel === 'error' || messageLevel === 'warn') console.error(line);
    else console.log(line);
  };
}
