#!/usr/bin/env bash
# `npm test`: every level of tests against real servers, as CI runs them.
#   unit → integration (real Postgres + Kafka + S3 + ClickHouse's engine over HTTP) beside e2e embedded (`npm start`
#   semantics) → e2e production mode (one process per service on Postgres + Kafka + S3), beside which, once the
#   embedded run ends, the chart on a real Kubernetes API server (kube-apiserver + etcd + controller-manager +
#   scheduler + kwok, built from the Go module proxy at low CPU priority while everything else runs).
# The servers are installed and started by scripts/infra/*.sh (cached under .cache/).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
results=.cache/test-results
mkdir -p "$results" && rm -f "$results"/*.json

stop_infra() {
  bash scripts/infra/kafka.sh stop >/dev/null 2>&1 || true
  bash scripts/infra/s3.sh stop >/dev/null 2>&1 || true
  bash scripts/infra/postgres.sh stop >/dev/null 2>&1 || true
  bash scripts/infra/clickhouse.sh stop >/dev/null 2>&1 || true
  bash scripts/infra/kube.sh stop >/dev/null 2>&1 || true
}
# On an early exit, every background job still running (`jobs -pr`: bash's own, so never a reused pid) is
# killed with its whole tree (npx, jest, the platforms, their browsers and encoders, the Go build), collected
# first and killed at once so no supervisor restarts a child. The infra start is not killed (it may be inside
# apt-get or dpkg, which a kill leaves broken until `dpkg --configure -a`): it is told to stop after its current
# step and waited for; then the servers stop.
infra_stop=.cache/infra-start.stop
rm -f "$infra_stop"
process_tree() { local child; for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do process_tree "$child"; done; echo "$1"; }
on_exit() {
  local pid trees=() infra_running=false
  for pid in $(jobs -pr); do
    if [ "$pid" = "$infra_pid" ]; then infra_running=true; else trees+=($(process_tree "$pid")); fi
  done
  if [ ${#trees[@]} -gt 0 ]; then kill -KILL "${trees[@]}" 2>/dev/null || true; fi
  if $infra_running; then
    echo "== waiting for the infra start to finish its current step" >&2
    touch "$infra_stop"
    wait "$infra_pid" 2>/dev/null || true
  fi
  rm -f "$infra_stop"
  stop_infra
}
infra_pid=
trap on_exit EXIT

# Each step a script of scripts/infra and its arguments; the chain stops at the first failure, or before the next
# step once an early exit asks it to.
infra_steps=('postgres.sh start' 'kafka.sh start' 's3.sh start' 'clickhouse.sh start' helm.sh kubeconform.sh k8s-schemas.sh
  k8s-crds.sh hadolint.sh skaffold-schema.sh ffmpeg.sh chromium.sh capture.sh speech.sh 'speech.sh voice' schemathesis.sh)
start_infra() {
  local step script args
  for step in "${infra_steps[@]}"; do
    if [ -e "$infra_stop" ]; then echo "infra start stopped before $step"; return 1; fi
    read -r script args <<< "$step"
    bash "scripts/infra/$script" $args || return 1
  done
}
echo "== starting Postgres, Kafka, S3 (S3Proxy) and ClickHouse (chDB over HTTP), fetching helm, ffmpeg, Chromium, the speech recognizer and Schemathesis (background) while building"
start_infra > .cache/infra-start.log 2>&1 &
infra_pid=$!
# The cluster's first build takes ~6 min of both cores: at nice 19 it only uses what the other steps leave
# idle (the e2e runs wait on media and timers most of the time), and is needed only at the end.
echo "== building the Kubernetes test cluster (background, low priority; log .cache/kube-build.log)"
(nice -n 19 bash scripts/infra/kube.sh build) > .cache/kube-build.log 2>&1 &
kube_pid=$!

echo "== build"
npm run build --silent
echo "== type-check of every file, tests included"
npx tsc -p scripts/tsconfig.typecheck.json
echo "== generated proto code is up to date"
bash scripts/proto.sh --check
echo "== lint (typescript-eslint, type-checked rules, zero warnings) and formatting (prettier)"
npx eslint . --max-warnings 0
npx prettier --check . > /dev/null || { npx prettier --list-different .; echo "prettier: run npm run format" >&2; exit 1; }

jest() { local name=$1; shift; npx jest "$@" --json --outputFile="$results/$name.json"; }

echo "== unit tests"
jest unit --selectProjects unit

if ! wait $infra_pid; then cat .cache/infra-start.log; exit 1; fi
TEST_DATABASE_URL=$(bash scripts/infra/postgres.sh url)
TEST_KAFKA_BROKERS=$(bash scripts/infra/kafka.sh brokers)
TEST_S3_ENDPOINT=$(bash scripts/infra/s3.sh endpoint)
TEST_S3_ACCESS_KEY=$(bash scripts/infra/s3.sh access-key)
TEST_S3_SECRET_KEY=$(bash scripts/infra/s3.sh secret-key)
# The ClickHouse server's URL without a database: each test file and each production-mode e2e
# platform appends a database of its own (/<name>, created by the store), so runs never collide.
TEST_CLICKHOUSE_URL=$(bash scripts/infra/clickhouse.sh url)
export TEST_DATABASE_URL TEST_KAFKA_BROKERS TEST_S3_ENDPOINT TEST_S3_ACCESS_KEY TEST_S3_SECRET_KEY TEST_CLICKHOUSE_URL

# The embedded e2e run needs no server (PGlite, the in-process bus, the filesystem, chDB), so it starts now,
# beside the integration tests, and the production-mode run starts beside it when they end: each boots
# platforms of its own (free ports from a range of its own, TEST_PORT_RANGE in libs/testing/src/free-port.ts,
# its own data directory; production mode a fresh database, bucket and Kafka namespace), and each spends most
# of its time waiting on media, encoders and the spec's timers, so together they take little more than the
# embedded run alone. Each run's output is printed whole: the embedded run's when it ends, the production run's
# when it and the cluster tests have ended.
echo "== e2e, embedded mode (background, log .cache/e2e-embedded.log), beside the integration tests"
E2E_MODE=embedded TEST_PORT_RANGE=20000-25999 jest e2e-embedded --selectProjects e2e --runInBand > .cache/e2e-embedded.log 2>&1 &
embedded_pid=$!

echo "== integration tests (Postgres $TEST_DATABASE_URL, Kafka $TEST_KAFKA_BROKERS, S3 $TEST_S3_ENDPOINT, ClickHouse $TEST_CLICKHOUSE_URL)"
TEST_PORT_RANGE=30000-31999 jest integration --selectProjects integration --runInBand

echo "== e2e, production mode (one process per service), beside the embedded run"
e2e_status=0
E2E_MODE=production TEST_PORT_RANGE=26000-29999 jest e2e-production --selectProjects e2e --runInBand > .cache/e2e-production.log 2>&1 &
production_pid=$!
wait $embedded_pid || e2e_status=$?
echo "== e2e, embedded mode (output)"
cat .cache/e2e-embedded.log

# The embedded run usually ends a few minutes before the production-mode one: the cluster tests (a minute or
# two, an API server and kwok, no media) run beside the production run's last files, off the critical path. A
# cluster that fails to build or start is a failed level, reported after the production run, not an exit that
# would throw that run away.
cluster_status=0
cluster_tests() {
  echo "== starting the Kubernetes test cluster"
  wait $kube_pid || { cat .cache/kube-build.log; return 1; }
  bash scripts/infra/kube.sh start || return 1
  TEST_KUBECONFIG=$(bash scripts/infra/kube.sh kubeconfig) || return 1
  export TEST_KUBECONFIG
  echo "== the chart on a real Kubernetes API server (helm install/upgrade/uninstall, RBAC; kwok fakes the kubelet), beside the production-mode e2e"
  TEST_PORT_RANGE=30000-31999 jest cluster --selectProjects cluster --runInBand # the integration tests' range, free by then
}
cluster_tests || cluster_status=$?

wait $production_pid || e2e_status=$?
echo "== e2e, production mode (output)"
cat .cache/e2e-production.log
# every failed level named before the exit
if [ "$cluster_status" != 0 ]; then echo "cluster tests failed (status $cluster_status)" >&2; fi
if [ "$e2e_status" != 0 ]; then echo "e2e failed (status $e2e_status)" >&2; exit "$e2e_status"; fi
if [ "$cluster_status" != 0 ]; then exit "$cluster_status"; fi

node scripts/test-summary.js "$results" "$(( $(date +%s) - started ))"
