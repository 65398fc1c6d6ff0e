#!/usr/bin/env bash
# Prints the path of a kubeconform binary: from PATH, else built with `go install` through the Go module
# proxy into .cache/bin (a few seconds). Build output goes to stderr so stdout is only the path.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${KUBECONFORM_VERSION:-v0.8.0}"
cached="$repo/.cache/bin/kubeconform"

if existing="$(command -v kubeconform 2>/dev/null)"; then echo "$existing"; exit 0; fi
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="$PATH:/usr/local/go/bin"
  else echo "kubeconform.sh: neither kubeconform nor go is installed" >&2; exit 1; fi
fi
mkdir -p "$repo/.cache/bin"
exec 9>"$repo/.cache/bin/.kubeconform.lock"
flock 9
if [ ! -x "$cached" ]; then
  echo "kubeconform.sh: building kubeconform $version with go install" >&2
  GOBIN="$repo/.cache/bin" CGO_ENABLED=0 go install "github.com/yannh/kubeconform/cmd/kubeconform@$version" >&2
fi
echo "$cached"
