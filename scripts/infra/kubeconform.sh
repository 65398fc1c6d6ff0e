#!/usr/bin/env bash
# Prints the path of a kubeconform binary: from PATH, else built with `go install` through the Go module
# proxy into .cache/bin (a few seconds). Build output goes to stderr so stdout is only the path.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=go-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh"
version="${KUBECONFORM_VERSION:-v0.8.0}"
cached="$repo/.cache/bin/kubeconform"

if existing="$(command -v kubeconform 2>/dev/null)"; then echo "$existing"; exit 0; fi
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi
require_go "kubeconform.sh: neither kubeconform nor go is installed"
mkdir -p "$repo/.cache/bin"
exec 9>"$repo/.cache/bin/.kubeconform.lock"
flock 9
if [ ! -x "$cached" ]; then
  echo "kubeconform.sh: building kubeconform $version with go install" >&2
  GOBIN="$repo/.cache/bin" CGO_ENABLED=0 go install "github.com/yannh/kubeconform/cmd/kubeconform@$version" >&2
fi
echo "$cached"
