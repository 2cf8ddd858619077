#!/usr/bin/env bash
# `npm run toolchain [-- --kubernetes VERSION ...]`: everything rebootlab needs to create real kind (and kwok)
# clusters of one or more supported Kubernetes versions on this machine, idempotent and cached by version (a warm
# run does nothing but checks):
#   Docker engine (hack/docker.sh) → kind, kwok, rebootlab's CSI driver image rebootlab/csi:v1
#   (hack/build-csi-image.sh), and per version the Kubernetes binaries and the etcd that
#   version's kubeadm deploys, from the Go module proxy (hack/build-binaries.sh) → per version the node image
#   rebootlab/node:<version>: kindest/node:<version> when it can be pulled, else built offline
#   (hack/build-rootfs.sh + hack/build-node-image.sh) → per version $REBOOTLAB_CACHE/toolchain/<version>.env.
# Without --kubernetes it builds the default version (the newest in versions.json); `--kubernetes all` builds every
# supported version. A version outside versions.json is refused (exit 2) before anything is built.
# Environment: REBOOTLAB_NODE_SOURCE=auto|kindest|offline (default auto), REBOOTLAB_CACHE (default ~/.cache/rebootlab).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
started=$SECONDS
: "${REBOOTLAB_NODE_SOURCE:=auto}"

usage() { echo "usage: npm run toolchain [-- --kubernetes VERSION|all ...]   supported: ${SUPPORTED_KUBERNETES_VERSIONS// /, } (default $DEFAULT_KUBERNETES_VERSION)"; }
requested=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kubernetes) [ $# -ge 2 ] || { usage >&2; exit 2; }; requested+=("$2"); shift 2 ;;
    --kubernetes=*) requested+=("${1#*=}"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) printf 'ERROR: unknown argument %s\n' "$1" >&2; usage >&2; exit 2 ;;
  esac
done
[ ${#requested[@]} -gt 0 ] || requested=("$KUBERNETES_VERSION")
versions=()
for v in "${requested[@]}"; do
  if [ "$v" = all ]; then read -r -a all <<< "$SUPPORTED_KUBERNETES_VERSIONS"; versions+=("${all[@]}"); continue; fi
  case " $SUPPORTED_KUBERNETES_VERSIONS " in
    *" $v "*) versions+=("$v") ;;
    *) printf 'ERROR: Kubernetes %s is not supported; supported: %s (versions.json)\n' "$v" "${SUPPORTED_KUBERNETES_VERSIONS// /, }" >&2; exit 2 ;;
  esac
done

command -v go >/dev/null || die "Go not found (needed to build kind and Kubernetes): install Go >= $GO_MINIMUM to /usr/local/go"
# k8s.io/kubernetes' go.mod needs Go >= $GO_MINIMUM (versions.json "go"), and the build runs with GOTOOLCHAIN=local.
go_found="$(go env GOVERSION 2>/dev/null || true)"
go_at_least() { local have="${1#go}" want="$2"; have="${have%%[!0-9.]*}"; [ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -n1)" = "$want" ]; }
go_at_least "$go_found" "$GO_MINIMUM" || die "Go ${go_found:-of an unknown version} found, the toolchain needs Go >= $GO_MINIMUM (k8s.io/kubernetes $DEFAULT_KUBERNETES_VERSION's go.mod): install it to /usr/local/go"

bash "$HACK_DIR/docker.sh"
bash "$HACK_DIR/build-binaries.sh" kind kwok
# One image for every Kubernetes version (client-go v0.34 talks to v1.34 to v1.37 API servers), loaded into a
# cluster only when an experiment uses attachable volumes.
bash "$HACK_DIR/build-csi-image.sh"

# build_version VERSION: binaries, node image and env file of one Kubernetes version (run in a subshell).
build_version() {
  local version_started=$SECONDS
  export KUBERNETES_VERSION="$1"
  resolve_kubeadm_pins
  export ETCD_IMAGE_TAG ETCD_VERSION COREDNS_VERSION PAUSE_IMAGE_TAG
  log "Kubernetes $KUBERNETES_VERSION: kubeadm deploys etcd $ETCD_IMAGE_TAG, CoreDNS $COREDNS_VERSION, pause $PAUSE_IMAGE_TAG (cmd/kubeadm/app/constants/constants.go)"
  bash "$HACK_DIR/build-binaries.sh" kubernetes etcd

  local node_image="rebootlab/node:$KUBERNETES_VERSION"
  if [ "$REBOOTLAB_NODE_SOURCE" != offline ] && ! docker image inspect "$node_image" >/dev/null 2>&1; then
    # Online users get kind's own image; offline machines fail this pull at once and build their own.
    if timeout 120 docker pull -q "kindest/node:$KUBERNETES_VERSION" >/dev/null 2>&1; then
      docker tag "kindest/node:$KUBERNETES_VERSION" "$node_image"
      log "using kindest/node:$KUBERNETES_VERSION as $node_image"
    elif [ "$REBOOTLAB_NODE_SOURCE" = kindest ]; then
      die "docker pull kindest/node:$KUBERNETES_VERSION failed and REBOOTLAB_NODE_SOURCE=kindest"
    else
      log "kindest/node:$KUBERNETES_VERSION cannot be pulled here: building the node image offline"
    fi
  fi
  if [ "$(docker image inspect -f '{{index .Config.Labels "dev.rebootlab.inputs"}}' "$node_image" 2>/dev/null)" != "" ] \
    || ! docker image inspect "$node_image" >/dev/null 2>&1; then
    bash "$HACK_DIR/build-binaries.sh" coredns local-path helpers
    eval "$(bash "$HACK_DIR/build-rootfs.sh")"
    bash "$HACK_DIR/build-node-image.sh" "$NODE_BASE" "$UTIL_BASE" "$BUSYBOX"
  fi

  # The TypeScript side (lib/common/toolchain.ts) finds each version's binaries and image through this file.
  mkdir -p "$REBOOTLAB_CACHE/toolchain"
  local env_file="$REBOOTLAB_CACHE/toolchain/$KUBERNETES_VERSION.env"
  cat > "$env_file.tmp" <<EOF
REBOOTLAB_KUBERNETES_VERSION=$KUBERNETES_VERSION
REBOOTLAB_KIND=$REBOOTLAB_CACHE/bin/kind-$KIND_VERSION/kind
REBOOTLAB_KIND_VERSION=$KIND_VERSION
REBOOTLAB_KUBERNETES_BIN=$REBOOTLAB_CACHE/bin/kubernetes-$KUBERNETES_VERSION
REBOOTLAB_KWOK=$REBOOTLAB_CACHE/bin/kwok-$KWOK_VERSION/kwok
REBOOTLAB_ETCD=$REBOOTLAB_CACHE/bin/etcd-$ETCD_VERSION/etcd
REBOOTLAB_ETCD_IMAGE_TAG=$ETCD_IMAGE_TAG
REBOOTLAB_COREDNS_VERSION=$COREDNS_VERSION
REBOOTLAB_PAUSE_IMAGE_TAG=$PAUSE_IMAGE_TAG
REBOOTLAB_NODE_IMAGE=$node_image
EOF
  mv "$env_file.tmp" "$env_file"
  log "Kubernetes $KUBERNETES_VERSION ready in $((SECONDS - version_started)) s ($env_file)"
}

for v in "${versions[@]}"; do (build_version "$v"); done
log "toolchain ready in $((SECONDS - started)) s (${versions[*]})"
