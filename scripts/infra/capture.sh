#!/usr/bin/env bash
# What a web input's capture worker runs besides Chromium (scripts/infra/chromium.sh) and ffmpeg
# (scripts/infra/ffmpeg.sh): Xvfb for its display and PulseAudio for its sound, from Debian's apt when
# missing (packages xvfb and pulseaudio). Prints nothing; fails when they cannot be had.
set -euo pipefail
say() { echo "capture.sh: $*" >&2; }
missing=()
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v pulseaudio >/dev/null 2>&1 || missing+=(pulseaudio)
[ ${#missing[@]} -eq 0 ] && exit 0
say "installing ${missing[*]} with apt"
[ "$(id -u)" = 0 ] || { say "not root: install ${missing[*]} yourself"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "${missing[@]}" >&2 || { apt-get update -qq >&2 && apt-get install -y -qq "${missing[@]}" >&2; }
command -v Xvfb >/dev/null 2>&1 && command -v pulseaudio >/dev/null 2>&1 || { say "xvfb or pulseaudio could not be installed"; exit 1; }
