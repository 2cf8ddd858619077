#!/usr/bin/env bash
# Builds the Debian root filesystems the offline images start from, with debootstrap, and imports
# each as a Docker image (no registry needed). Cached by recipe: an image that exists is not rebuilt.
#   rebootlab/node-base:<hash>  systemd, containerd, runc, iptables/nft, CNI plugins: the kind node's OS
#   rebootlab/util-base:<hash>  minbase + iptables, iproute2, conntrack: kube-proxy and the CNI agent
#   rebootlab/busybox:<hash>    a static busybox only: the workload and local-path helper images
# Prints the three image references as NAME=REF lines on stdout.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

: "${DEBIAN_MIRROR:=http://deb.debian.org/debian}"

# What kind's base image installs (images/base/Dockerfile in the kind module), plus Debian's own
# containerd, runc and CNI plugins in place of kind's source builds.
NODE_PACKAGES="systemd,systemd-sysv,dbus,conntrack,iptables,nftables,iproute2,ethtool,util-linux,mount,kmod,\
libseccomp2,pigz,fuse-overlayfs,nfs-common,bash,ca-certificates,curl,jq,procps,containerd,runc,\
containernetworking-plugins,ipset,socat,ebtables,e2fsprogs"
UTIL_PACKAGES="iptables,nftables,iproute2,conntrack,ipset,kmod,procps"

ensure_tools() {
  command -v debootstrap >/dev/null && command -v busybox >/dev/null 2>&1 && [ -x /bin/busybox ] && return
  log "installing debootstrap and busybox-static from Debian"
  [ -f /tmp/.rebootlab-apt-updated ] || { apt-get update -qq && touch /tmp/.rebootlab-apt-updated; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap busybox-static >/dev/null
}

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

# debootstrap_image NAME VARIANT PACKAGES [docker import --change ...]
debootstrap_image() {
  local name="$1" variant="$2" packages="$3"; shift 3
  local ref="rebootlab/$name:$(recipe_hash "$name $variant $packages $DEBIAN_SUITE $*" /dev/null)"
  if image_exists "$ref"; then log "$ref: cached"; echo "$ref"; return; fi
  local root; root="$(mktemp -d "$REBOOTLAB_CACHE/rootfs-$name.XXXX")"
  log "$ref: debootstrap $DEBIAN_SUITE ($variant), about a minute"
  debootstrap --variant="$variant" --include="$packages" "$DEBIAN_SUITE" "$root" "$DEBIAN_MIRROR" >"$root.log" 2>&1 \
    || die "debootstrap failed for $name; see $root.log"
  # Keep the images small: no apt lists, docs or caches.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/*
  local changes=()
  for c in "$@"; do changes+=(--change "$c"); done
  tar -C "$root" -c . | docker import "${changes[@]}" - "$ref" >/dev/null || die "docker import of $name failed"
  rm -rf "$root" "$root.log"
  echo "$ref"
}

busybox_image() {
  local applets="sh ls cat echo mkdir rm rmdir chmod sleep mount touch sync test date hostname id wc head tail wget nc ping ip ps grep sed"
  local ref="rebootlab/busybox:$(recipe_hash "busybox $applets" /bin/busybox)"
  if image_exists "$ref"; then log "$ref: cached"; echo "$ref"; return; fi
  local root; root="$(mktemp -d)"
  mkdir -p "$root/bin" "$root/tmp" "$root/etc" "$root/data"
  cp /bin/busybox "$root/bin/busybox"
  for applet in $applets; do
    ln -s busybox "$root/bin/$applet"
  done
  printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$root/etc/passwd"
  tar -C "$root" -c . | docker import --change 'ENV PATH=/bin' - "$ref" >/dev/null || die "docker import of busybox failed"
  rm -rf "$root"
  echo "$ref"
}

main() {
  mkdir -p "$REBOOTLAB_CACHE"
  ensure_tools
  local node util bb
  if [ "${1:-}" = node-base ]; then debootstrap_image node-base minbase "$NODE_PACKAGES" 'ENV container=docker'; return; fi
  # STOPSIGNAL cannot be set by docker import; the node image's Dockerfile sets it.
  node="$(debootstrap_image node-base minbase "$NODE_PACKAGES" 'ENV container=docker')"
  util="$(debootstrap_image util-base minbase "$UTIL_PACKAGES")"
  bb="$(busybox_image)"
  printf 'NODE_BASE=%s\nUTIL_BASE=%s\nBUSYBOX=%s\n' "$node" "$util" "$bb"
}
main "$@"
