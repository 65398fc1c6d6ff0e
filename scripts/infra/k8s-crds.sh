#!/usr/bin/env bash
# Prints a folder holding the CustomResourceDefinitions the chart's optional objects need, taken from the
# projects' own Go modules through the Go module proxy (GitHub is not reachable): KEDA's ScaledObject
# (github.com/kedacore/keda/v2 config/crd/bases) and the Prometheus operator's ServiceMonitor
# (github.com/prometheus-operator/prometheus-operator example/prometheus-operator-crd). The cluster test
# installs them so the API server validates those objects against their real schemas.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=go-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh"
keda="github.com/kedacore/keda/v2@${KEDA_VERSION:-v2.21.0}"
operator="github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION:-v0.85.0}"
dir="$repo/.cache/k8s-crds"
stamp="$dir/.done-$(echo "$keda $operator" | sha256sum | cut -c1-12)"
if [ -f "$stamp" ]; then echo "$dir"; exit 0; fi
require_go "k8s-crds.sh: go is not installed"
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$stamp" ]; then
  module_dir() { GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])'; }
  cp "$(module_dir "$keda")/config/crd/bases/keda.sh_scaledobjects.yaml" "$dir/"
  cp "$(module_dir "$operator")/example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml" "$dir/"
  chmod 644 "$dir"/*.yaml
  touch "$stamp"
fi
echo "$dir"
