#!/usr/bin/env bash
# Prints the path of a helm binary. Uses `helm` from PATH when there is one; otherwise builds
# helm from source through the Go module proxy into .cache/bin (about 4 min the first time,
# instant afterwards). Build output goes to stderr so stdout is only the path.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${HELM_VERSION:-v3.16.4}"
cached="$repo/.cache/bin/helm"

if existing="$(command -v helm 2>/dev/null)"; then echo "$existing"; exit 0; fi
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="$PATH:/usr/local/go/bin"
  else echo "helm.sh: neither helm nor go is installed" >&2; exit 1; fi
fi

mkdir -p "$repo/.cache/bin"
# Serialize concurrent callers (parallel jest workers) so only one builds.
exec 9>"$repo/.cache/bin/.helm.lock"
flock 9
if [ ! -x "$cached" ]; then
  echo "helm.sh: building helm $version with go install (first time only, a few minutes)" >&2
  GOBIN="$repo/.cache/bin" CGO_ENABLED=0 go install "helm.sh/helm/v3/cmd/helm@$version" >&2
fi
echo "$cached"
