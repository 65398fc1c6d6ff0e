import path from 'node:path';

/** What the ingest needs of one publishing encoder session. */
export interface PublishSession {
  readonly id: string;
  readonly streamPath: string;
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
  streamPath: string;
  socket?: { destroy(): void };
  close(): void;
  broadcast?: { publishGraceMs: number };
}

interface Nms {
  on(event: string, listener: (session: NmsSession) => void): void;
  run(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The RTMP listener: node-media-server (one per process: it keeps its state in a module singleton).
 * It only relays; the ingest decides who may publish. Its 30 s "publish grace" (a disconnected
 * publisher is reported late, in case it comes back) is turned off: the live stream's reconnect
 * window is ours to run.
 */
export class RtmpServer {
  private nms?: Nms;
  private readonly sessions = new Map<string, PublishSession>();

  constructor(private readonly options: RtmpServerOptions) {}

  async start(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const NodeMediaServer = require('node-media-server') as new (config: object) => Nms;
    const nms = new NodeMediaServer({
      bind: this.options.host,
      rtmp: { port: this.options.port, chunk_size: 60000, gop_cache: true, ping: 30, ping_timeout: 60 },
      store: { path: path.join(this.options.dataDir, 'rtmp-server') },
    });
    quietLogger(this.options.logLevel);
    nms.on('prePublish', (session) => {
      if (session.broadcast) session.broadcast.publishGraceMs = 0;
      const publish = this.wrap(session);
      this.sessions.set(session.id, publish);
      this.options.onPublish(publish);
    });
    nms.on('donePublish', (session) => {
      const publish = this.sessions.get(session.id) ?? this.wrap(session);
      this.sessions.delete(session.id);
      this.options.onUnpublish(publish);
    });
    await nms.run();
    this.nms = nms;
  }

  async stop(): Promise<void> {
    for (const session of this.sessions.values()) session.drop();
    await this.nms?.stop();
    this.nms = undefined;
  }

  private wrap(session: NmsSession): PublishSession {
    return {
      id: session.id,
      streamPath: session.streamPath,
      drop: () => (session.socket ? session.socket.destroy() : session.close()),
    };
  }
}

/** node-media-server sets its own logger to debug; follow LOG_LEVEL instead (its warnings at most). */
function quietLogger(level: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const logger = require('node-media-server/src/core/logger.js') as { level: string };
  logger.level = level === 'debug' || level === 'verbose' ? 'info' : 'error';
}
