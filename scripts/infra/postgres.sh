#!/usr/bin/env bash
# A real PostgreSQL server for the integration and production-mode tests.
#   postgres.sh start   install the server if missing (apt), create the cluster, start it, wait until ready
#   postgres.sh stop    stop it (fast shutdown)
#   postgres.sh url     print the connection URL of database `platform`
# The cluster lives in .cache/postgres/data (git-ignored), listens on 127.0.0.1:$PG_TEST_PORT
# (default 55432) only, with trust authentication, and is tuned for tests (no fsync): never
# put data you care about in it. Logs: .cache/postgres/log/postgres.log.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
port="${PG_TEST_PORT:-55432}"
database=platform
base="$repo/.cache/postgres"
data="$base/data"
logdir="$base/log"
logfile="$logdir/postgres.log"

say() { echo "postgres.sh: $*" >&2; }

pg_bindir() {
  local ctl
  ctl="$(ls -1 /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1 || true)"
  [ -n "$ctl" ] && dirname "$ctl"
}

ensure_binaries() {
  bin="$(pg_bindir || true)"
  if [ -z "$bin" ]; then
    say "PostgreSQL server not found; installing it with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    bin="$(pg_bindir || true)"
    [ -n "$bin" ] || { say "no /usr/lib/postgresql/*/bin/pg_ctl after installing postgresql"; exit 1; }
  fi
}

# The server refuses to run as root: as root, run its tools as the `postgres` OS user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The `postgres` user must be able to reach the data directory through every parent directory.
ensure_traversable() {
  [ "$(id -u)" = 0 ] || return 0
  id postgres >/dev/null 2>&1 || { say "no 'postgres' OS user (is the postgresql package installed?)"; exit 1; }
  runuser -u postgres -- test -x "$base" && return 0
  local dir="" part
  IFS=/ read -ra parts <<<"${base#/}"
  for part in "${parts[@]}"; do # from / downwards, so each test sees its parents already fixed
    dir="$dir/$part"
    if ! runuser -u postgres -- test -x "$dir"; then
      say "granting search (o+x) permission on $dir so the postgres user can reach its data"
      chmod o+x "$dir"
    fi
  done
}

is_running() { [ -f "$data/PG_VERSION" ] && as_owner "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; }
is_ready() { "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres; }
psql_admin() { "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"; }

init_cluster() {
  say "creating a cluster in $data"
  rm -rf "$data"
  mkdir -p "$data"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$data"; fi
  chmod 700 "$data"
  as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$logdir/initdb.log" 2>&1 \
    || { cat "$logdir/initdb.log" >&2; exit 1; }
  # Loopback TCP only (no Unix socket, so no path-length or permission issues); test tuning.
  cat >>"$data/postgresql.conf" <<'CONF'

# --- scripts/infra/postgres.sh (test server) ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
}

start() {
  ensure_binaries
  mkdir -p "$base" "$logdir"
  chmod 755 "$repo/.cache" "$base"
  ensure_traversable
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$base" "$logdir"; fi

  if is_running; then
    is_ready || wait_ready || { say "a server runs on $data but does not answer on port $port"; exit 1; }
  else
    if [ ! -f "$data/PG_VERSION" ]; then init_cluster; fi
    if is_ready; then say "port $port already answers, but not from $data: stop that server or set PG_TEST_PORT"; exit 1; fi
    as_owner "$bin/pg_ctl" start -D "$data" -l "$logfile" -w -t 60 -o "-p $port" >/dev/null \
      || { say "start failed; last log lines:"; tail -n 30 "$logfile" >&2; exit 1; }
    wait_ready || { say "not ready after 60 s"; tail -n 30 "$logfile" >&2; exit 1; }
  fi

  if [ "$(psql_admin -tA -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
    psql_admin -c "CREATE DATABASE $database"
  fi
  say "ready at $(url)"
}

wait_ready() {
  local i
  for i in $(seq 1 120); do is_ready && return 0; sleep 0.5; done
  return 1
}

stop() {
  bin="$(pg_bindir || true)"
  if [ -z "$bin" ] || ! is_running; then say "not running"; return 0; fi
  as_owner "$bin/pg_ctl" stop -D "$data" -m fast -w -t 60 >/dev/null
  say "stopped"
}

url() { echo "postgres://postgres@127.0.0.1:$port/$database"; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  *) echo "usage: $0 {start|stop|url}" >&2; exit 2 ;;
esac
