import { Duplex } from 'node:stream';
import { WireSession, WireTransport } from './wire-session';

/**
 * The socket `pg` gets for the embedded database in the same process (pg's `stream` option):
 * the same wire protocol as over TCP, without the kernel in between. pg needs `connect`,
 * `setNoDelay`, `setKeepAlive`, `ref`/`unref` besides the Duplex itself.
 */
export class InProcessSocket extends Duplex {
  private session: WireSession | undefined;
  /** The server's side: what it writes, pg reads. */
  private readonly serverSide: WireTransport = {
    // Never synchronously: the batch may have run inside pg's own write, even inside its parser's
    // handling of the previous answer (it sends its next query from there), which must not re-enter.
    write: (bytes) => process.nextTick(() => this.destroyed || this.push(bytes)),
    // as a server closing its socket: pg sees 'close' (after its own write callbacks ran)
    end: () => process.nextTick(() => this.destroy()),
  };

  constructor(private readonly open: (transport: WireTransport) => WireSession) {
    super();
  }

  connect(): this {
    process.nextTick(() => {
      if (this.destroyed) return;
      this.session = this.open(this.serverSide);
      this.emit('connect');
    });
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.session?.receive(chunk);
    callback();
  }

  /** pg corks Parse…Sync: all of a query arrives here at once. */
  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    this.session?.receive(chunks.length === 1 ? chunks[0].chunk : Buffer.concat(chunks.map((c) => c.chunk)));
    callback();
  }

  override _read(): void {
    // bytes are pushed as the server produces them
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.session?.close();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.session?.close();
    callback(error);
  }
}
