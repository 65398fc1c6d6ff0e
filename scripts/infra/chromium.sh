#!/usr/bin/env bash
# Prints the path of a Chromium for browser tests (hls.js playback), installing Debian's `chromium`
# package with apt when there is none. CHROMIUM_PATH wins when set.
set -euo pipefail
say() { echo "chromium.sh: $*" >&2; }

if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || { say "CHROMIUM_PATH '$CHROMIUM_PATH' is not an executable file"; exit 1; }
  echo "$CHROMIUM_PATH"
  exit 0
fi

find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
path="$(find_chromium)"
if [ -z "$path" ]; then
  say "no Chromium on PATH; installing the chromium package with apt"
  [ "$(id -u)" = 0 ] || { say "not root: install chromium yourself or set CHROMIUM_PATH"; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
  path="$(find_chromium)"
fi
[ -n "$path" ] || { say "Chromium could not be installed"; exit 1; }
echo "$path"
