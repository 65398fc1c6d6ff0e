#!/usr/bin/env node
// A ClickHouse HTTP interface over chDB (ClickHouse's engine compiled as a library), for the
// integration and production-mode tests: no clickhouse-server binary is reachable from the package
// registries this project may use (see scripts/infra/clickhouse.sh). It is the real engine (SQL,
// MergeTree, parameter binding, error codes and messages) behind a front that speaks the subset of
// the HTTP interface @clickhouse/client 1.23 uses:
//   GET /ping → "Ok."; GET|POST /?query=… with the body appended (as ClickHouse does), `database`,
//   `default_format`, `query_id`, `param_<name>` (passed to the engine verbatim, bound by it),
//   settings as URL parameters; X-ClickHouse-* response headers (Query-Id, Format, Timezone,
//   Summary); errors as status 500 + X-ClickHouse-Exception-Code + "Code: N. DB::Exception: …".
// Not served: sessions, the native TCP protocol, compression, authentication (any user is accepted).
// Statements run one at a time: the engine connection's current database and settings are state.
//   node scripts/infra/chdb-http-server.js --port 58123 --path .cache/clickhouse/data
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const zlib = require('node:zlib');
const { Session } = require('chdb');
// The addon itself: chDB's JS API formats parameter values from JS values, while HTTP clients send
// them already in ClickHouse's text form, which must reach the engine untouched.
const native = require(path.join(path.dirname(require.resolve('chdb')), 'dist', 'loader.js')).loadNative();

const HTTP_ONLY = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'add_http_cors_header',
  'http_wait_end_of_query',
  'cancel_http_readonly_queries_on_client_close',
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CONTENT_TYPES = {
  JSONEachRow: 'application/x-ndjson; charset=UTF-8',
  JSON: 'application/json; charset=UTF-8',
  JSONCompact: 'application/json; charset=UTF-8',
};

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const port = Number(arg('port', '58123'));
const dataPath = path.resolve(arg('path', '.cache/clickhouse/data'));
fs.mkdirSync(dataPath, { recursive: true });
const session = new Session(dataPath);
const version = native.Query ? session.query('SELECT version()', 'TSV').trim() : 'unknown';

let queue = Promise.resolve();
/** Runs statements one after another (the connection's database and settings are shared state). */
function serialized(task) {
  const run = queue.then(task, task);
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

async function engine(sql, format, params) {
  const result = await native.QueryAsyncConnection(session.connection, sql, format, params);
  return Buffer.isBuffer(result.bytes) ? result : { ...result, bytes: Buffer.from(result.bytes ?? '') };
}

const stringLiteral = (value) => `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

let currentDatabase = 'default';
/** One request's statement: its database and settings, then the statement, then the settings reset. */
async function execute({ sql, database, format, params, settings }) {
  if (database !== currentDatabase) {
    await engine(`USE \`${database}\``, 'TSV', {});
    currentDatabase = database;
  }
  for (const [name, value] of settings) await engine(`SET ${name} = ${stringLiteral(value)}`, 'TSV', {});
  try {
    return await engine(sql, format, params);
  } finally {
    for (const [name] of settings) await engine(`SET ${name} = DEFAULT`, 'TSV', {}).catch(() => undefined);
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const source = /gzip|deflate/.test(req.headers['content-encoding'] ?? '') ? req.pipe(zlib.createUnzip()) : req;
    source.on('data', (c) => chunks.push(c));
    source.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    source.on('error', reject);
  });
}

/** ClickHouse's error text and code from whatever the engine (or this front) threw. */
function errorOf(err) {
  const message = String(err && err.message ? err.message : err);
  const match = /Code: (\d+)\./.exec(message);
  if (match) return { code: Number(match[1]), text: `${message.trim()} (version ${version} (chDB))\n` };
  return { code: 36, text: `Code: 36. DB::Exception: ${message.trim()}. (BAD_ARGUMENTS) (version ${version} (chDB))\n` };
}

function parseRequest(url, headers, body) {
  const q = url.searchParams;
  const sql = [q.get('query') ?? '', body].filter((part) => part.trim() !== '').join('\n');
  if (!sql) throw new Error('Empty query. (SYNTAX_ERROR)');
  const database = q.get('database') ?? headers['x-clickhouse-database'] ?? 'default';
  if (!IDENTIFIER.test(database)) throw new Error(`Invalid database name ${database}`);
  const format = q.get('default_format') ?? headers['x-clickhouse-format'] ?? 'TabSeparated';
  if (!IDENTIFIER.test(format)) throw new Error(`Unknown format ${format}`);
  const params = {};
  const settings = [];
  for (const [name, value] of q) {
    if (name.startsWith('param_')) params[name.slice('param_'.length)] = value;
    else if (!HTTP_ONLY.has(name)) {
      if (!IDENTIFIER.test(name)) throw new Error(`Unknown setting ${name}`);
      settings.push([name, value]);
    }
  }
  return { sql, database, format, params, settings, queryId: q.get('query_id') || randomUUID() };
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/ping' || (url.pathname === '/' && req.method === 'HEAD')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end('Ok.\n');
    return;
  }
  if (url.pathname !== '/' || (req.method !== 'GET' && req.method !== 'POST')) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' }).end(`There is no handle ${url.pathname}\n`);
    return;
  }
  const started = process.hrtime.bigint();
  let request;
  try {
    request = parseRequest(url, req.headers, await readBody(req));
    const result = await serialized(() => execute(request));
    const summary = {
      read_rows: String(result.rowsRead ?? 0),
      read_bytes: String(result.bytesRead ?? 0),
      written_rows: String(result.rowsWritten ?? 0),
      written_bytes: String(result.bytesWritten ?? 0),
      total_rows_to_read: '0',
      result_rows: '0',
      result_bytes: String(result.bytes.length),
      elapsed_ns: String(process.hrtime.bigint() - started),
    };
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[request.format] ?? 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': request.queryId,
      'X-ClickHouse-Format': request.format,
      'X-ClickHouse-Timezone': 'UTC',
      'X-ClickHouse-Server-Display-Name': 'chdb-http-server',
      'X-ClickHouse-Summary': JSON.stringify(summary),
    });
    res.end(result.bytes);
  } catch (err) {
    const { code, text } = errorOf(err);
    res.writeHead(500, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Exception-Code': String(code),
      ...(request ? { 'X-ClickHouse-Query-Id': request.queryId } : {}),
    });
    res.end(text);
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(String(err));
  });
});
server.keepAliveTimeout = 10_000;
server.listen(port, '127.0.0.1', () => console.log(`chdb-http-server: ClickHouse ${version} (chDB) on http://127.0.0.1:${port}, data in ${dataPath}`));

function shutdown() {
  server.close();
  server.closeAllConnections();
  void queue.then(() => {
    session.close();
    process.exit(0);
  });
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
