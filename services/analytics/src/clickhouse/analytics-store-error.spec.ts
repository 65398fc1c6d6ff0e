import { AnalyticsStoreError, parseClickHouseErrorText, toStoreError } from './analytics-store-error';

describe('analytics store errors', () => {
  it("parses ClickHouse's error text into code, type and message", () => {
    const err = parseClickHouseErrorText(
      "Code: 60. DB::Exception: Unknown table expression identifier 'nope' in scope SELECT * FROM nope. (UNKNOWN_TABLE) (version 26.7.2.1)",
    );
    expect(err).toBeInstanceOf(AnalyticsStoreError);
    expect(err).toMatchObject({ code: 60, type: 'UNKNOWN_TABLE', message: "Unknown table expression identifier 'nope' in scope SELECT * FROM nope" });
  });

  it('takes the innermost exception of a wrapped one', () => {
    const text =
      'Code: 57. DB::Exception: There was an error on [h:9000]: Code: 57. DB::Exception: Table x exists. (TABLE_ALREADY_EXISTS) (version 1). (TABLE_ALREADY_EXISTS)';
    expect(parseClickHouseErrorText(text)).toMatchObject({ code: 57, type: 'TABLE_ALREADY_EXISTS', message: 'Table x exists' });
  });

  it('keeps text that is not a ClickHouse error whole, with code 0', () => {
    expect(parseClickHouseErrorText('socket hang up')).toMatchObject({ code: 0, type: '', message: 'socket hang up' });
  });

  it("maps @clickhouse/client's ClickHouseError and chDB's errors alike; passes other errors through", () => {
    class ClickHouseError extends Error {
      constructor(
        message: string,
        readonly code: string,
        readonly type: string,
      ) {
        super(message);
      }
    }
    expect(toStoreError(new ClickHouseError('Syntax error: x. ', '62', 'SYNTAX_ERROR'))).toMatchObject({
      code: 62,
      type: 'SYNTAX_ERROR',
      message: 'Syntax error: x',
    });
    expect(toStoreError(new Error('Code: 62. DB::Exception: Syntax error: x. (SYNTAX_ERROR)'))).toMatchObject({
      code: 62,
      type: 'SYNTAX_ERROR',
      message: 'Syntax error: x',
    });
    const other = new Error('ECONNREFUSED');
    expect(toStoreError(other)).toBe(other);
    expect(toStoreError('text')).toEqual(new Error('text'));
  });
});
