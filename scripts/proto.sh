#!/usr/bin/env bash
# Regenerates libs/proto/src/gen from proto/ with ts-proto (through buf, shipped in npm).
# `npm run proto -- --check` fails when the committed generated code is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=libs/proto/src/gen
if [ "${1:-}" = "--check" ]; then
  tmp=$(mktemp -d)
  cp -r "$out" "$tmp/before"
  trap 'rm -rf "$out" && cp -r "$tmp/before" "$out" && rm -rf "$tmp"' EXIT
fi
(cd proto && buf lint)
rm -rf "$out" && mkdir -p "$out"
(cd proto && buf generate)
if [ "${1:-}" = "--check" ]; then
  if ! diff -r "$tmp/before" "$out" >/dev/null; then
    diff -r "$tmp/before" "$out" | head -40
    echo "Generated code in $out is stale: run npm run proto and commit the result." >&2
    exit 1
  fi
  echo "proto: generated code is up to date"
fi
