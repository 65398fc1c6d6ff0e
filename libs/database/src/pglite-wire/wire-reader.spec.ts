import { serialize } from 'pg-protocol';
import { closeStatementsMessage, WireReader, WireUnit } from './wire-reader';

const startup = serialize.startup({ user: 'postgres', database: 'postgres' });
const extendedQuery = (name = '') => [
  serialize.parse({ name, text: 'SELECT $1::int', types: [] }),
  serialize.bind({ statement: name, values: ['1'] }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
];
const started = () => {
  const reader = new WireReader();
  reader.push(startup);
  return reader;
};
/** The type of each batch's first message. */
const firstTypes = (units: WireUnit[]) => units.map((u) => (u.kind === 'batch' ? String.fromCharCode(u.bytes[0]) : u.kind));

describe('WireReader', () => {
  it('answers the untyped first messages: encryption requests, then the startup message', () => {
    const reader = new WireReader();
    const units = reader.push(Buffer.concat([serialize.requestSsl(), startup]));
    expect(units).toEqual([{ kind: 'encryption-request' }, { kind: 'startup', bytes: startup }]);
  });

  it('groups a parameterised query (Parse, Bind, Describe, Execute, Sync) into ONE batch of exactly those bytes', () => {
    const messages = extendedQuery();
    const units = started().push(Buffer.concat(messages));
    expect(units).toEqual([{ kind: 'batch', bytes: Buffer.concat(messages), last: 'S'.charCodeAt(0) }]);
  });

  it('waits for the rest of a message or of a batch split across reads', () => {
    const bytes = Buffer.concat([...extendedQuery(), serialize.query('COMMIT')]);
    const reader = started();
    const units: WireUnit[] = [];
    for (let i = 0; i < bytes.length; i += 7) units.push(...reader.push(bytes.subarray(i, i + 7)));
    expect(units.map((u) => u.kind === 'batch' && u.bytes)).toEqual([Buffer.concat(extendedQuery()), serialize.query('COMMIT')]);
  });

  it('ends a batch at every message the client waits after: Sync, Query, Flush', () => {
    const [parse, bind] = extendedQuery();
    const units = started().push(Buffer.concat([parse, serialize.flush(), bind, serialize.sync(), serialize.query('SELECT 1')]));
    expect(units.map((u) => u.kind === 'batch' && String.fromCharCode(u.last))).toEqual(['H', 'S', 'Q']);
    expect(firstTypes(units)).toEqual(['P', 'B', 'Q']);
  });

  it('reports Terminate instead of passing it on', () => {
    expect(started().push(serialize.end())).toEqual([{ kind: 'terminate' }]);
  });

  it('follows the named statements a connection prepares and closes', () => {
    const reader = started();
    reader.push(Buffer.concat([...extendedQuery('s1'), ...extendedQuery('s2'), ...extendedQuery()]));
    expect([...reader.statements]).toEqual(['s1', 's2']);
    reader.push(Buffer.concat([serialize.close({ type: 'S', name: 's1' }), serialize.sync()]));
    expect([...reader.statements]).toEqual(['s2']);
  });

  it('builds the Close messages that release statements, ended by Sync', () => {
    expect(closeStatementsMessage(['a', 'b'])).toEqual(
      Buffer.concat([serialize.close({ type: 'S', name: 'a' }), serialize.close({ type: 'S', name: 'b' }), serialize.sync()]),
    );
  });
});
