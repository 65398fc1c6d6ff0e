import { serialize } from 'pg-protocol';
import { closeStatementsMessage, queryMessage } from './wire-reader';
import { WireClient, WireDatabase, WireScheduler } from './wire-scheduler';

const S = 'S'.charCodeAt(0);
const Q = 'Q'.charCodeAt(0);
const H = 'H'.charCodeAt(0);

/** A stand-in for PGlite: records each call, answers with the call number, tracks BEGIN/COMMIT/ROLLBACK. */
class FakeDatabase implements WireDatabase {
  readonly calls: string[] = [];
  private inTransaction = false;

  execProtocolRawStream(message: Uint8Array, options: { onRawData(data: Uint8Array): void }): Promise<void> {
    const text = Buffer.from(message).toString('latin1');
    this.calls.push(text);
    if (/BEGIN/.test(text)) this.inTransaction = true;
    if (/COMMIT|ROLLBACK/.test(text)) this.inTransaction = false;
    options.onRawData(Buffer.from(`answer${this.calls.length}`));
    options.onRawData(Buffer.from('+'));
    return Promise.resolve();
  }

  isInTransaction(): boolean {
    return this.inTransaction;
  }
}

const client = (name: string, log: string[]): WireClient => ({
  send: (bytes) => log.push(`${name}:${bytes.toString()}`),
  fail: () => log.push(`${name}:failed`),
});

describe('WireScheduler (one PGlite session shared by every connection)', () => {
  let db: FakeDatabase;
  let scheduler: WireScheduler;
  let log: string[];

  beforeEach(() => {
    db = new FakeDatabase();
    scheduler = new WireScheduler(db);
    log = [];
  });

  it('runs each batch as ONE call and answers it with ONE write of everything PGlite produced', () => {
    const a = client('a', log);
    scheduler.submit(a, Buffer.concat([serialize.parse({ text: 'SELECT 1' }), serialize.bind({}), serialize.execute({}), serialize.sync()]), S);
    expect(db.calls).toHaveLength(1);
    expect(log).toEqual(['a:answer1+']);
  });

  it('lets no other connection in while one has a transaction open, then serves the others in arrival order', () => {
    const a = client('a', log);
    const b = client('b', log);
    const c = client('c', log);
    scheduler.submit(a, queryMessage('BEGIN'), Q);
    scheduler.submit(b, queryMessage('SELECT b'), Q);
    scheduler.submit(c, queryMessage('SELECT c'), Q);
    scheduler.submit(a, queryMessage('INSERT a'), Q);
    expect(db.calls.map((t) => t.slice(5, -1))).toEqual(['BEGIN', 'INSERT a']);
    scheduler.submit(a, queryMessage('COMMIT'), Q);
    expect(db.calls.map((t) => t.slice(5, -1))).toEqual(['BEGIN', 'INSERT a', 'COMMIT', 'SELECT b', 'SELECT c']);
    expect(log.map((l) => l[0])).toEqual(['a', 'a', 'a', 'b', 'c']);
  });

  it('keeps the session for a connection that stopped at a Flush until its Sync (its unnamed statement must survive)', () => {
    const a = client('a', log);
    const b = client('b', log);
    scheduler.submit(a, serialize.parse({ text: 'SELECT 1' }), H);
    scheduler.submit(b, queryMessage('SELECT b'), Q);
    expect(db.calls).toHaveLength(1);
    scheduler.submit(a, Buffer.concat([serialize.bind({}), serialize.execute({}), serialize.sync()]), S);
    expect(db.calls).toHaveLength(3);
    expect(log.map((l) => l[0])).toEqual(['a', 'a', 'b']);
  });

  it('rolls back the transaction of a connection that leaves, closes its statements, drops its waiting batches, and answers nobody', () => {
    const a = client('a', log);
    const b = client('b', log);
    scheduler.submit(a, queryMessage('BEGIN'), Q);
    scheduler.submit(b, queryMessage('SELECT b'), Q);
    scheduler.leave(a, ['p1', 'p2']);
    expect(db.calls.slice(1)).toEqual([
      Buffer.concat([queryMessage('ROLLBACK'), closeStatementsMessage(['p1', 'p2'])]).toString('latin1'),
      'Q\0\0\0\rSELECT b\0',
    ]);
    expect(db.isInTransaction()).toBe(false);
    expect(log).toEqual(['a:answer1+', 'b:answer3+']);
  });

  it('closes the statements of a connection that leaves outside a transaction only when the session is free', () => {
    const a = client('a', log);
    const b = client('b', log);
    scheduler.submit(b, queryMessage('BEGIN'), Q);
    scheduler.leave(a, ['p1']);
    expect(db.calls).toHaveLength(1); // b's transaction is not disturbed
    scheduler.submit(b, queryMessage('COMMIT'), Q);
    expect(db.calls.slice(2)).toEqual([closeStatementsMessage(['p1']).toString('latin1')]);
  });

  it('takes batches a connection sends while being answered (pg pipelines from its data handler) in the same run', () => {
    const a: WireClient = {
      send: (bytes) => {
        log.push(`a:${bytes.toString()}`);
        if (log.length === 1) scheduler.submit(a, queryMessage('SELECT again'), Q);
      },
      fail: () => undefined,
    };
    scheduler.submit(a, queryMessage('SELECT once'), Q);
    expect(log).toEqual(['a:answer1+', 'a:answer2+']);
  });
});
