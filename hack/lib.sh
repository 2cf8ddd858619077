# Shared settings for the offline toolchain scripts: pinned versions, cache layout, logging.
# Sourced by the other hack/*.sh scripts; defines no side effects beyond variables and functions.

# Errors inside $(...) must stop the script too.
shopt -s inherit_errexit

# Pinned versions. Changing one changes the cache key of everything built from it.
: "${KIND_VERSION:=v0.30.0}"
: "${KUBERNETES_VERSION:=v1.34.4}"
# kubeadm v1.34 expects etcd 3.6.5-0 (cmd/kubeadm/app/constants/constants.go, SupportedEtcdVersion[34]).
: "${ETCD_VERSION:=v3.6.5}"
: "${ETCD_IMAGE_TAG:=3.6.5-0}"
# kubeadm v1.34 expects CoreDNS v1.12.1 (constants.go, CoreDNSVersion).
: "${COREDNS_VERSION:=v1.12.1}"
# kubeadm v1.34 expects pause 3.10.1 (constants.go, PauseVersion).
: "${PAUSE_IMAGE_TAG:=3.10.1}"
: "${LOCAL_PATH_PROVISIONER_VERSION:=v0.0.30}"
: "${KWOK_VERSION:=v0.7.0}"
: "${DEBIAN_SUITE:=bookworm}"

: "${REBOOTLAB_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/rebootlab}"
export REBOOTLAB_CACHE
HACK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="/usr/local/go/bin:$PATH"

log() { printf '[toolchain %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 3; }

# Hash of the named files' contents plus extra strings: the recipe part of a cache key.
recipe_hash() {
  local extra="$1"; shift
  { printf '%s\n' "$extra"; cat "$@"; } | sha256sum | cut -c1-12
}

# A stamp file proves a build step finished with a given key; a half-done build has none.
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
