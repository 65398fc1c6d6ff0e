import { AnalyticsStore } from './analytics-store.port';
import { pageWithTotal } from './paged-query';

/** A store answering each query with the next canned rows, and keeping the SQL it was sent. */
function cannedStore(...answers: Array<Array<Record<string, unknown>>>): AnalyticsStore & { sent: string[] } {
  const sent: string[] = [];
  const query = (sql: string) => {
    sent.push(sql);
    return Promise.resolve(answers.shift() ?? []);
  };
  return { sent, query } as unknown as AnalyticsStore & { sent: string[] };
}

const select = { columns: 'id', from: 'FROM views WHERE 1', orderBy: 'id' };

describe('pageWithTotal', () => {
  it('reads a page and its total in one statement, the count a scalar beside the page', async () => {
    const store = cannedStore([
      { id: 'a', total_rows: '3' },
      { id: 'b', total_rows: '3' },
    ]);
    expect(await pageWithTotal(store, select, {}, { limit: 2, offset: 0 })).toEqual({ rows: [{ id: 'a' }, { id: 'b' }], total: 3 });
    expect(store.sent).toEqual([
      'SELECT id, (SELECT count() AS total FROM (SELECT id FROM views WHERE 1)) AS total_rows FROM views WHERE 1 ORDER BY id LIMIT {limit:UInt32} OFFSET {offset:UInt64}',
    ]);
  });

  it('never answers a total below what the page shows: a row landing after the count is counted', async () => {
    const store = cannedStore([{ id: 'late', total_rows: 0 }]);
    expect(await pageWithTotal(store, select, {}, { limit: 2, offset: 0 })).toEqual({ rows: [{ id: 'late' }], total: 1 });
    const later = cannedStore([{ id: 'c', total_rows: 4 }]);
    expect(await pageWithTotal(later, select, {}, { limit: 2, offset: 4 })).toEqual({ rows: [{ id: 'c' }], total: 5 });
  });

  it('answers an empty first page with 0, without counting again', async () => {
    const store = cannedStore([]);
    expect(await pageWithTotal(store, select, {}, { limit: 2, offset: 0 })).toEqual({ rows: [], total: 0 });
    expect(store.sent).toHaveLength(1);
  });

  it('counts apart only a page past the end, which has no row to carry the count', async () => {
    const store = cannedStore([], [{ total: '5' }]);
    expect(await pageWithTotal(store, select, {}, { limit: 2, offset: 6 })).toEqual({ rows: [], total: 5 });
    expect(store.sent[1]).toBe('SELECT count() AS total FROM (SELECT id FROM views WHERE 1)');
  });
});
