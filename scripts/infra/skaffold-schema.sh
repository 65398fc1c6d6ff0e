#!/usr/bin/env bash
# Prints the path of skaffold's own JSON schema for the apiVersion skaffold.yaml uses, taken from skaffold's
# Go module through the Go module proxy (docs-v2/content/en/schemas/<version>.json); no skaffold binary is
# needed to check the file's shape. Usage: skaffold-schema.sh [v4beta11]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=go-tool.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh"
schema="${1:-v4beta11}"
module="github.com/GoogleContainerTools/skaffold/v2@${SKAFFOLD_VERSION:-v2.16.1}"
dir="$repo/.cache/skaffold-schemas"
if [ -f "$dir/$schema.json" ]; then echo "$dir/$schema.json"; exit 0; fi
require_go "skaffold-schema.sh: go is not installed"
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$dir/$schema.json" ]; then
  echo "skaffold-schema.sh: downloading $module from the Go module proxy" >&2
  source_dir="$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$module" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
  cp "$source_dir/docs-v2/content/en/schemas/$schema.json" "$dir/$schema.json.tmp"
  chmod 644 "$dir/$schema.json.tmp" && mv "$dir/$schema.json.tmp" "$dir/$schema.json"
fi
echo "$dir/$schema.json"
