#!/usr/bin/env bash
# Schemathesis (PyPI), the property-based API fuzzer `npm test` runs against /openapi.json, in a Python
# virtual environment under .cache/schemathesis/venv. Prints the path of its `st` command.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=python-venv.sh
source scripts/infra/python-venv.sh
say() { echo "schemathesis.sh: $*" >&2; }
SCHEMATHESIS_VERSION=4.32.5

venv=.cache/schemathesis/venv
st="$PWD/$venv/bin/st"
if [ -x "$st" ] && "$venv/bin/python" -c "import schemathesis, sys; sys.exit(schemathesis.__version__ != '$SCHEMATHESIS_VERSION')" 2>/dev/null; then
  echo "$st"
  exit 0
fi
fresh_venv "$venv"
say "installing schemathesis $SCHEMATHESIS_VERSION into $venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 60 "schemathesis==$SCHEMATHESIS_VERSION" >&2
"$st" --version >&2 || { say "schemathesis does not run after installing"; exit 1; }
echo "$st"
