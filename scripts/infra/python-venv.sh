# Sourced by the infra scripts that install a Python tool from PyPI (schemathesis.sh, speech.sh);
# the sourcing script defines `say`.

# apt-get install, as root only (a CI machine may be new).
apt_install() {
  [ "$(id -u)" = 0 ] || { say "not root: install $* yourself"; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "$@" >&2
}

# A fresh virtual environment at $1, installing python3 and python3-venv with apt when missing.
fresh_venv() {
  local venv=$1 base
  base="$(command -v python3 || true)"
  [ -n "$base" ] || { say "no python3; installing it with apt"; apt_install python3 python3-venv; base="$(command -v python3)"; }
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  if ! "$base" -m venv "$venv" >&2; then
    say "python3 cannot make a virtual environment; installing python3-venv with apt"
    apt_install python3-venv
    rm -rf "$venv"
    "$base" -m venv "$venv" >&2
  fi
}
