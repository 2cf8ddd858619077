#!/usr/bin/env bash
# Builds rebootlab/csi:v1, the image of rebootlab's attachable CSI driver (hack/csi-driver): its static binary
# alone in an otherwise empty root filesystem, loaded with `docker import` (no base image, no registry). The
# driver mounts with mount(2) itself, so it needs no other file. rebootlab loads the image into a kind cluster's
# nodes when an experiment uses `volume: {type: attachable}` (lib/cluster/kind/cluster.ts loadImages), so it works
# with rebootlab's offline node image and with kindest/node alike.
# Cached: the image carries the driver's source hash as label dev.rebootlab.inputs; when it matches, nothing is done.
# Usage: hack/build-csi-image.sh   (builds the binary through hack/build-binaries.sh csi first; cached too)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

IMAGE="${REBOOTLAB_CSI_IMAGE:-rebootlab/csi:v1}"
BINARY="$(bash "$HACK_DIR/build-binaries.sh" csi)"
KEY="$(basename "$(dirname "$BINARY")")"

if [ "$(docker image inspect -f '{{index .Config.Labels "dev.rebootlab.inputs"}}' "$IMAGE" 2>/dev/null)" = "$KEY" ]; then
  log "$IMAGE: cached ($KEY)"
  exit 0
fi

ROOTFS="$(mktemp -d)"
trap 'rm -rf "$ROOTFS"' EXIT
install -m 0755 "$BINARY" "$ROOTFS/rebootlab-csi"
mkdir -p "$ROOTFS/tmp"
log "importing $IMAGE ($KEY)"
tar -C "$ROOTFS" -c . | docker import \
  --change 'ENTRYPOINT ["/rebootlab-csi"]' \
  --change "LABEL dev.rebootlab.inputs=$KEY" \
  - "$IMAGE" >/dev/null
log "$IMAGE built"
