#!/usr/bin/env bash
# The offline speech recognizer behind generated live subtitles: a Python virtual environment under
# .cache/speech/venv with PocketSphinx (PyPI `pocketsphinx`, whose wheel carries the en-us model, so
# nothing is downloaded at run time). Prints the environment's python, which the live service finds
# there by itself (or set SPEECH_PYTHON to it).
#   speech.sh          make the environment if it is missing, print its python
#   speech.sh voice    print the path of espeak-ng (installed with apt if missing): tests make speech with it
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=python-venv.sh
source scripts/infra/python-venv.sh
say() { echo "speech.sh: $*" >&2; }
POCKETSPHINX_VERSION=5.1.1

if [ "${1:-}" = voice ]; then
  command -v espeak-ng >/dev/null || { say "installing espeak-ng with apt"; apt_install espeak-ng; }
  command -v espeak-ng
  exit 0
fi

venv=.cache/speech/venv
python="$PWD/$venv/bin/python"
if [ -x "$python" ] && "$python" -c 'import pocketsphinx' 2>/dev/null; then
  echo "$python"
  exit 0
fi
fresh_venv "$venv"
say "installing pocketsphinx $POCKETSPHINX_VERSION (with its en-us model) into $venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 30 "pocketsphinx==$POCKETSPHINX_VERSION" >&2
"$python" -c 'import pocketsphinx' || { say "pocketsphinx does not import after installing"; exit 1; }
echo "$python"
