/**
 * The few SRT packets the SRT front door reads or writes (SRT RFC draft, section 3): handshakes (to
 * read the caller's stream id and hand the connection to a listener that holds its passphrase) and
 * shutdown. Offsets are into the UDP payload: a 16-byte header, then the handshake's fields.
 */

const CONTROL_HANDSHAKE = 0x8000;
const CONTROL_SHUTDOWN = 0x8005;
const HEADER = 16;
const HS_VERSION = HEADER;
const HS_ENCRYPTION = HEADER + 4;
const HS_EXTENSION = HEADER + 6;
const HS_TYPE = HEADER + 20;
const HS_SOCKET_ID = HEADER + 24;
const HS_COOKIE = HEADER + 28;
const HS_PEER_IP = HEADER + 32;
const HS_END = HEADER + 48;
const DESTINATION = 12;

export const HANDSHAKE_INDUCTION = 1;
export const HANDSHAKE_CONCLUSION = 0xffffffff;
const SRT_MAGIC = 0x4a17;
const EXT_STREAM_ID = 5;

/** Rejection reasons a listener may send (SRT's predefined codes: 1000 + an HTTP-like status). */
export const REJECT_FORBIDDEN = 1403;
export const REJECT_NOT_FOUND = 1404;
export const REJECT_CONFLICT = 1409;

export function isHandshake(packet: Buffer): boolean {
  return packet.length >= HS_END && packet.readUInt16BE(0) === CONTROL_HANDSHAKE;
}

export function handshakeType(packet: Buffer): number {
  return packet.readUInt32BE(HS_TYPE);
}

export function cookieOf(packet: Buffer): number {
  return packet.readUInt32BE(HS_COOKIE);
}

/** The caller's SRT socket id, named in its handshakes. */
export function callerSocketId(packet: Buffer): number {
  return packet.readUInt32BE(HS_SOCKET_ID);
}

/** A copy of a handshake with another SYN cookie. */
export function withCookie(packet: Buffer, cookie: number): Buffer {
  const copy = Buffer.from(packet);
  copy.writeUInt32BE(cookie >>> 0, HS_COOKIE);
  return copy;
}

/**
 * The stream id of a conclusion handshake (its SID extension), or undefined. SRT carries it in 32-bit
 * words whose bytes are in reverse order, padded with NULs.
 */
export function streamIdOf(conclusion: Buffer): string | undefined {
  let at = HS_END;
  while (at + 4 <= conclusion.length) {
    const type = conclusion.readUInt16BE(at);
    const words = conclusion.readUInt16BE(at + 2);
    const body = conclusion.subarray(at + 4, at + 4 + words * 4);
    if (type === EXT_STREAM_ID) return swapWords(body).toString('utf8').replace(/\0+$/, '');
    at += 4 + words * 4;
  }
  return undefined;
}

/** The stream key a stream id names: the id itself (Mux: `streamid={stream_key}`) or `r=` of SRT's access-control syntax `#!::r=…,m=publish`. */
export function streamKeyOfStreamId(streamId: string | undefined): string | undefined {
  if (!streamId) return undefined;
  if (!streamId.startsWith('#!::')) return streamId.length <= 255 ? streamId : undefined;
  const fields = new Map(
    streamId
      .slice(4)
      .split(',')
      .map((kv) => kv.split('=') as [string, string | undefined]),
  );
  const mode = fields.get('m');
  if (mode !== undefined && mode !== 'publish') return undefined;
  return fields.get('r') || undefined;
}

/**
 * The listener's answer to an induction (HSv5): the caller's fields back with version 5, the SRT
 * magic, our socket id and a SYN cookie the caller must return in its conclusion.
 */
export function inductionResponse(induction: Buffer, socketId: number, cookie: number): Buffer {
  const reply = Buffer.from(induction.subarray(0, HS_END));
  reply.writeUInt32BE(callerSocketId(induction), DESTINATION);
  reply.writeUInt32BE(5, HS_VERSION);
  reply.writeUInt16BE(0, HS_ENCRYPTION);
  reply.writeUInt16BE(SRT_MAGIC, HS_EXTENSION);
  reply.writeUInt32BE(socketId >>> 0, HS_SOCKET_ID);
  reply.writeUInt32BE(cookie >>> 0, HS_COOKIE);
  reply.fill(0, HS_PEER_IP, HS_END);
  return reply;
}

/** A conclusion answered with a rejection: the caller gives up at once with `reason`. */
export function rejection(conclusion: Buffer, reason: number): Buffer {
  const reply = Buffer.from(conclusion.subarray(0, HS_END));
  reply.writeUInt32BE(callerSocketId(conclusion), DESTINATION);
  reply.writeUInt32BE(5, HS_VERSION);
  reply.writeUInt16BE(0, HS_ENCRYPTION);
  reply.writeUInt16BE(0, HS_EXTENSION);
  reply.writeUInt32BE(reason, HS_TYPE);
  reply.writeUInt32BE(0, HS_SOCKET_ID);
  return reply;
}

/** A shutdown to the caller's socket: its connection ends. */
export function shutdown(destinationSocketId: number): Buffer {
  const packet = Buffer.alloc(HEADER + 4);
  packet.writeUInt16BE(CONTROL_SHUTDOWN, 0);
  packet.writeUInt32BE(destinationSocketId >>> 0, DESTINATION);
  return packet;
}

function swapWords(body: Buffer): Buffer {
  const out = Buffer.alloc(body.length - (body.length % 4));
  for (let i = 0; i < out.length; i += 4) for (let j = 0; j < 4; j++) out[i + j] = body[i + 3 - j];
  return out;
}

/** The stream id as SRT carries it (for tests and tools): NUL-padded 32-bit words, bytes reversed. */
export function encodeStreamIdExtension(streamId: string): Buffer {
  const text = Buffer.from(streamId, 'utf8');
  const padded = Buffer.alloc(Math.ceil(text.length / 4) * 4);
  text.copy(padded);
  const ext = Buffer.alloc(4);
  ext.writeUInt16BE(EXT_STREAM_ID, 0);
  ext.writeUInt16BE(padded.length / 4, 2);
  return Buffer.concat([ext, swapWords(padded)]);
}
