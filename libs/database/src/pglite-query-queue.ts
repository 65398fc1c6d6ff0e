import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * pglite-socket (0.2.17) queues each wire message of each connection separately and, outside a
 * transaction, serves them in arrival order across connections. With the extended query protocol
 * (Parse, Bind, Describe, Execute, Sync: what `pg` sends for every parameterised query) another
 * connection's Parse can then land between our Parse and our Bind and replace the unnamed
 * statement: queries fail with "unnamed prepared statement does not exist", or worse run the
 * other statement with our parameters. PGlite has one session, so the only safe order is to
 * serve a connection alone from its first extended-protocol message until its Sync, as the
 * package already does for a connection inside a transaction.
 *
 * The package exposes no hook for this, so its queue's `processQueue` is replaced on the
 * instance; the shape it relies on is checked at start so an upgrade that changes it fails
 * loudly instead of silently reintroducing the race.
 */
interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(err: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing?: boolean;
  lastHandlerId?: number | null;
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(message: Uint8Array, options: { onRawData(data: Uint8Array): void }): Promise<unknown>;
  };
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

const OPENS_SEQUENCE = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const CLOSES_SEQUENCE = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));

export function serializeExtendedQueries(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue?: QueryQueue }).queryQueue;
  if (!queue || !Array.isArray(queue.queue) || typeof queue.processQueue !== 'function' || typeof queue.clearTransactionIfNeeded !== 'function') {
    throw new Error('pglite-socket internals changed: cannot serialise extended-protocol messages (see libs/database/src/pglite-query-queue.ts)');
  }
  const midSequence = new Set<number>();

  const track = (item: QueuedMessage) => {
    const type = item.message[0];
    if (OPENS_SEQUENCE.has(type)) midSequence.add(item.handlerId);
    else if (CLOSES_SEQUENCE.has(type)) midSequence.delete(item.handlerId);
  };

  const next = (): QueuedMessage | undefined => {
    const owner = queue.lastHandlerId;
    const sticky = owner != null && (midSequence.has(owner) || queue.db.isInTransaction());
    if (!sticky) return queue.queue.shift();
    const index = queue.queue.findIndex((q) => q.handlerId === owner);
    return index === -1 ? undefined : queue.queue.splice(index, 1)[0];
  };

  queue.processQueue = async function processQueue(this: QueryQueue): Promise<void> {
    if (queue.processing) return;
    queue.processing = true;
    try {
      for (let item = next(); item; item = next()) {
        track(item);
        queue.lastHandlerId = item.handlerId;
        let bytes = 0;
        const current = item;
        try {
          await queue.db.runExclusive(() =>
            queue.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
          current.resolve(bytes);
        } catch (err) {
          current.reject(err);
        }
      }
    } finally {
      queue.processing = false;
    }
  };

  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async (handlerId: number) => {
    midSequence.delete(handlerId);
    await clearTransaction(handlerId);
    if (queue.lastHandlerId === handlerId) queue.lastHandlerId = null;
    await queue.processQueue();
  };
}
