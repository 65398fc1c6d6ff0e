import { FLUSH, closeStatementsMessage, queryMessage } from './wire-reader';

/** What the scheduler needs of PGlite (one Postgres session). */
export interface WireDatabase {
  execProtocolRawStream(message: Uint8Array, options: { syncToFs?: boolean; onRawData(data: Uint8Array): void }): Promise<void>;
  isInTransaction(): boolean;
}

/** One client connection as the scheduler sees it. */
export interface WireClient {
  /** Answer bytes for this client, in order. */
  send(bytes: Buffer): void;
  /** The database failed while running this client's batch: drop the connection. */
  fail(err: unknown): void;
}

interface Job {
  client: WireClient;
  bytes: Buffer;
  /** The batch ends in Flush: the client goes on with the same extended-protocol sequence. */
  continues: boolean;
  /** Housekeeping for a client that left: run, answer nobody. */
  silent?: boolean;
}

/**
 * PGlite is ONE Postgres session shared by every connection, so their batches run one at a
 * time, in arrival order, each as a single synchronous call into PGlite. While a client has a
 * transaction open (or stopped an extended-protocol sequence at a Flush, with an unnamed
 * statement or portal the next batch needs) it owns the session: other clients' batches wait
 * until it commits, rolls back or leaves.
 */
export class WireScheduler {
  private readonly queue: Job[] = [];
  private owner: WireClient | undefined;
  private draining = false;

  constructor(private readonly db: WireDatabase) {}

  submit(client: WireClient, bytes: Buffer, last: number): void {
    this.queue.push({ client, bytes, continues: last === FLUSH });
    this.drain();
  }

  /**
   * A client disconnected: its waiting batches are dropped; a transaction it left open is
   * rolled back and its prepared statements closed, in its turn, so nothing of it lingers in
   * the shared session.
   */
  leave(client: WireClient, statements: Iterable<string>): void {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].client === client) this.queue.splice(i, 1);
    const closes = [...statements];
    const owns = this.owner === client;
    if (!owns && closes.length === 0) return;
    // Runs only when the session is free or this client's own: an open transaction then is its.
    const parts = owns ? [queryMessage('ROLLBACK')] : [];
    if (closes.length > 0) parts.push(closeStatementsMessage(closes));
    this.queue.push({ client, bytes: Buffer.concat(parts), continues: false, silent: true });
    this.drain();
  }

  private drain(): void {
    if (this.draining) return; // a client answered synchronously sent more: the running loop takes it
    this.draining = true;
    try {
      for (let job = this.next(); job; job = this.next()) this.run(job);
    } finally {
      this.draining = false;
    }
  }

  private next(): Job | undefined {
    if (!this.owner) return this.queue.shift();
    const index = this.queue.findIndex((job) => job.client === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private run(job: Job): void {
    const chunks: Buffer[] = [];
    // Synchronous up to its first await, which only syncToFs would reach: the data directory
    // is a real directory (Node FS), which PGlite writes through, so there is nothing to sync.
    this.db
      .execProtocolRawStream(job.bytes, { syncToFs: false, onRawData: (data) => chunks.push(Buffer.from(data)) })
      .catch((err: unknown) => (job.silent ? undefined : job.client.fail(err)));
    this.owner = !job.silent && (job.continues || this.db.isInTransaction()) ? job.client : undefined;
    if (job.silent || chunks.length === 0) return;
    job.client.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }
}
