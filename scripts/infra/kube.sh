#!/usr/bin/env bash
# A real Kubernetes control plane on 127.0.0.1 for the chart and launcher tests:
# etcd + kube-apiserver + kube-controller-manager + kube-scheduler from the Go module proxy, and kwok
# faking one node's kubelet (Pods are scheduled, get IPs and turn Running/Ready; no container runs).
#   kube.sh build        build the five binaries into .cache/kube/bin (first time ~7 min on 2 cores; the
#                        Go build cache in ~/.cache/go-build makes later builds on the machine quick)
#   kube.sh start        build if needed, make the PKI, start everything, wait for the node to be Ready
#   kube.sh stop         stop every process (pid files), keep the binaries
#   kube.sh kubeconfig   print the admin kubeconfig path
# Versions: Kubernetes v1.36.3, etcd v3.6.8, kwok v0.8.0 (scripts/infra/kube/go.mod).
# Ports: etcd 32379/32380, API server $KUBE_TEST_PORT (default 32443), controller-manager 32257,
# scheduler 32259: below Linux's ephemeral range (32768–60999), so the many outgoing connections of the e2e run
# beside which the cluster starts cannot hold them, and above the tests' free ports (20000–32000).
# Logs: .cache/kube/run/*.log. See ../shared/research/kubernetes.md and docs/deploy.md.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=go-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh"
module="$repo/scripts/infra/kube"
base="$repo/.cache/kube"
bin="$base/bin"
run="$base/run"
port="${KUBE_TEST_PORT:-32443}"
version=v1.36.3
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

say() { echo "kube.sh: $*" >&2; }

built() {
  local b
  for b in "${binaries[@]}"; do [ -x "$bin/$b" ] || return 1; done
  [ "$(cat "$bin/.version" 2>/dev/null)" = "$(sha256sum "$module/go.sum" | cut -d' ' -f1)" ]
}

build() {
  mkdir -p "$bin"
  exec 8>"$bin/.build.lock"
  flock 8
  built && return 0
  require_go "kube.sh: go is not installed (needed to build the cluster from the Go module proxy)"
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
  local minor="${version#v1.}"
  minor="${minor%%.*}"
  local ldflags="-s -w"
  ldflags+=" -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1"
  ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=$version -X k8s.io/client-go/pkg/version.gitMajor=1"
  ldflags+=" -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  local started=$SECONDS
  say "building the cluster (Kubernetes $version) from the Go module proxy; the first build takes minutes"
  (
    cd "$module"
    go build -trimpath -ldflags "-s -w" -o "$bin/etcd" go.etcd.io/etcd/server/v3
    go build -trimpath -ldflags "$ldflags" -o "$bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
    go build -trimpath -ldflags "$ldflags" -o "$bin/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager
    go build -trimpath -ldflags "$ldflags" -o "$bin/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler
    go build -trimpath -ldflags "-s -w" -o "$bin/kwok" sigs.k8s.io/kwok/cmd/kwok
  ) >&2
  sha256sum "$module/go.sum" | cut -d' ' -f1 >"$bin/.version"
  say "built in $((SECONDS - started)) s"
}

b64() { base64 -w0 <"$1"; }

# Whether the test PKI's files are all there.
pki_made() { local f; for f in ca.crt apiserver.crt apiserver.key admin.crt admin.key sa.key sa.pub; do [ -s "$run/pki/$f" ] || return 1; done; }

# A CA, the API server's serving certificate, an admin client certificate (group system:masters) and
# the service-account signing key pair, made once; an admin kubeconfig embedding them, written at each start
# (it names the API server's port, which KUBE_TEST_PORT may change).
make_pki() {
  local pki="$run/pki"
  pki_made && { write_kubeconfig; return 0; }
  rm -rf "$pki" && mkdir -p "$pki"
  (
    cd "$pki"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 -subj "/CN=video-platform-test-ca"
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver"
    printf 'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n' >apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out apiserver.crt -days 3650 -extfile apiserver.ext
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=admin"
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 3650
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
  ) >"$run/pki.log" 2>&1 || { cat "$run/pki.log" >&2; exit 1; }
  # and by its files: errexit does not reach into a subshell whose status is tested, so a step failing before
  # the last one's success would go unnoticed
  pki_made || { cat "$run/pki.log" >&2; say "could not make the test PKI"; exit 1; }
  write_kubeconfig
}

write_kubeconfig() {
  local pki="$run/pki"
  touch "$run/admin.kubeconfig" && chmod 600 "$run/admin.kubeconfig"
  cat >"$run/admin.kubeconfig" <<CONF
apiVersion: v1
kind: Config
clusters:
  - name: test
    cluster:
      server: https://127.0.0.1:$port
      certificate-authority-data: $(b64 "$pki/ca.crt")
users:
  - name: admin
    user:
      client-certificate-data: $(b64 "$pki/admin.crt")
      client-key-data: $(b64 "$pki/admin.key")
contexts:
  - name: test
    context: { cluster: test, user: admin }
current-context: test
CONF
}

