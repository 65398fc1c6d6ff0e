import { Client } from 'pg';

/** Distinct statements one connection prepares at most; further texts run unnamed. */
export const MAX_PREPARED_PER_CONNECTION = 200;

let counter = 0;

/**
 * A pg Client that prepares each parameterised statement once per connection (a named
 * statement) and afterwards only binds and executes it. PGlite runs Postgres in WebAssembly on
 * the event loop, where parsing and planning the same SELECT by primary key for every request
 * cost about three times its execution. Names are unique in the process because every
 * connection shares PGlite's one session; the wire server closes a connection's statements
 * when it leaves. Statement texts are fixed per call site (values are parameters), and the
 * cap bounds a caller that builds texts with varying shapes.
 */
export class PreparedStatementsClient extends Client {
  private readonly names = new Map<string, string>();

  // pg's overloads cannot be restated usefully: a call is passed through unchanged unless it is named here
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: unknown[]): any {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0) {
      const name = this.nameOf(text);
      if (name) return super.query({ name, text, values });
    }
    return (Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
  }

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (!name && this.names.size < MAX_PREPARED_PER_CONNECTION) {
      name = `p${process.pid}_${++counter}`;
      this.names.set(text, name);
    }
    return name;
  }
}
