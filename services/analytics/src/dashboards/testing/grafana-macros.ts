/**
 * What Grafana does to a `grafana-clickhouse-datasource` panel's SQL before ClickHouse sees it:
 * the frontend interpolates template variables, then the plugin's backend expands its `$__`
 * macros (grafana/clickhouse-datasource, pkg/macros/macros.go). Used by the dashboard tests to run
 * every panel's query; an unknown macro or variable is an error, so a typo cannot pass.
 */
export interface GrafanaQueryContext {
  readonly from: Date;
  readonly to: Date;
  /** The panel's `$__interval` in seconds (the plugin never goes below 1). */
  readonly intervalSeconds: number;
  /** Template variables by name, already resolved to the text Grafana puts in the query. */
  readonly variables?: Readonly<Record<string, string>>;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const dateTime = (d: Date) => `toDateTime(${seconds(d)})`;
const dateTime64 = (d: Date) => `fromUnixTimestamp64Milli(${d.getTime()})`;
const date = (d: Date) => `toDate('${d.toISOString().slice(0, 10)}')`;

type Macro = (args: string[], ctx: GrafanaQueryContext) => string;

const range =
  (format: (d: Date) => string): Macro =>
  ([column], ctx) =>
    `${column} >= ${format(ctx.from)} AND ${column} <= ${format(ctx.to)}`;

const MACROS: Readonly<Record<string, { args: number; expand: Macro }>> = {
  fromTime: { args: 0, expand: (_, ctx) => dateTime(ctx.from) },
  toTime: { args: 0, expand: (_, ctx) => dateTime(ctx.to) },
  fromTime_ms: { args: 0, expand: (_, ctx) => dateTime64(ctx.from) },
  toTime_ms: { args: 0, expand: (_, ctx) => dateTime64(ctx.to) },
  timeFilter: { args: 1, expand: range(dateTime) },
  timeFilter_ms: { args: 1, expand: range(dateTime64) },
  dateFilter: { args: 1, expand: range(date) },
  timeInterval: {
    args: 1,
    expand: ([column], ctx) => `toStartOfInterval(toDateTime(${column}), INTERVAL ${Math.max(Math.floor(ctx.intervalSeconds), 1)} second)`,
  },
  interval_s: { args: 0, expand: (_, ctx) => String(Math.max(Math.floor(ctx.intervalSeconds), 1)) },
};

/** Grafana's `$name` and `${name}` forms (a `$__` name is a macro or a Grafana global, not a variable). */
const VARIABLE = /\$\{(\w+)\}|\$(?!__)(\w+)/g;

export function interpolateVariables(sql: string, variables: Readonly<Record<string, string>> = {}): string {
  return sql.replace(VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    if (!(name in variables)) throw new Error(`unknown template variable $${name}`);
    return variables[name];
  });
}

/** Splits `a, f(b, c)` at its top-level commas. */
function splitArgs(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  return args.length === 0 && last === '' ? [] : [...args, last];
}

export function expandMacros(sql: string, ctx: GrafanaQueryContext): string {
  let out = '';
  let i = 0;
  for (let at = sql.indexOf('$__', i); at !== -1; at = sql.indexOf('$__', i)) {
    const name = /^\$__(\w+)/.exec(sql.slice(at))![1];
    const macro = MACROS[name];
    if (!macro) throw new Error(`unsupported macro $__${name}`);
    let end = at + 3 + name.length;
    let args: string[] = [];
    if (sql[end] === '(') {
      let depth = 0;
      let close = end;
      for (; close < sql.length; close++) {
        if (sql[close] === '(') depth++;
        else if (sql[close] === ')' && --depth === 0) break;
      }
      if (close === sql.length) throw new Error(`unclosed $__${name}(`);
      args = splitArgs(sql.slice(end + 1, close));
      end = close + 1;
    }
    if (args.length !== macro.args) throw new Error(`$__${name} takes ${macro.args} argument(s), got ${args.length}`);
    out += sql.slice(i, at) + macro.expand(args, ctx);
    i = end;
  }
  return out + sql.slice(i);
}

/** Variables first, then macros: the order Grafana and the plugin apply them. */
export function expandGrafanaSql(sql: string, ctx: GrafanaQueryContext): string {
  return expandMacros(interpolateVariables(sql, ctx.variables), ctx);
}
