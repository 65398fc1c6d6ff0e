/**
 * Splits a client's bytes into Postgres wire-protocol messages and groups them into the units
 * the embedded server executes at once: everything up to a message after which a client waits
 * for the server (Sync, simple Query, Flush, …). `pg` writes Parse, Bind, Describe, Execute and
 * Sync together, so one parameterised query becomes one unit: one call into PGlite and one
 * write of its whole answer, instead of five of each.
 */

/** The first message of a connection carries no type byte: startup, SSL/GSS request or cancel. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

const code = (c: string) => c.charCodeAt(0);
/** After these the client waits for an answer, so the batch so far must run. */
const WAITS_AFTER = new Set(['S', 'Q', 'H', 'F', 'p', 'c', 'f'].map(code));
export const TERMINATE = code('X');
export const FLUSH = code('H');
const PARSE = code('P');
const CLOSE = code('C');

export type WireUnit =
  /** SSLRequest or GSSENCRequest: answered 'N' (no encryption on loopback). */
  | { kind: 'encryption-request' }
  | { kind: 'cancel-request' }
  | { kind: 'startup'; bytes: Buffer }
  /** Messages to execute together; `last` is the type of the message that ends them. */
  | { kind: 'batch'; bytes: Buffer; last: number }
  | { kind: 'terminate' };

export class WireReader {
  private pending: Buffer = Buffer.alloc(0);
  private batch: Buffer[] = [];
  private started = false;
  /** Names of the prepared statements this connection created (Parse) and has not closed. */
  readonly statements = new Set<string>();

  /** The complete units in the bytes received so far; incomplete ones wait for more bytes. */
  push(chunk: Buffer): WireUnit[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const units: WireUnit[] = [];
    let offset = 0;
    for (;;) {
      const rest = this.pending.length - offset;
      if (!this.started) {
        if (rest < 8) break;
        const length = this.pending.readInt32BE(offset);
        if (rest < length) break;
        const request = this.pending.readInt32BE(offset + 4);
        const bytes = this.pending.subarray(offset, offset + length);
        offset += length;
        if (request === SSL_REQUEST || request === GSSENC_REQUEST) units.push({ kind: 'encryption-request' });
        else if (request === CANCEL_REQUEST) units.push({ kind: 'cancel-request' });
        else {
          this.started = true;
          units.push({ kind: 'startup', bytes });
        }
        continue;
      }
      if (rest < 5) break;
      const length = 1 + this.pending.readInt32BE(offset + 1);
      if (rest < length) break;
      const type = this.pending[offset];
      const message = this.pending.subarray(offset, offset + length);
      offset += length;
      if (type === TERMINATE) {
        units.push({ kind: 'terminate' });
        continue;
      }
      this.track(type, message);
      this.batch.push(message);
      if (WAITS_AFTER.has(type)) {
        units.push({ kind: 'batch', bytes: Buffer.concat(this.batch), last: type });
        this.batch = [];
      }
    }
    // keep only the unread tail (copied, so the chunk it came from can be collected)
    this.pending = offset === this.pending.length ? Buffer.alloc(0) : Buffer.from(this.pending.subarray(offset));
    return units;
  }

  /** Follows named prepared statements so they can be closed when the connection goes. */
  private track(type: number, message: Buffer): void {
    if (type === PARSE) {
      const name = cString(message, 5);
      if (name) this.statements.add(name);
    } else if (type === CLOSE && message[5] === code('S')) {
      this.statements.delete(cString(message, 6));
    }
  }
}

function cString(message: Buffer, start: number): string {
  const end = message.indexOf(0, start);
  return message.toString('utf8', start, end === -1 ? message.length : end);
}

/** A simple-protocol Query message. */
export function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header[0] = code('Q');
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

/** Close (prepared statement) messages for these names, then Sync. */
export function closeStatementsMessage(names: Iterable<string>): Buffer {
  const parts: Buffer[] = [];
  for (const name of names) {
    const body = Buffer.from(`S${name}\0`, 'utf8');
    const header = Buffer.alloc(5);
    header[0] = CLOSE;
    header.writeInt32BE(4 + body.length, 1);
    parts.push(header, body);
  }
  parts.push(Buffer.from([code('S'), 0, 0, 0, 4]));
  return Buffer.concat(parts);
}
