#!/usr/bin/env bash
# Prints the path of a helm binary. Uses `helm` from PATH when there is one; otherwise builds
# helm from source through the Go module proxy into .cache/bin (about 4 min the first time,
# instant afterwards). Build output goes to stderr so stdout is only the path.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=go-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh"
version="${HELM_VERSION:-v3.16.4}"
cached="$repo/.cache/bin/helm"

if existing="$(command -v helm 2>/dev/null)"; then echo "$existing"; exit 0; fi
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi

require_go "helm.sh: neither helm nor go is installed"

mkdir -p "$repo/.cache/bin"
# Serialize concurrent callers (parallel jest workers) so only one builds.
exec 9>"$repo/.cache/bin/.helm.lock"
flock 9
if [ ! -x "$cached" ]; then
  echo "helm.sh: building helm $version with go install (first time only, a few minutes)" >&2
  GOBIN="$repo/.cache/bin" CGO_ENABLED=0 go install "helm.sh/helm/v3/cmd/helm@$version" >&2
fi
echo "$cached"
