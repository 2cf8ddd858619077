#!/usr/bin/env bash
# Assembles the offline kind node image rebootlab/node:<kubernetes version> from locally built parts:
#   1. component images tagged exactly as `kubeadm config images list` prints them (plus the pause
#      image containerd's config names, the CNI agent, local-path-provisioner and the workload image),
#   2. those images preloaded into the node's containerd (k8s.io namespace) without unpacking,
#   3. the node filesystem: the debootstrap base, kind's base-image files taken from the kind Go module
#      at build time (entrypoint, systemd units, containerd config), the Kubernetes binaries, /kind/version
#      and /kind/manifests/default-{cni,storage}.yaml.
# Cached by a hash of every input: when rebootlab/node:<version> carries that hash as a label, nothing is done.
# Usage: hack/build-node-image.sh NODE_BASE UTIL_BASE BUSYBOX   (image refs from hack/build-rootfs.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NODE_BASE="$1" UTIL_BASE="$2" BUSYBOX="$3"
resolve_kubeadm_pins
BIN="$REBOOTLAB_CACHE/bin"
K8S_BIN="$BIN/kubernetes-$KUBERNETES_VERSION"
HELPERS="$BIN/node-helpers"
NODE_IMAGE="${NODE_IMAGE:-rebootlab/node:$KUBERNETES_VERSION}"
KIND_FILES="$(go env GOMODCACHE)/sigs.k8s.io/kind@$KIND_VERSION/images/base/files"
export DOCKER_BUILDKIT=0 # the classic builder uses local images only: no registry lookups
[ -d "$KIND_FILES" ] || GOFLAGS= go mod download "sigs.k8s.io/kind@$KIND_VERSION"
[ -d "$KIND_FILES" ] || die "kind's base image files not found at $KIND_FILES"

