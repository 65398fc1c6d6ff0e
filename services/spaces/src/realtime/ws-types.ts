import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

// `ws` ships no types and @types/ws is not a dependency: the parts of ws 8 used here, typed.

export type RawData = Buffer | ArrayBuffer | Buffer[];

export interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly CONNECTING: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: RawData, isBinary: boolean) => void): this;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'pong', listener: () => void): this;
  off(event: 'message', listener: (data: RawData, isBinary: boolean) => void): this;
}

export interface WebSocketServer {
  readonly clients: Set<WebSocket>;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: WebSocket) => void): void;
  close(callback?: () => void): void;
}

export function createWebSocketServer(options: { noServer: true; maxPayload: number }): WebSocketServer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ws = require('ws') as { WebSocketServer: new (options: object) => WebSocketServer };
  return new ws.WebSocketServer(options);
}
