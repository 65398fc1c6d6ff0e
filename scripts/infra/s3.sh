#!/usr/bin/env bash
# A real S3-compatible server for the integration and production-mode tests: S3Proxy
# (org.gaul:s3proxy from Maven Central) on its filesystem blob store. It checks AWS signatures
# (V2 and V4), and supports multipart uploads, ranges and multi-object delete, which is what the
# `minio` client uses. (s3rver does neither signatures nor multipart; a MinIO built with
# `go install` works too but takes ~5.5 minutes to build on 2 cores, S3Proxy ~1 minute to fetch.)
#   s3.sh start        fetch the jars (first time), start, wait until a signed request succeeds;
#                      prints the endpoint. Does nothing if it already runs (or the port answers
#                      signed requests with these credentials).
#   s3.sh stop         stop it
#   s3.sh endpoint     print the endpoint URL
#   s3.sh access-key   print the access key
#   s3.sh secret-key   print the secret key
# Everything lives in .cache/s3 (git-ignored): libs/ (jars), data/ (buckets), log/.
# Listens on 127.0.0.1:$S3_TEST_PORT (default 59000) only; fixed test credentials (not secrets).
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${S3PROXY_VERSION:-4.1.0}"
port="${S3_TEST_PORT:-59000}"
access_key="${S3_TEST_ACCESS_KEY:-platform-test}"
secret_key="${S3_TEST_SECRET_KEY:-platform-test-secret}"
base="$repo/.cache/s3"
libs="$base/libs"
data="$base/data"
logdir="$base/log"
pidfile="$base/s3proxy.pid"

say() { echo "s3.sh: $*" >&2; }
# shellcheck source=pidfile-server.sh
source "$(dirname "${BASH_SOURCE[0]}")/pidfile-server.sh"
endpoint() { echo "http://127.0.0.1:$port"; }

ensure_tools() {
  if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
    say "installing Java 17 and Maven with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq openjdk-17-jre-headless maven >&2
  fi
}

# S3Proxy and its runtime dependencies, resolved by Maven from a generated pom.
ensure_libs() {
  if [ -f "$libs/.complete-$version" ]; then return 0; fi
  say "fetching S3Proxy $version jars from Maven Central (first time only)"
  local work="$base/maven"
  rm -rf "$work" "$libs"
  mkdir -p "$work" "$logdir"
  # Maven's nearest-wins picks jackson-annotations 2.18 (via jackson-databind 2.x), but S3Proxy's
  # jackson-databind 3.x needs 2.22 (NoClassDefFoundError JsonSerializeAs at startup): pin it.
  cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.video-platform</groupId>
  <artifactId>s3-test-server</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencyManagement>
    <dependencies>
      <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-annotations</artifactId><version>2.22</version></dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency><groupId>org.gaul</groupId><artifactId>s3proxy</artifactId><version>$version</version></dependency>
  </dependencies>
</project>
POM
  (cd "$work" && mvn -B -Dstyle.color=never dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$work/libs") \
    >"$logdir/maven.log" 2>&1 || { tail -n 40 "$logdir/maven.log" >&2; exit 1; }
  mv "$work/libs" "$libs"
  rm -rf "$work"
  touch "$libs/.complete-$version"
}

write_config() {
  mkdir -p "$data" "$logdir"
  cat >"$base/s3proxy.properties" <<PROPS
s3proxy.endpoint=$(endpoint)
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$access_key
s3proxy.credential=$secret_key
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$data
PROPS
  # Warnings only (S3Proxy logs every request at DEBUG by default).
  cat >"$base/logback.xml" <<LOGBACK
<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>$logdir/server.log</file>
    <encoder><pattern>%d %-5level %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="WARN"><appender-ref ref="FILE"/></root>
</configuration>
LOGBACK
}

running_pid() { pidfile_running_pid 'org\.gaul\.s3proxy\.Main'; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# Ready means a request signed with our credentials succeeds, not merely that the port accepts connections.
answers() {
  if command -v node >/dev/null 2>&1 && (cd "$repo" && node -e "require.resolve('minio')" 2>/dev/null); then
    (cd "$repo" && PORT="$port" AK="$access_key" SK="$secret_key" node -e "
      const { Client } = require('minio');
      const c = new Client({ endPoint: '127.0.0.1', port: +process.env.PORT, useSSL: false, accessKey: process.env.AK, secretKey: process.env.SK, region: 'us-east-1' });
      c.listBuckets().then(() => process.exit(0), () => process.exit(1));
      setTimeout(() => process.exit(1), 5000).unref();
    ")
  else
    # Without node_modules: an anonymous request gets S3's XML error document.
    (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && timeout 5 cat <&3 | grep -q '<Error>') 2>/dev/null
  fi
}

wait_ready() {
  local pid=$1 deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "$pid" 2>/dev/null || { say "the server exited; last log lines:"; tail -n 40 "$logdir/stdout.log" "$logdir/server.log" >&2 2>/dev/null; return 1; }
    if port_open && answers; then return 0; fi
    sleep 0.25
  done
  say "not ready after 60 s; last log lines:"
  tail -n 40 "$logdir/stdout.log" "$logdir/server.log" >&2 2>/dev/null
  return 1
}

start() {
  local pid
  if pid="$(running_pid)"; then
    wait_ready "$pid"
    say "ready at $(endpoint) (already running, pid $pid)"
    endpoint
    return 0
  fi
  if port_open; then
    if answers; then say "ready at $(endpoint) (a server not started by this script answers there)"; endpoint; return 0; fi
    say "port $port is taken by another process: stop it or set S3_TEST_PORT"
    exit 1
  fi
  ensure_tools
  ensure_libs
  write_config
  : >"$logdir/server.log"
  # setsid: the server outlives this script and is not killed with the caller's process group.
  # The shell records its own pid and then becomes the JVM (exec), so the pid file is the JVM's.
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" \
    java -Xms64m -Xmx512m -XX:+UseSerialGC -Djava.awt.headless=true "-Dlogback.configurationFile=$base/logback.xml" \
    -cp "$libs/*" org.gaul.s3proxy.Main --properties "$base/s3proxy.properties" >"$logdir/stdout.log" 2>&1 </dev/null &
  local i
  for i in $(seq 1 50); do [ -s "$pidfile" ] && break; sleep 0.1; done
  pid="$(cat "$pidfile" 2>/dev/null)" || { say "the server did not start"; cat "$logdir/stdout.log" >&2; exit 1; }
  wait_ready "$pid" || exit 1
  say "ready at $(endpoint) (pid $pid)"
  endpoint
}

stop() { pidfile_stop 15; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  endpoint) endpoint ;;
  access-key) echo "$access_key" ;;
  secret-key) echo "$secret_key" ;;
  *) echo "usage: $0 {start|stop|endpoint|access-key|secret-key}" >&2; exit 2 ;;
esac
