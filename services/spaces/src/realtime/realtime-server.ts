import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ActiveSpeakerOptions } from './active-speaker';
import { DEFAULT_PUBLIC_DIR, serveBrowserFile } from './browser-files';
import { ParticipantSession } from './participant-session';
import type { RealtimeIdentity, RealtimeListener, RealtimeLogger, RealtimeParticipant, VerifyToken } from './realtime-types';
import type { Sfu } from './sfu';
import { CloseCode, MAX_MESSAGE_BYTES } from './signaling-messages';
import { SpaceRoom } from './space-room';
import { WeriftSfu, type WeriftSfuOptions } from './werift-sfu';
import { createWebSocketServer, type RawData, type WebSocket } from './ws-types';

export const SIGNALING_PATH = '/spaces/rtc';
const MAX_EARLY_FRAMES = 8;

export interface RealtimeServerOptions {
  /** Default 0.0.0.0. */
  host?: string;
  /** Default 0: any free port (read it from `listen()`). */
  port?: number;
  verifyToken: VerifyToken;
  listener?: RealtimeListener;
  /** How long media may stay unconnected (at join, or after a disconnect) before the participant is ended. Default 30 s. */
  disconnectGraceMs?: number;
  activeSpeaker?: ActiveSpeakerOptions;
  /** UDP ports and extra host candidates of the default werift SFU. */
  ice?: Pick<WeriftSfuOptions, 'icePortRange' | 'iceAdditionalHostAddresses'>;
  /** Another media plane instead of the werift one (`ice` is then ignored). */
  sfu?: Sfu;
  /** Where the browser files are; the module's `public` folder by default. */
  publicDir?: string;
  logger?: RealtimeLogger;
  /** WebSocket ping interval; a socket that missed the previous pong is dropped. Default 15 s. */
  heartbeatMs?: number;
  /** Visible participants one space takes at once; a newcomer past it is refused (4429). Hidden ones are not counted. Default: no limit. */
  participantLimit?: number;
}

const silentLogger: RealtimeLogger = { log: () => undefined, warn: (message) => console.warn(message) };

/**
 * The real-time side of spaces on one HTTP port: the browser SDK and pages under `/spaces/`, the
 * signaling WebSocket at `/spaces/rtc?token=…`, and the SFU behind it.
 */
export class RealtimeServer {
  private readonly http: Server;
  private readonly sockets = createWebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly sfu: Sfu;
  private readonly rooms = new Map<string, SpaceRoom>();
  private readonly alive = new WeakSet<WebSocket>();
  private readonly logger: RealtimeLogger;
  private heartbeat: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(private readonly options: RealtimeServerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.sfu = options.sfu ?? new WeriftSfu(options.ice);
    this.http = createServer((request, response) => {
      serveBrowserFile(request, response, options.publicDir ?? DEFAULT_PUBLIC_DIR)
        .then((served) => {
          if (!served) response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        })
        .catch((error: unknown) => {
          this.logger.warn(`realtime: serving ${request.url} failed: ${String(error)}`);
          if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
          response.end();
        });
    });
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
  }

  /** Starts listening; resolves with the bound address. */
  async listen(): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port ?? 0, this.options.host ?? '0.0.0.0', () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.heartbeat = setInterval(() => this.pingAll(), this.options.heartbeatMs ?? 15_000);
    const address = this.http.address() as AddressInfo;
    return { host: address.address, port: address.port };
  }

  /** The participants of a space that have joined, hidden ones included, in join order. */
  participants(spaceId: string): RealtimeParticipant[] {
    return this.rooms.get(spaceId)?.participants() ?? [];
  }

  visibleCount(spaceId: string): number {
    return this.rooms.get(spaceId)?.visibleCount() ?? 0;
  }

  activeSpeaker(spaceId: string): string | null {
    return this.rooms.get(spaceId)?.activeSpeaker ?? null;
  }

  /** Ends every connection to a space (each joined one leaves, with its event); resolves when they have. */
  async disconnectAll(spaceId: string): Promise<void> {
    await this.rooms.get(spaceId)?.closeAll(CloseCode.disconnected, 'disconnected by the server');
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all([...this.rooms.values()].map((room) => room.closeAll(CloseCode.serverClosing, 'server shutting down')));
    for (const socket of this.sockets.clients) socket.terminate();
    await this.sfu.close();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== SIGNALING_PATH || this.closing) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws, url.searchParams.get('token') ?? ''));
  }

  private accept(ws: WebSocket, token: string): void {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', (error) => this.logger.warn(`realtime: signaling socket error: ${error.message}`));
    // Frames sent while the token is being checked are handed to the session afterwards (a few: a client
    // waits for `joined` before it says more than its join and its offer).
    const earlier: RawData[] = [];
    const buffer = (data: RawData) => {
      if (earlier.push(data) > MAX_EARLY_FRAMES) ws.close(CloseCode.badMessage, 'too many messages before the token was checked');
    };
    ws.on('message', buffer);
    this.identify(token)
      .then((identity) => {
        ws.off('message', buffer);
        if (ws.readyState !== ws.OPEN || this.closing) return;
        const room = this.roomFor(identity.spaceId);
        const limit = this.options.participantLimit ?? Infinity;
        if (!identity.hidden && !room.hasRoomFor(identity.participantId, limit)) {
          ws.close(CloseCode.full, `the space is full (${limit} participants)`);
          return;
        }
        const session = new ParticipantSession(ws, identity, room, this.sfu, this.options.disconnectGraceMs ?? 30_000, this.logger);
        session.start(earlier);
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : 'invalid token';
        ws.close(CloseCode.unauthorized, `unauthorized: ${reason}`.slice(0, 120));
      });
  }

  private async identify(token: string): Promise<RealtimeIdentity> {
    if (!token) throw new Error('missing token');
    const identity = await this.options.verifyToken(token);
    const valid = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 255;
    if (!valid(identity?.spaceId) || !valid(identity?.participantId) || typeof identity?.hidden !== 'boolean') {
      throw new Error('token does not name a space and a participant');
    }
    return identity;
  }

  private roomFor(spaceId: string): SpaceRoom {
    const existing = this.rooms.get(spaceId);
    if (existing) return existing;
    const room = new SpaceRoom(spaceId, {
      listener: this.options.listener,
      logger: this.logger,
      activeSpeaker: this.options.activeSpeaker,
      activeSpeakerTickMs: 100,
      onEmpty: () => {
        if (this.rooms.get(spaceId) === room) this.rooms.delete(spaceId);
      },
    });
    this.rooms.set(spaceId, room);
    return room;
  }

  private pingAll(): void {
    for (const ws of this.sockets.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}
