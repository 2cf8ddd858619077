# Shared settings for the offline toolchain scripts: pinned versions, cache layout, logging.
# Sourced by the other hack/*.sh scripts; defines no side effects beyond variables and functions.

# Errors inside $(...) must stop the script too.
shopt -s inherit_errexit

HACK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Pinned versions, written once in versions.json at the repository root (lib/common/versions.ts reads it too).
# Changing one changes the cache key of everything built from it. Each can be overridden from the environment.
# versions.json lists the supported Kubernetes versions; the default is the newest. The etcd, CoreDNS and pause
# versions are not pinned: resolve_kubeadm_pins reads them from the chosen kubeadm's own source.
# `go` is the oldest Go the build accepts (GO_MINIMUM): the newest k8s.io/kubernetes go.mod's go directive (v1.37.2:
# go 1.26.0), which build-binaries.sh's GOTOOLCHAIN=local cannot satisfy with an older go.
# One Node process prints every pin as NAME=value; a variable already set in the environment wins.
pins="$(node -e '
  const v = require(process.argv[1]);
  const names = { kind: "KIND_VERSION", localPathProvisioner: "LOCAL_PATH_PROVISIONER_VERSION", kwok: "KWOK_VERSION",
    debianSuite: "DEBIAN_SUITE", go: "GO_MINIMUM" };
  const ok = (s) => /^[A-Za-z0-9._-]+$/.test(s ?? "");
  for (const [key, name] of Object.entries(names)) {
    if (!ok(v[key])) { console.error(`ERROR: versions.json has no valid "${key}"`); process.exit(3); }
    console.log(`${name}=${v[key]}`);
  }
  const list = v.kubernetesVersions;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => /^v1\.[0-9]+\.[0-9]+$/.test(x))) {
    console.error("ERROR: versions.json has no valid \"kubernetesVersions\" (a list like [\"v1.37.2\"])"); process.exit(3);
  }
  const key = (x) => x.slice(1).split(".").map(Number);
  const newest = [...list].sort((a, b) => { const p = key(a), q = key(b); return q[1] - p[1] || q[2] - p[2]; })[0];
  console.log(`SUPPORTED_KUBERNETES_VERSIONS=${list.join(" ")}`);
  console.log(`KUBERNETES_VERSION=${newest}`);
  console.log(`DEFAULT_KUBERNETES_VERSION=${newest}`);' "$HACK_DIR/../versions.json")"
while IFS='=' read -r name value; do
  [ -n "${!name:-}" ] || printf -v "$name" '%s' "$value"
done <<< "$pins"

# Refuse a version outside the table before anything is built: one line naming the set (exit 2, bad input).
case " $SUPPORTED_KUBERNETES_VERSIONS " in
  *" $KUBERNETES_VERSION "*) ;;
  *) printf 'ERROR: Kubernetes %s is not supported; supported: %s (versions.json)\n' "$KUBERNETES_VERSION" "${SUPPORTED_KUBERNETES_VERSIONS// /, }" >&2; exit 2 ;;
esac

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

# Directory of the k8s.io/kubernetes module of $KUBERNETES_VERSION in the Go module cache (downloaded if missing).
kubernetes_module_dir() {
  local dir="$(go env GOMODCACHE)/k8s.io/kubernetes@$KUBERNETES_VERSION"
  [ -f "$dir/go.mod" ] || GOFLAGS= go mod download "k8s.io/kubernetes@$KUBERNETES_VERSION" >&2 \
    || die "go mod download k8s.io/kubernetes@$KUBERNETES_VERSION failed (is the Go module proxy reachable?)"
  printf '%s' "$dir"
}

# Sets ETCD_IMAGE_TAG, ETCD_VERSION, COREDNS_VERSION and PAUSE_IMAGE_TAG to what this kubeadm version deploys,
# read from its own source: cmd/kubeadm/app/constants/constants.go (DefaultEtcdVersion, CoreDNSVersion,
# PauseVersion). hack/build-node-image.sh checks them against `kubeadm config images list` once kubeadm is built.
# Values already in the environment win (exported by hack/toolchain.sh to its child scripts).
resolve_kubeadm_pins() {
  if [ -n "${ETCD_IMAGE_TAG:-}" ] && [ -n "${COREDNS_VERSION:-}" ] && [ -n "${PAUSE_IMAGE_TAG:-}" ]; then
    : "${ETCD_VERSION:=v${ETCD_IMAGE_TAG%-*}}"; return
  fi
  local constants; constants="$(kubernetes_module_dir)/cmd/kubeadm/app/constants/constants.go"
  [ -f "$constants" ] || die "$constants not found"
  const_value() { sed -n "s/^[[:space:]]*$1 = \"\([^\"]*\)\"\$/\1/p" "$constants" | head -1; }
  ETCD_IMAGE_TAG="$(const_value DefaultEtcdVersion)"
  COREDNS_VERSION="$(const_value CoreDNSVersion)"
  PAUSE_IMAGE_TAG="$(const_value PauseVersion)"
  [[ "$ETCD_IMAGE_TAG" =~ ^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+$ ]] || die "no DefaultEtcdVersion in $constants"
  [[ "$COREDNS_VERSION" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "no CoreDNSVersion in $constants"
  [[ "$PAUSE_IMAGE_TAG" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || die "no PauseVersion in $constants"
  ETCD_VERSION="v${ETCD_IMAGE_TAG%-*}"
}
