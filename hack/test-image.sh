#!/usr/bin/env bash
# Builds rebootlab/test-busybox:1, the tiny image the Docker integration tests run: Debian's static
# busybox in an otherwise empty root filesystem, loaded with `docker import` (no registry needed).
# Idempotent and fast when the image exists; installs busybox-static from Debian when it is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

IMAGE="${REBOOTLAB_TEST_IMAGE:-rebootlab/test-busybox:1}"

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE present"
  exit 0
fi

# Debian's busybox-static installs /bin/busybox; the plain busybox package is dynamically linked.
BUSYBOX=/bin/busybox
if ! { [ -x "$BUSYBOX" ] && file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked'; } && \
   ! { [ -x "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1; }; then
  command -v apt-get >/dev/null || die "a static busybox is needed: install Debian's busybox-static"
  [ "$(id -u)" = 0 ] || die "installing busybox-static needs root"
  log "installing busybox-static from Debian"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox-static >/dev/null
fi

ROOTFS="$(mktemp -d)"
trap 'rm -rf "$ROOTFS"' EXIT
mkdir -p "$ROOTFS/bin" "$ROOTFS/tmp" "$ROOTFS/data"
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
# Applets as symlinks, so `sh`, `sleep`, `cat`... exist by name. Containers stop fast only when run
# with `--stop-signal KILL` (a shell as PID 1 ignores SIGTERM; import cannot set STOPSIGNAL).
for applet in $("$BUSYBOX" --list); do
  [ "$applet" = busybox ] || ln -sf busybox "$ROOTFS/bin/$applet"
done

log "importing $IMAGE"
tar -C "$ROOTFS" -c . | docker import \
  --change 'CMD ["/bin/sh"]' \
  --change 'ENV PATH=/bin' \
  - "$IMAGE" >/dev/null
log "$IMAGE built"
