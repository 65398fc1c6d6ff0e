import { WireClient, WireScheduler } from './wire-scheduler';
import { WireReader } from './wire-reader';

/** How a session reaches its client: a TCP socket or an in-process stream. */
export interface WireTransport {
  write(bytes: Buffer): void;
  /** Close the connection (the client said Terminate, sent garbage, or the database failed). */
  end(): void;
}

/** One client connection: reads its messages, hands whole batches to the scheduler, answers. */
export class WireSession implements WireClient {
  private readonly reader = new WireReader();
  private closed = false;

  constructor(
    private readonly scheduler: WireScheduler,
    private readonly transport: WireTransport,
    private readonly onClose: (session: WireSession) => void = () => undefined,
  ) {}

  receive(chunk: Buffer): void {
    if (this.closed) return;
    for (const unit of this.reader.push(chunk)) {
      switch (unit.kind) {
        case 'encryption-request':
          this.transport.write(Buffer.from('N'));
          break;
        case 'cancel-request':
        case 'terminate':
          this.close();
          return;
        case 'startup':
          this.scheduler.submit(this, unit.bytes, 0);
          break;
        case 'batch':
          this.scheduler.submit(this, unit.bytes, unit.last);
          break;
      }
    }
  }

  send(bytes: Buffer): void {
    if (!this.closed) this.transport.write(bytes);
  }

  fail(): void {
    this.close();
  }

  /** The connection is gone (or going): give back what it holds of the shared session. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.scheduler.leave(this, this.reader.statements);
    this.transport.end();
    this.onClose(this);
  }
}
