import { ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import {
  callerSocketId,
  cookieOf,
  HANDSHAKE_CONCLUSION,
  HANDSHAKE_INDUCTION,
  handshakeType,
  inductionResponse,
  isHandshake,
  rejection,
  shutdown,
  streamIdOf,
  streamKeyOfStreamId,
  withCookie,
} from './srt-packets';
import { startRepublisher } from './srt-republisher';

/** Whether a caller naming `streamKey` may publish: where its media goes (RTMP) and its passphrase, or a rejection reason. */
export type SrtAdmission = { passphrase: string; publishUrl: string } | { reject: number; reason: string };

export interface SrtFrontDoorOptions {
  port: number;
  host: string;
  ffmpegPath: string;
  admit(streamKey: string | undefined): Promise<SrtAdmission>;
  log(message: string): void;
}

/** How long a bridge waits for its caller to connect, and how long a silent caller is kept. */
const CONNECT_TIMEOUT_MS = 5000;
const IDLE_TIMEOUT_MS = 10_000;

/**
 * ffmpeg as the SRT listener of one caller: decrypts with the stream's passphrase and passes its
 * MPEG-TS on (stdout) to the republisher (srt-republisher.ts), which sends it to RTMP. The
 * listener's URL carries the passphrase, so it reaches ffmpeg on stdin as a one-entry concat list
 * (`bridgeInput`), never on its command line (`ps` shows every process's arguments). Probing is
 * capped at 1 s (MPEG-TS probing otherwise takes its 5 s default before any output).
 */
export function bridgeArgs(): string[] {
  return [
    '-v',
    'error',
    '-analyzeduration',
    '1000000',
    '-f',
    'concat',
    '-safe',
    '0',
    '-protocol_whitelist',
    'pipe,srt,udp',
    '-i',
    'pipe:0',
    '-map',
    '0',
    '-c',
    'copy',
    '-f',
    'mpegts',
    'pipe:1',
  ];
}

/** The concat list the bridge reads on stdin: the SRT listener on `port` holding `passphrase`. */
export function bridgeInput(port: number, passphrase: string): string {
  const secret = encodeURIComponent(passphrase).replace(/'/g, '%27');
  const listener = `srt://127.0.0.1:${port}?mode=listener&passphrase=${secret}&listen_timeout=${CONNECT_TIMEOUT_MS * 1000}`;
  return `ffconcat version 1.0\nfile '${listener}'\noption analyzeduration 1000000\n`;
}

/** ffmpeg's messages about the listener name its URL: the passphrase is taken out before they are logged. */
export function redactPassphrase(text: string, passphrase: string): string {
  const encoded = encodeURIComponent(passphrase).replace(/'/g, '%27');
  return text
    .split(encoded)
    .join('…')
    .split(passphrase)
    .join('…')
    .replace(/passphrase=[^&'\s]*/g, 'passphrase=…');
}

interface Bridge {
  caller: dgram.RemoteInfo;
  callerSocket: number;
  /** The socket that speaks to the bridge's listener for the caller. */
  socket: dgram.Socket;
  port: number;
  child?: ChildProcess;
  republisher?: { stop(): void };
  /** The listener's SYN cookie, once its induction answered: conclusions are forwarded with it. */
  cookie?: number;
  lastHeard: number;
  closed: boolean;
}

/**
 * SRT ingest on one UDP port, Mux's way: `srt://host:SRT_PORT?streamid={stream_key}&passphrase=…`.
 * Each stream has its own passphrase, but an SRT listener must know the passphrase before the
 * handshake that names the stream. So this front door answers the caller's induction itself, reads
 * the stream id from its conclusion, asks `admit`, and then hands the connection to a bridge: an
 * ffmpeg SRT listener on a loopback port with that stream's passphrase (libsrt checks it and
 * decrypts), which republishes the media to the local RTMP server. From then on the front door only
 * forwards datagrams both ways (the one rewrite: the conclusion carries the bridge's SYN cookie).
 */
export class SrtFrontDoor {
  private readonly socket = dgram.createSocket('udp4');
  private readonly bridges = new Map<string, Bridge>();
  /** Callers whose conclusion is being admitted: their retransmissions are ignored meanwhile. */
  private readonly admitting = new Set<string>();
  /** The last induction of each caller: replayed to its bridge, which wants one before the conclusion. */
  private readonly inductions = new Map<string, { packet: Buffer; at: number }>();
  private readonly secret = randomBytes(32);
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly options: SrtFrontDoorOptions) {}

  async start(): Promise<void> {
    this.socket.on('message', (packet, from) => this.onPacket(packet, from));
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(this.options.port, this.options.host, () => {
        this.socket.off('error', reject);
        this.socket.on('error', (err) => this.options.log(`SRT socket: ${err.message}`));
        resolve();
      });
    });
    this.sweeper = setInterval(() => this.sweep(), 1000);
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    for (const bridge of this.bridges.values()) this.close(bridge);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  get connections(): number {
    return this.bridges.size;
  }

  private onPacket(packet: Buffer, from: dgram.RemoteInfo): void {
    const key = `${from.address}:${from.port}`;
    const bridge = this.bridges.get(key);
    if (bridge) return this.forward(bridge, packet);
    if (!isHandshake(packet) || this.admitting.has(key)) return;
    const type = handshakeType(packet);
    if (type === HANDSHAKE_INDUCTION) {
      this.inductions.set(key, { packet: Buffer.from(packet), at: Date.now() });
      this.send(inductionResponse(packet, randomBytes(4).readUInt32BE(0) & 0x3fffffff, this.cookie(key)), from);
    } else if (type === HANDSHAKE_CONCLUSION && this.isOurCookie(key, cookieOf(packet))) {
      this.admitting.add(key);
      void this.conclude(key, Buffer.from(packet), from).finally(() => this.admitting.delete(key));
    }
  }

  private async conclude(key: string, conclusion: Buffer, from: dgram.RemoteInfo): Promise<void> {
    const induction = this.inductions.get(key);
    this.inductions.delete(key);
    const admission = await this.options.admit(streamKeyOfStreamId(streamIdOf(conclusion))).catch((err: unknown) => ({ reject: 1500, reason: String(err) }));
    if ('reject' in admission || !induction) {
      const reason = 'reject' in admission ? admission.reason : 'no induction';
      this.options.log(`refused an SRT caller from ${key}: ${reason}`);
      this.send(rejection(conclusion, 'reject' in admission ? admission.reject : 1400), from);
      return;
    }
    const bridge: Bridge = {
      caller: from,
      callerSocket: callerSocketId(conclusion),
      socket: dgram.createSocket('udp4'),
      port: 0,
      lastHeard: Date.now(),
      closed: false,
    };
    this.bridges.set(key, bridge);
    bridge.socket.on('message', (packet) => this.fromBridge(bridge, packet, conclusion));
    bridge.socket.on('error', () => this.close(bridge));
    await new Promise<void>((resolve) => bridge.socket.bind(0, '127.0.0.1', () => resolve()));
    bridge.port = await freeUdpPort();
    const child = spawn(this.options.ffmpegPath, bridgeArgs(), { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin?.on('error', () => undefined); // an ffmpeg that died at once: its exit is reported below
    child.stdin?.end(bridgeInput(bridge.port, admission.passphrase));
    bridge.child = child;
    bridge.republisher = startRepublisher(this.options.ffmpegPath, admission.publishUrl, child.stdout, (code, stderr) => {
      if (code !== 0 && !bridge.closed) this.options.log(`SRT republisher for ${key} ended (${code}): ${stderr.trim().split('\n').slice(-2).join(' | ')}`);
      this.close(bridge);
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.once('exit', (code) => {
      if (code === 0 && !bridge.closed) {
        // the caller finished: the republisher sends what it still holds and ends by itself (then closes the bridge)
        setTimeout(() => this.close(bridge), 5000).unref();
        return;
      }
      if (code !== 0 && !bridge.closed) {
        const last = redactPassphrase(stderr.trim().split('\n').slice(-2).join(' | '), admission.passphrase);
        this.options.log(`SRT bridge for ${key} ended (${code}): ${last}`);
      }
      this.close(bridge);
    });
    // the listener wants the caller's induction first; repeat it until the listener is up
    const knock = setInterval(() => {
      if (bridge.cookie !== undefined || bridge.closed) return clearInterval(knock);
      bridge.socket.send(induction.packet, bridge.port, '127.0.0.1');
    }, 50);
  }

  private fromBridge(bridge: Bridge, packet: Buffer, conclusion: Buffer): void {
    if (bridge.cookie === undefined) {
      if (!isHandshake(packet) || handshakeType(packet) !== HANDSHAKE_INDUCTION) return;
      bridge.cookie = cookieOf(packet);
      bridge.socket.send(withCookie(conclusion, bridge.cookie), bridge.port, '127.0.0.1');
      return;
    }
    this.send(packet, bridge.caller);
  }

  private forward(bridge: Bridge, packet: Buffer): void {
    bridge.lastHeard = Date.now();
    if (bridge.cookie === undefined) return; // the conclusion is resent by the caller; the bridge is still starting
    const out = isHandshake(packet) && handshakeType(packet) === HANDSHAKE_CONCLUSION ? withCookie(packet, bridge.cookie) : packet;
    bridge.socket.send(out, bridge.port, '127.0.0.1');
  }

  private close(bridge: Bridge): void {
    if (bridge.closed) return;
    bridge.closed = true;
    this.bridges.delete(`${bridge.caller.address}:${bridge.caller.port}`);
    this.send(shutdown(bridge.callerSocket), bridge.caller);
    if (bridge.child && bridge.child.exitCode === null) bridge.child.kill('SIGKILL');
    bridge.republisher?.stop();
    bridge.socket.close();
  }

  private sweep(): void {
    const now = Date.now();
    for (const bridge of this.bridges.values()) if (now - bridge.lastHeard > IDLE_TIMEOUT_MS) this.close(bridge);
    for (const [key, { at }] of this.inductions) if (now - at > IDLE_TIMEOUT_MS) this.inductions.delete(key);
  }

  /** A SYN cookie bound to the caller's address and the minute (as libsrt's), so no state is kept before the conclusion. */
  private cookie(key: string, minute = Math.floor(Date.now() / 60_000)): number {
    return createHmac('sha256', this.secret).update(`${key}|${minute}`).digest().readUInt32BE(0);
  }

  /** This minute's cookie or the last one's (an induction just before the minute turned). */
  private isOurCookie(key: string, cookie: number): boolean {
    const minute = Math.floor(Date.now() / 60_000);
    return cookie === this.cookie(key, minute) || cookie === this.cookie(key, minute - 1);
  }

  private send(packet: Buffer, to: dgram.RemoteInfo): void {
    this.socket.send(packet, to.port, to.address);
  }
}

/** A loopback UDP port free right now (the bridge's ffmpeg binds it a moment later). */
async function freeUdpPort(): Promise<number> {
  const probe = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
