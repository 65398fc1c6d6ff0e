#!/usr/bin/env bash
# A real single-node Apache Kafka (KRaft, no ZooKeeper) for the integration and production-mode tests.
#   kafka.sh start     fetch the jars from Maven Central (first time), format storage, start, wait until it answers
#   kafka.sh stop      stop it (controlled shutdown, SIGKILL after 30 s)
#   kafka.sh brokers   print the bootstrap address
# Everything lives in .cache/kafka (git-ignored): libs/ (jars), data/ (log.dirs), log/ (server logs).
# Ports: PLAINTEXT 127.0.0.1:$KAFKA_TEST_PORT (default 59092), CONTROLLER $KAFKA_TEST_CONTROLLER_PORT (59093).
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${KAFKA_VERSION:-3.9.1}"
port="${KAFKA_TEST_PORT:-59092}"
controller_port="${KAFKA_TEST_CONTROLLER_PORT:-59093}"
base="$repo/.cache/kafka"
libs="$base/libs"
data="$base/data"
logdir="$base/log"
pidfile="$base/kafka.pid"

say() { echo "kafka.sh: $*" >&2; }
# shellcheck source=pidfile-server.sh
source "$(dirname "${BASH_SOURCE[0]}")/pidfile-server.sh"

ensure_tools() {
  if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
    say "installing Java 17 and Maven with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openjdk-17-jre-headless maven >&2
  fi
}

# The broker and its runtime dependencies, resolved by Maven from a generated pom.
ensure_libs() {
  if [ -f "$libs/.complete-$version" ]; then return 0; fi
  say "fetching Kafka $version jars from Maven Central (first time only)"
  local work="$base/maven"
  rm -rf "$work" "$libs"
  mkdir -p "$work"
  cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.video-platform</groupId>
  <artifactId>kafka-test-server</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
POM
  mkdir -p "$logdir"
  (cd "$work" && mvn -B -Dstyle.color=never dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$work/libs") \
    >"$logdir/maven.log" 2>&1 || { tail -n 40 "$logdir/maven.log" >&2; exit 1; }
  mv "$work/libs" "$libs"
  rm -rf "$work"
  touch "$libs/.complete-$version"
}

write_config() {
  mkdir -p "$data" "$logdir"
  cat >"$base/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$data
num.partitions=3
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
PROPS
  # Warnings only, into a file; the one INFO line kept is the broker's "started" message.
  cat >"$base/log4j.properties" <<LOG4J
log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$logdir/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
LOG4J
}

jvm=(java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
  "-Dlog4j.configuration=file:$base/log4j.properties" -cp "$libs/*")

format_storage() {
  if [ -f "$data/meta.properties" ]; then return 0; fi
  # A cluster id is 16 random bytes in unpadded URL-safe base64. Passed as `--cluster-id=…`: one
  # that starts with `-` (1 in 32) would otherwise be read as an option.
  local cluster_id
  cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
  say "formatting storage (cluster id $cluster_id)"
  "${jvm[@]}" kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$base/server.properties" >"$logdir/format.log" 2>&1 \
    || { cat "$logdir/format.log" >&2; exit 1; }
}

running_pid() { pidfile_running_pid 'kafka\.Kafka'; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# Ready means a client gets metadata from the broker, not merely that the port accepts connections.
broker_answers() {
  if command -v node >/dev/null 2>&1 && (cd "$repo" && node -e "require.resolve('kafkajs')" 2>/dev/null); then
    (cd "$repo" && BROKER="127.0.0.1:$port" node -e "
      const { Kafka, logLevel } = require('kafkajs');
      const admin = new Kafka({ brokers: [process.env.BROKER], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
      admin.connect().then(() => admin.listTopics()).then(() => admin.disconnect()).then(() => process.exit(0), () => process.exit(1));
      setTimeout(() => process.exit(1), 5000).unref();
    ")
  else
    # Without node_modules: the port plus the broker's own "started" log line.
    port_open && grep -q 'Kafka Server started' "$logdir/server.log" 2>/dev/null
  fi
}

wait_ready() {
  local pid=$1 deadline=$((SECONDS + 90))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "$pid" 2>/dev/null || { say "the broker exited; last log lines:"; tail -n 40 "$logdir/server.log" "$logdir/stdout.log" >&2 2>/dev/null; return 1; }
    if port_open && broker_answers; then return 0; fi
    sleep 0.5
  done
  say "not ready after 90 s; last log lines:"
  tail -n 40 "$logdir/server.log" >&2 2>/dev/null
  return 1
}

start() {
  local pid
  if pid="$(running_pid)"; then
    wait_ready "$pid"
    say "ready at $(brokers) (already running, pid $pid)"
    return 0
  fi
  if port_open; then say "port $port is taken by another process: stop it or set KAFKA_TEST_PORT"; exit 1; fi
  ensure_tools
  ensure_libs
  write_config
  format_storage
  : >"$logdir/server.log"
  # setsid: the broker outlives this script and is not killed with the caller's process group.
  setsid "${jvm[@]}" kafka.Kafka "$base/server.properties" >"$logdir/stdout.log" 2>&1 </dev/null &
  pid=$!
  # setsid forks when started as a process-group leader (job control on): then find the JVM itself.
  sleep 0.2
  if ! grep -q 'kafka\.Kafka' "/proc/$pid/cmdline" 2>/dev/null; then
    pid="$(pgrep -n -f -- "kafka.Kafka $base/server.properties")" || { say "the broker did not start"; cat "$logdir/stdout.log" >&2; exit 1; }
  fi
  echo "$pid" >"$pidfile"
  wait_ready "$pid" || exit 1
  say "ready at $(brokers) (pid $pid)"
}

stop() { pidfile_stop 30; }

brokers() { echo "127.0.0.1:$port"; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  brokers) brokers ;;
  *) echo "usage: $0 {start|stop|brokers}" >&2; exit 2 ;;
esac
