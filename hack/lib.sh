# Shared settings for the offline toolchain scripts: pinned versions, cache layout, logging.
# Sourced by the other hack/*.sh scripts; defines no side effects beyond variables and functions.

# Errors inside $(...) must stop the script too.
shopt -s inherit_errexit

HACK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Pinned versions, written once in versions.json at the repository root (lib/common/versions.ts reads it too).
# Changing one changes the cache key of everything built from it. Each can be overridden from the environment.
# One Node process prints every pin as NAME=value; a variable already set in the environment wins. kubeadm v1.34
# expects etcd 3.6.5-0, CoreDNS v1.12.1 and pause 3.10.1 (cmd/kubeadm/app/constants/constants.go:
# SupportedEtcdVersion[34], CoreDNSVersion, PauseVersion).
pins="$(node -e '
  const v = require(process.argv[1]);
  const names = { kind: "KIND_VERSION", kubernetes: "KUBERNETES_VERSION", etcd: "ETCD_VERSION", etcdImageTag: "ETCD_IMAGE_TAG",
    coredns: "COREDNS_VERSION", pauseImageTag: "PAUSE_IMAGE_TAG", localPathProvisioner: "LOCAL_PATH_PROVISIONER_VERSION",
    kwok: "KWOK_VERSION", debianSuite: "DEBIAN_SUITE" };
  for (const [key, name] of Object.entries(names)) {
    if (!/^[A-Za-z0-9._-]+$/.test(v[key] ?? "")) { console.error(`ERROR: versions.json has no valid "${key}"`); process.exit(3); }
    console.log(`${name}=${v[key]}`);
  }' "$HACK_DIR/../versions.json")"
while IFS='=' read -r name value; do
  [ -n "${!name:-}" ] || printf -v "$name" '%s' "$value"
done <<< "$pins"

: "${REBOOTLAB_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/rebootlab}"
export REBOOTLAB_CACHE
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
