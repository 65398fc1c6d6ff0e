# Shared by the test-server scripts (kafka.sh, s3.sh, clickhouse.sh), sourced after they set
# `pidfile` and define `say`: a server known by the pid in $pidfile, checked against its command line.

# Prints the server's pid when $pidfile names a live process whose command line matches $1 (an ERE).
pidfile_running_pid() {
  local pid
  [ -f "$pidfile" ] || return 1
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null && grep -qE -- "$1" "/proc/$pid/cmdline" 2>/dev/null; then echo "$pid"; else return 1; fi
}

# SIGTERM, then up to $1 seconds for a clean exit, then SIGKILL; the pid file goes either way.
# Uses the script's own `running_pid`.
pidfile_stop() {
  local grace=$1 pid i
  if ! pid="$(running_pid)"; then say "not running"; rm -f "$pidfile"; return 0; fi
  kill -TERM "$pid"
  for i in $(seq 1 $((grace * 4))); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; say "stopped"; return 0; }
    sleep 0.25
  done
  say "still running after $grace s; killing pid $pid"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}
