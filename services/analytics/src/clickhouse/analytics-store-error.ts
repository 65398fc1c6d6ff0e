/**
 * A statement the store refused, with ClickHouse's own code, type and message, the same from both
 * adapters: chDB reports `Code: 62. DB::Exception: <message>. (SYNTAX_ERROR)` as an error
 * message, @clickhouse/client as a ClickHouseError already split into those parts.
 */
export class AnalyticsStoreError extends Error {
  override readonly name = 'AnalyticsStoreError';
  constructor(
    message: string,
    /** ClickHouse's error code (62 syntax error, 60 unknown table, …); 0 when it gave none. */
    readonly code: number,
    /** ClickHouse's error name, e.g. `SYNTAX_ERROR`, `UNKNOWN_TABLE`; '' when it gave none. */
    readonly type: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// The parse @clickhouse/client 1.23 applies to the server's error text (common/error/error.js):
// the innermost exception, its message up to the first `(TYPE)` marker.
const errorText = /(?:Code|Error): (?<code>\d+).*Exception: (?<message>.+?)\((?<type>(?=[A-Z0-9_]*[A-Z]{3})[A-Z0-9_]+)\)/s;

/** ClickHouse's error text (`Code: N. DB::Exception: … (TYPE)`) as an AnalyticsStoreError. */
export function parseClickHouseErrorText(text: string, cause?: unknown): AnalyticsStoreError {
  const groups = errorText.exec(text)?.groups;
  if (!groups) return new AnalyticsStoreError(text.trim(), 0, '', { cause });
  return new AnalyticsStoreError(tidy(groups.message), Number(groups.code), groups.type, { cause });
}

/** An error from either client library as an AnalyticsStoreError (other errors pass through). */
export function toStoreError(err: unknown): Error {
  if (err instanceof AnalyticsStoreError) return err;
  if (isClickHouseClientError(err)) return new AnalyticsStoreError(tidy(err.message), Number(err.code), err.type ?? '', { cause: err });
  if (err instanceof Error && /(?:Code|Error): \d+/.test(err.message)) return parseClickHouseErrorText(err.message, err);
  return err instanceof Error ? err : new Error(String(err));
}

function isClickHouseClientError(err: unknown): err is Error & { code: string; type?: string } {
  return err instanceof Error && err.constructor.name === 'ClickHouseError' && typeof (err as { code?: unknown }).code === 'string';
}

/** Both sources end the message with `. ` before the type marker; one form for both. */
function tidy(message: string): string {
  return message.trim().replace(/\.$/, '');
}
