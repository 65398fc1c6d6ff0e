#!/usr/bin/env bash
# Prints the path of a working ffmpeg (default) or ffprobe:
#   ffmpeg.sh [ffmpeg|ffprobe]
# FFMPEG_PATH / FFPROBE_PATH win when set (they must be executable). Otherwise the binary on PATH is
# used, and when there is none, Debian's `ffmpeg` package (which ships both) is installed with apt.
set -euo pipefail

tool="${1:-ffmpeg}"
say() { echo "ffmpeg.sh: $*" >&2; }

case "$tool" in
  ffmpeg) override="${FFMPEG_PATH:-}" ;;
  ffprobe) override="${FFPROBE_PATH:-}" ;;
  *) say "unknown tool '$tool' (expected ffmpeg or ffprobe)"; exit 2 ;;
esac

if [ -n "$override" ]; then
  [ -x "$override" ] || { say "$tool path '$override' (from the environment) is not an executable file"; exit 1; }
  echo "$override"
  exit 0
fi

path="$(command -v "$tool" || true)"
if [ -z "$path" ]; then
  say "$tool not found on PATH; installing the ffmpeg package with apt"
  [ "$(id -u)" = 0 ] || { say "not root: install ffmpeg yourself or set FFMPEG_PATH/FFPROBE_PATH"; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq ffmpeg >&2
  path="$(command -v "$tool" || true)"
  [ -n "$path" ] || { say "no $tool on PATH after installing ffmpeg"; exit 1; }
fi
echo "$path"
