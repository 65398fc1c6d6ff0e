#!/usr/bin/env bash
# A ClickHouse HTTP server for the integration and production-mode tests.
#   clickhouse.sh start   start it (if not running), wait until it answers /ping; prints the URL
#   clickhouse.sh stop    stop it
#   clickhouse.sh url     print the server URL (append /<database> for CLICKHOUSE_URL)
# No clickhouse-server binary can be had from the registries this project reaches (Debian's is
# 18.16, from 2018, without query parameters; none ships in npm, PyPI or Maven Central: see
# docs/environment.md), so this runs scripts/infra/chdb-http-server.js: ClickHouse's engine as a
# library (chDB, the `chdb` npm package already in node_modules) behind the subset of ClickHouse's
# HTTP interface that @clickhouse/client uses. Nothing to download; starts in about a second.
# Data lives in .cache/clickhouse/data (git-ignored), log in .cache/clickhouse/server.log.
# Listens on 127.0.0.1:$CLICKHOUSE_TEST_PORT (default 58123) only, with no authentication.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
port="${CLICKHOUSE_TEST_PORT:-58123}"
base="$repo/.cache/clickhouse"
data="$base/data"
logfile="$base/server.log"
pidfile="$base/server.pid"

say() { echo "clickhouse.sh: $*" >&2; }
# shellcheck source=pidfile-server.sh
source "$(dirname "${BASH_SOURCE[0]}")/pidfile-server.sh"
url() { echo "http://127.0.0.1:$port"; }

running_pid() { pidfile_running_pid 'chdb-http-server'; }

answers() { [ "$(curl -sf --max-time 2 "$(url)/ping" 2>/dev/null)" = "Ok." ]; }

wait_ready() {
  local pid=$1 deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "$pid" 2>/dev/null || { say "the server exited; last log lines:"; tail -n 30 "$logfile" >&2; return 1; }
    answers && return 0
    sleep 0.2
  done
  say "not ready after 60 s; last log lines:"
  tail -n 30 "$logfile" >&2
  return 1
}

start() {
  local pid i
  mkdir -p "$data"
  if pid="$(running_pid)"; then
    wait_ready "$pid"
    say "ready at $(url) (already running, pid $pid)"
    url
    return 0
  fi
  if answers; then say "ready at $(url) (a server not started by this script answers there)"; url; return 0; fi
  [ -d "$repo/node_modules/chdb" ] || { say "node_modules/chdb is missing: run npm ci first"; exit 1; }
  rm -f "$pidfile"
  # setsid: the server outlives this script and is not killed with the caller's process group.
  # TZ=UTC: the server's time zone, as a ClickHouse server in a container has it.
  # The shell records its own pid and then becomes node (exec), so the pid file is the server's.
  (cd "$repo" && TZ=UTC setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" \
    node scripts/infra/chdb-http-server.js --port "$port" --path "$data" >"$logfile" 2>&1 </dev/null &)
  for i in $(seq 1 50); do [ -s "$pidfile" ] && break; sleep 0.1; done
  pid="$(cat "$pidfile")"
  wait_ready "$pid" || exit 1
  say "ready at $(url) (pid $pid)"
  url
}

stop() { pidfile_stop 15; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  *) echo "usage: $0 {start|stop|url}" >&2; exit 2 ;;
esac