api() {
  local pki="$run/pki"
  curl -sS --fail --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" "$@"
}

running_pid() {
  local pid
  [ -f "$run/$1.pid" ] || return 1
  pid="$(cat "$run/$1.pid")"
  if kill -0 "$pid" 2>/dev/null && grep -q "$bin/$1" "/proc/$pid/cmdline" 2>/dev/null; then echo "$pid"; else return 1; fi
}

launch() {
  local name=$1
  shift
  if running_pid "$name" >/dev/null; then return 0; fi
  nohup "$bin/$name" "$@" >"$run/$name.log" 2>&1 &
  echo $! >"$run/$name.pid"
}

# Polls `$2...` every 0.5 s for up to $1 seconds.
wait_for() {
  local seconds=$1 i
  shift
  for i in $(seq 1 $((seconds * 2))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  return 1
}

node_ready() {
  api "https://127.0.0.1:$port/api/v1/nodes/kwok-node-0" | tr -d ' \n' | grep -q '"type":"Ready","status":"True"'
}

start() {
  built || build
  mkdir -p "$run"
  make_pki
  local pki="$run/pki" kubeconfig="$run/admin.kubeconfig"
  launch etcd --name=test --data-dir="$run/etcd" --listen-client-urls=http://127.0.0.1:32379 \
    --advertise-client-urls=http://127.0.0.1:32379 --listen-peer-urls=http://127.0.0.1:32380 \
    --initial-advertise-peer-urls=http://127.0.0.1:32380 --initial-cluster=test=http://127.0.0.1:32380 \
    --unsafe-no-fsync=true --quota-backend-bytes=1073741824
  launch kube-apiserver --etcd-servers=http://127.0.0.1:32379 --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
    --secure-port="$port" --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --client-ca-file="$pki/ca.crt" --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 --authorization-mode=Node,RBAC --endpoint-reconciler-type=none
  wait_for 120 api "https://127.0.0.1:$port/readyz" || { tail -n 30 "$run/kube-apiserver.log" >&2; say "the API server is not ready"; exit 1; }
  launch kube-controller-manager --kubeconfig="$kubeconfig" --leader-elect=false --bind-address=127.0.0.1 \
    --secure-port=32257 --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --use-service-account-credentials=true --cluster-cidr=10.244.0.0/16 \
    --node-monitor-grace-period=2m
  launch kube-scheduler --kubeconfig="$kubeconfig" --leader-elect=false --bind-address=127.0.0.1 --secure-port=32259
  launch kwok --kubeconfig="$kubeconfig" -c "$module/kwok-stages.yaml" --manage-all-nodes=false \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake --cidr=10.244.0.0/24 --node-ip=127.0.0.1 \
    --node-lease-duration-seconds=40
  api "https://127.0.0.1:$port/api/v1/nodes/kwok-node-0" >/dev/null 2>&1 ||
    api -X POST -H 'Content-Type: application/json' "https://127.0.0.1:$port/api/v1/nodes" --data-binary @- >/dev/null <<'NODE'
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "kwok-node-0",
   "annotations": {"node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake"},
   "labels": {"kubernetes.io/hostname": "kwok-node-0", "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "type": "kwok"}},
 "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "250"},
            "capacity": {"cpu": "64", "memory": "256Gi", "pods": "250"}}}
NODE
  wait_for 60 node_ready || { tail -n 30 "$run/kwok.log" >&2; say "the kwok node never turned Ready"; exit 1; }
  # The controller-manager is serving once it has made the default namespace's ServiceAccount.
  wait_for 60 api "https://127.0.0.1:$port/api/v1/namespaces/default/serviceaccounts/default" ||
    { tail -n 30 "$run/kube-controller-manager.log" >&2; say "the controller-manager is not running"; exit 1; }
  say "cluster ready at https://127.0.0.1:$port (kubeconfig $kubeconfig)"
}

stop() {
  local name pid i
  for name in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
    pid="$(running_pid "$name")" || { rm -f "$run/$name.pid"; continue; }
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$run/$name.pid"
  done
  # A fresh etcd each start: tests assume an empty cluster.
  rm -rf "$run/etcd"
  say "stopped"
}

case "${1:-}" in
  build) build ;;
  start) start ;;
  stop) stop ;;
  kubeconfig) echo "$run/admin.kubeconfig" ;;
  *) echo "usage: kube.sh build|start|stop|kubeconfig" >&2; exit 2 ;;
esac
