import { DEFAULT_CLICKHOUSE_DATABASE, parseClickHouseUrl } from './clickhouse-http-store';

describe('parseClickHouseUrl', () => {
  it('takes the database from the path, video_platform by default', () => {
    expect(parseClickHouseUrl('http://ch:8123')).toEqual({
      url: 'http://ch:8123',
      username: undefined,
      password: undefined,
      database: DEFAULT_CLICKHOUSE_DATABASE,
    });
    expect(parseClickHouseUrl('https://ch.example:8443/analytics/')).toMatchObject({ url: 'https://ch.example:8443', database: 'analytics' });
  });

  it('takes percent-encoded credentials out of the URL', () => {
    expect(parseClickHouseUrl('http://app:p%40ss%2Fw@127.0.0.1:8123/db_1')).toEqual({
      url: 'http://127.0.0.1:8123',
      username: 'app',
      password: 'p@ss/w',
      database: 'db_1',
    });
  });

  it('refuses a path that is not a database name, and other schemes', () => {
    expect(() => parseClickHouseUrl('http://ch:8123/a/b')).toThrow(/database name/);
    expect(() => parseClickHouseUrl('http://ch:8123/x%60y')).toThrow(/database name/);
    expect(() => parseClickHouseUrl('tcp://ch:9000')).toThrow(/http/);
  });
});
