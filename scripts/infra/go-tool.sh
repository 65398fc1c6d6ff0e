# Sourced by the infra scripts that build or download through the Go module proxy (helm.sh, kubeconform.sh,
# k8s-crds.sh, skaffold-schema.sh, kube.sh): where go is. Nothing here installs Go.

# Where Go's release tarball installs it, used when go is not on PATH.
go_fallback_dir=/usr/local/go/bin

# Prints the go command to use: `go` from PATH, else $go_fallback_dir/go; fails (printing nothing) without either.
go_path() {
  command -v go 2>/dev/null && return 0
  [ -x "$go_fallback_dir/go" ] || return 1
  echo "$go_fallback_dir/go"
}

# Makes `go` runnable by name: when it is not on PATH but in $go_fallback_dir, appends that to PATH. Without
# Go, prints $1 to stderr and exits 1.
require_go() {
  local go
  if ! go="$(go_path)"; then
    echo "$1" >&2
    exit 1
  fi
  if [ "$go" = "$go_fallback_dir/go" ]; then
    case ":$PATH:" in
      *":$go_fallback_dir:"*) ;;
      *) export PATH="$PATH:$go_fallback_dir" ;;
    esac
  fi
}
