#!/usr/bin/env bash
# `npm run toolchain`: everything rebootlab needs to create real kind clusters on this machine, idempotent
# and cached by version (a warm run does nothing but checks):
#   Docker engine (hack/docker.sh) → kind and Kubernetes binaries from the Go module proxy
#   (hack/build-binaries.sh) → node image: kindest/node when it can be pulled, else built offline
#   (hack/build-rootfs.sh + hack/build-node-image.sh).
# Environment: REBOOTLAB_NODE_SOURCE=auto|kindest|offline (default auto), REBOOTLAB_CACHE (default ~/.cache/rebootlab).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
started=$SECONDS
: "${REBOOTLAB_NODE_SOURCE:=auto}"

command -v go >/dev/null || die "Go not found (needed to build kind and Kubernetes): install Go >= 1.24 to /usr/local/go"

bash "$HACK_DIR/docker.sh"
bash "$HACK_DIR/build-binaries.sh" kind kubernetes etcd kwok

node_image="rebootlab/node:$KUBERNETES_VERSION"
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

# The TypeScript side finds everything through this file.
mkdir -p "$REBOOTLAB_CACHE"
cat > "$REBOOTLAB_CACHE/toolchain.env" <<EOF
REBOOTLAB_KIND=$REBOOTLAB_CACHE/bin/kind-$KIND_VERSION/kind
REBOOTLAB_KUBERNETES_BIN=$REBOOTLAB_CACHE/bin/kubernetes-$KUBERNETES_VERSION
REBOOTLAB_KWOK=$REBOOTLAB_CACHE/bin/kwok-$KWOK_VERSION/kwok
REBOOTLAB_ETCD=$REBOOTLAB_CACHE/bin/etcd-$ETCD_VERSION/etcd
REBOOTLAB_NODE_IMAGE=$node_image
REBOOTLAB_KUBERNETES_VERSION=$KUBERNETES_VERSION
EOF
log "toolchain ready in $((SECONDS - started)) s ($REBOOTLAB_CACHE/toolchain.env)"
