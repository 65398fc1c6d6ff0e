/** C0 + C1 + C2: the client's side of the RTMP handshake, passed on as it is. */
const HANDSHAKE_BYTES = 1 + 1536 + 1536;
const MESSAGE_HEADER_BYTES = [11, 7, 3, 0];
const SET_CHUNK_SIZE = 1;
const AMF3_COMMAND = 17;
const AMF0_COMMAND = 20;
const AMF0_STRING = 0x02;
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

interface ChunkStream {
  timestampField: number;
  length: number;
  typeId: number;
  extended: boolean;
  /** Bytes of the current message still to come (0: the next chunk starts a message). */
  remaining: number;
  /** Where the current command message's payload lies in `pending`. */
  parts: Array<{ offset: number; length: number }>;
  /** Where its first chunk starts in `pending` (bytes from there on are held until it is complete). */
  start: number;
}

const isCommand = (typeId: number) => typeId === AMF0_COMMAND || typeId === AMF3_COMMAND;

/**
 * The client → server bytes of an RTMP publish, with every AMF0 string equal to `standIn` in its
 * command messages (releaseStream, FCPublish, publish, FCUnpublish) replaced by `name`, which has
 * the same length in bytes, so no chunk or message changes size and everything else passes as it
 * came. The chunk stream is followed (headers, chunk size) to find command payloads across chunk
 * boundaries; a command is held back until its last chunk is in. Anything it cannot follow (a
 * malformed stream) is passed on unchanged from then on: the server then sees the stand-in and
 * refuses the publish, which is a relay error, never a leak.
 */
export class PublishNameRewriter {
  private handshakeLeft = HANDSHAKE_BYTES;
  private pending: Buffer = Buffer.alloc(0);
  /** Parsed up to here (a chunk boundary) within `pending`. */
  private cursor = 0;
  private chunkSize = 128;
  private readonly streams = new Map<number, ChunkStream>();
  private lost = false;
  private readonly standIn: Buffer;
  private readonly name: Buffer;

  constructor(standIn: string, name: string) {
    this.standIn = Buffer.from(standIn);
    this.name = Buffer.from(name);
    if (this.standIn.length !== this.name.length) throw new Error('the stand-in and the name must have the same length in bytes');
  }

  /** Takes the next bytes from the client; returns those that may go to the server now. */
  push(data: Buffer): Buffer {
    if (this.lost) return data;
    const out: Buffer[] = [];
    if (this.handshakeLeft > 0) {
      const n = Math.min(this.handshakeLeft, data.length);
      out.push(data.subarray(0, n));
      this.handshakeLeft -= n;
      data = data.subarray(n);
    }
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    try {
      while (this.parseChunk());
    } catch {
      this.lost = true;
      out.push(this.pending);
      this.pending = Buffer.alloc(0);
      return Buffer.concat(out);
    }
    out.push(this.release());
    return Buffer.concat(out);
  }

  /** Bytes up to the first incomplete command (or all parsed chunks) leave `pending`. */
  private release(): Buffer {
    let until = this.cursor;
    for (const s of this.streams.values()) if (s.remaining > 0 && isCommand(s.typeId)) until = Math.min(until, s.start);
    const ready = this.pending.subarray(0, until);
    this.pending = this.pending.subarray(until);
    this.cursor -= until;
    for (const s of this.streams.values()) {
      s.start -= until;
      for (const part of s.parts) part.offset -= until;
    }
    return ready;
  }

  /** Parses the chunk at `cursor`; false when it has not fully arrived. Throws on a stream it cannot follow. */
  private parseChunk(): boolean {
    const b = this.pending;
    const start = this.cursor;
    let p = start;
    if (p >= b.length) return false;
    const fmt = b[p] >> 6;
    let csid = b[p] & 0x3f;
    p += 1;
    if (csid === 0) {
      if (p + 1 > b.length) return false;
      csid = 64 + b[p];
      p += 1;
    } else if (csid === 1) {
      if (p + 2 > b.length) return false;
      csid = 64 + b[p] + b[p + 1] * 256;
      p += 2;
    }
    if (p + MESSAGE_HEADER_BYTES[fmt] > b.length) return false;
    const known = this.streams.get(csid);
    if (!known && fmt !== 0) throw new Error(`chunk stream ${csid} starts without a full header`);
    let { timestampField, length, typeId, extended } = known ?? { timestampField: 0, length: 0, typeId: 0, extended: false };
    if (fmt <= 2) {
      timestampField = b.readUIntBE(p, 3);
      extended = timestampField === 0xffffff;
    }
    if (fmt <= 1) {
      length = b.readUIntBE(p + 3, 3);
      typeId = b[p + 6];
    }
    p += MESSAGE_HEADER_BYTES[fmt];
    if (extended) p += 4;
    const continuing = known !== undefined && known.remaining > 0;
    if (continuing && fmt !== 3) throw new Error(`chunk stream ${csid}: a new message header inside a message`);
    if (length > MAX_MESSAGE_BYTES) throw new Error(`chunk stream ${csid}: a message of ${length} bytes`);
    const remaining = continuing ? known.remaining : length;
    const size = Math.min(this.chunkSize, remaining);
    if (p + size > b.length) return false;

    const stream: ChunkStream = known ?? { timestampField, length, typeId, extended, remaining: 0, parts: [], start };
    Object.assign(stream, { timestampField, length, typeId, extended });
    this.streams.set(csid, stream);
    if (!continuing) {
      stream.parts = [];
      stream.start = start;
    }
    if (isCommand(typeId)) stream.parts.push({ offset: p, length: size });
    stream.remaining = remaining - size;
    this.cursor = p + size;
    if (typeId === SET_CHUNK_SIZE && !continuing && size >= 4) this.chunkSize = Math.max(1, b.readUInt32BE(p) & 0x7fffffff);
    if (stream.remaining === 0 && isCommand(typeId)) this.rewrite(stream);
    return true;
  }

  /** Replaces the stand-in in a complete command's AMF0 strings, in place (same length). */
  private rewrite(stream: ChunkStream): void {
    const payload = Buffer.concat(stream.parts.map((part) => this.pending.subarray(part.offset, part.offset + part.length)));
    const marker = Buffer.concat([Buffer.from([AMF0_STRING, this.standIn.length >> 8, this.standIn.length & 0xff]), this.standIn]);
    let changed = false;
    for (let at = payload.indexOf(marker); at >= 0; at = payload.indexOf(marker, at + marker.length)) {
      this.name.copy(payload, at + 3);
      changed = true;
    }
    if (!changed) return;
    let from = 0;
    for (const part of stream.parts) {
      payload.copy(this.pending, part.offset, from, from + part.length);
      from += part.length;
    }
  }
}
