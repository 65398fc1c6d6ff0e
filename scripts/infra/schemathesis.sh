#!/usr/bin/env bash
# Schemathesis (PyPI), the property-based API fuzzer `npm test` runs against /openapi.json, in a Python
# virtual environment under .cache/schemathesis/venv. Prints the path of its `st` command.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { echo "schemathesis.sh: $*" >&2; }
SCHEMATHESIS_VERSION=4.32.5

venv=.cache/schemathesis/venv
st="$PWD/$venv/bin/st"
if [ -x "$st" ] && "$venv/bin/python" -c "import schemathesis, sys; sys.exit(schemathesis.__version__ != '$SCHEMATHESIS_VERSION')" 2>/dev/null; then
  echo "$st"
  exit 0
fi
base="$(command -v python3 || true)"
apt_install() {
  [ "$(id -u)" = 0 ] || { say "not root: install $* yourself"; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "$@" >&2
}
[ -n "$base" ] || { say "no python3; installing it with apt"; apt_install python3 python3-venv; base="$(command -v python3)"; }
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
if ! "$base" -m venv "$venv" >&2; then
  say "python3 cannot make a virtual environment; installing python3-venv with apt"
  apt_install python3-venv
  rm -rf "$venv"
  "$base" -m venv "$venv" >&2
fi
say "installing schemathesis $SCHEMATHESIS_VERSION into $venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 60 "schemathesis==$SCHEMATHESIS_VERSION" >&2
"$st" --version >&2 || { say "schemathesis does not run after installing"; exit 1; }
echo "$st"