input_hash() {
  {
    echo "$NODE_BASE $UTIL_BASE $BUSYBOX $KUBERNETES_VERSION $KIND_VERSION $ETCD_VERSION $COREDNS_VERSION"
    cat "$0" "$HACK_DIR/runc-drop-sys-resource" "$HACK_DIR"/node-image/*
    sha256sum "$K8S_BIN"/* "$BIN/etcd-$ETCD_VERSION/etcd" "$BIN/coredns-$COREDNS_VERSION/coredns" \
      "$BIN/local-path-provisioner-$LOCAL_PATH_PROVISIONER_VERSION/local-path-provisioner" "$HELPERS"/*
    (cd "$KIND_FILES" && find . -type f | sort | xargs sha256sum)
  } | sha256sum | cut -c1-16
}

HASH="$(input_hash)"
if [ "$(docker image inspect -f '{{index .Config.Labels "dev.rebootlab.inputs"}}' "$NODE_IMAGE" 2>/dev/null)" = "$HASH" ]; then
  log "$NODE_IMAGE: cached (inputs $HASH)"
  exit 0
fi
WORK="$(mktemp -d "$REBOOTLAB_CACHE/node-image.XXXX")"
trap 'rm -rf "$WORK"; docker rm -f "rebootlab-preload-$$" >/dev/null 2>&1 || true' EXIT

# component_image TAG BASE ENTRYPOINT_JSON FILE:DEST...  builds one small image with the classic builder.
component_image() {
  local tag="$1" base="$2" entrypoint="$3"; shift 3
  local ctx="$WORK/ctx-${tag//[\/:]/_}"
  mkdir -p "$ctx"
  {
    echo "FROM $base"
    for pair in "$@"; do
      cp "${pair%%:*}" "$ctx/$(basename "${pair%%:*}")"
      echo "COPY $(basename "${pair%%:*}") ${pair#*:}"
    done
    echo 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin'
    [ -n "$entrypoint" ] && echo "ENTRYPOINT $entrypoint"
  } > "$ctx/Dockerfile"
  docker build -q -t "$tag" "$ctx" >/dev/null || die "building image $tag failed"
  IMAGES+=("$tag")
}

log "building component images"
IMAGES=()
REG=registry.k8s.io
for c in kube-apiserver kube-controller-manager kube-scheduler; do
  component_image "$REG/$c:$KUBERNETES_VERSION" "$BUSYBOX" "" "$K8S_BIN/$c:/usr/local/bin/$c"
done
component_image "$REG/kube-proxy:$KUBERNETES_VERSION" "$UTIL_BASE" "" "$K8S_BIN/kube-proxy:/usr/local/bin/kube-proxy"
component_image "$REG/etcd:$ETCD_IMAGE_TAG" "$BUSYBOX" "" "$BIN/etcd-$ETCD_VERSION/etcd:/usr/local/bin/etcd"
component_image "$REG/coredns/coredns:$COREDNS_VERSION" "$BUSYBOX" '["/coredns"]' "$BIN/coredns-$COREDNS_VERSION/coredns:/coredns"
component_image "$REG/pause:$PAUSE_IMAGE_TAG" scratch '["/pause"]' "$HELPERS/pause:/pause"
# kind's containerd config names pause:3.10 as the sandbox image; kubeadm names its own PauseVersion (3.10.1 in
# v1.34 and v1.35, 3.10.2 in v1.36 and v1.37).
docker tag "$REG/pause:$PAUSE_IMAGE_TAG" "$REG/pause:3.10"; IMAGES+=("$REG/pause:3.10")
component_image "docker.io/rebootlab/cni:v1" "$UTIL_BASE" "" "$HELPERS/rebootlab-cni:/usr/local/bin/rebootlab-cni"
component_image "docker.io/rebootlab/local-path-provisioner:$LOCAL_PATH_PROVISIONER_VERSION" "$BUSYBOX" "" \
  "$BIN/local-path-provisioner-$LOCAL_PATH_PROVISIONER_VERSION/local-path-provisioner:/usr/local/bin/local-path-provisioner"
component_image "docker.io/rebootlab/workload:v1" "$BUSYBOX" '["/rebootlab-workload"]' "$HELPERS/rebootlab-workload:/rebootlab-workload"

# The images kubeadm will ask for must be exactly what we built: fail early otherwise.
for want in $("$K8S_BIN/kubeadm" config images list --kubernetes-version "$KUBERNETES_VERSION" 2>/dev/null); do
  printf '%s\n' "${IMAGES[@]}" | grep -qx "$want" || die "kubeadm expects $want, which the toolchain does not build"
done

log "preloading ${#IMAGES[@]} images into the node's containerd store"
docker save -o "$WORK/images.tar" "${IMAGES[@]}"
NODE_CTX="$WORK/node"
mkdir -p "$NODE_CTX/rootfs/var/lib/containerd"
# A throwaway container of the node base runs containerd on a host directory (overlay on overlay fails).
docker run -d --name "rebootlab-preload-$$" --privileged --entrypoint sleep \
  -v "$NODE_CTX/rootfs/var/lib/containerd:/var/lib/containerd" -v "$WORK/images.tar:/images.tar:ro" \
  "$NODE_BASE" infinity >/dev/null
docker exec "rebootlab-preload-$$" bash -euc '
  containerd >/tmp/containerd.log 2>&1 &
  for i in $(seq 50); do ctr version >/dev/null 2>&1 && break; sleep 0.2; done
  ctr -n k8s.io images import --no-unpack /images.tar >/dev/null
  ctr -n k8s.io images ls -q
  kill %1; wait || true' > "$WORK/preloaded.txt"
docker rm -f "rebootlab-preload-$$" >/dev/null
log "preloaded: $(tr '\n' ' ' < "$WORK/preloaded.txt")"

log "assembling $NODE_IMAGE"
CTX="$NODE_CTX/rootfs"
cp -a "$KIND_FILES/." "$CTX/"
# A node nested in a container whose bounding set lacks CAP_SYS_RESOURCE cannot lower oom_score_adj
# below its parent's ("nsexec: failed to update /proc/self/oom_score_adj: Permission denied" for every
# pod sandbox): restrict_oom_score_adj clamps pod scores to containerd's own. Where the capability
# exists containerd runs at -999 and no pod asks for less, so the setting changes nothing there.
sed -i 's/restrict_oom_score_adj = false/restrict_oom_score_adj = true/' "$CTX/etc/containerd/config.toml"
grep -q 'restrict_oom_score_adj = true' "$CTX/etc/containerd/config.toml" || die "kind's containerd config has no restrict_oom_score_adj line to set"
rm -rf "$CTX/LICENSES" "$CTX/etc/systemd/system/containerd-fuse-overlayfs.service"
mkdir -p "$CTX/usr/bin" "$CTX/usr/local/sbin" "$CTX/kind/manifests"
chmod -R a+rX,go-w "$CTX/etc" "$CTX/kind"
chmod 0755 "$CTX"/usr/local/bin/* "$CTX"/kind/bin/*
for b in kubeadm kubelet kubectl; do install -m 0755 "$K8S_BIN/$b" "$CTX/usr/bin/$b"; done
# Pods inherit the node's capability limits: containerd's runc gets the same CAP_SYS_RESOURCE wrapper.
install -m 0755 "$HACK_DIR/runc-drop-sys-resource" "$CTX/usr/local/sbin/runc"
install -m 0644 "$HACK_DIR/node-image/default-cni.yaml" "$CTX/kind/manifests/default-cni.yaml"
install -m 0644 "$HACK_DIR/node-image/default-storage.yaml" "$CTX/kind/manifests/default-storage.yaml"
# kind templates the CNI manifest only when it carries these marker phrases.
printf '\n# would you kindly template this file\n# would you kindly patch this file\n' >> "$CTX/kind/manifests/default-cni.yaml"
printf '%s' "$KUBERNETES_VERSION" > "$CTX/kind/version"
cat > "$NODE_CTX/Dockerfile" <<EOF
FROM $NODE_BASE
COPY rootfs/ /
RUN ln -sf /usr/bin/containerd /usr/local/bin/containerd \\
 && mkdir -p /opt/cni && rm -rf /opt/cni/bin && ln -s /usr/lib/cni /opt/cni/bin \\
 && ctr oci spec | jq '.hooks.createContainer[.hooks.createContainer|length] |= . + {"path": "/kind/bin/mount-product-files.sh"}' \\
      | jq 'del(.process.rlimits)' > /etc/containerd/cri-base.json \\
 && find /lib/systemd/system/sysinit.target.wants/ -name systemd-tmpfiles-setup.service -delete \\
 && rm -f /lib/systemd/system/multi-user.target.wants/* /etc/systemd/system/*.wants/* \\
      /lib/systemd/system/local-fs.target.wants/* /lib/systemd/system/sockets.target.wants/*udev* \\
      /lib/systemd/system/sockets.target.wants/*initctl* /lib/systemd/system/basic.target.wants/* \\
 && echo "ReadKMsg=no" >> /etc/systemd/journald.conf \\
 && systemctl enable kubelet.service containerd.service undo-mount-hacks.service \\
 && systemctl mask systemd-binfmt.service \\
 && mkdir -p /etc/kubernetes/manifests
LABEL dev.rebootlab.inputs=$HASH dev.rebootlab.kubernetes-version=$KUBERNETES_VERSION
ENV container=docker
STOPSIGNAL SIGRTMIN+3
ENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]
EOF
docker build -q -t "$NODE_IMAGE" "$NODE_CTX" >/dev/null || die "building $NODE_IMAGE failed"
log "$NODE_IMAGE built (inputs $HASH)"
