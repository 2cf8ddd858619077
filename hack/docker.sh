#!/usr/bin/env bash
# Makes sure a Docker engine answers `docker info`: installs Debian's docker.io when dockerd is
# missing, registers the runc wrapper when the capability bounding set lacks CAP_SYS_RESOURCE
# (else `docker run --privileged` fails with "unable to apply caps"), and starts dockerd in the
# background (no systemd on the host). Idempotent: does nothing when the engine already answers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DOCKERD_LOG="${DOCKERD_LOG:-/var/log/rebootlab-dockerd.log}"
WRAPPER=/usr/local/bin/runc-nosysres

apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found: install $* by hand"
  [ "$(id -u)" = 0 ] || die "installing $* needs root: run 'sudo npm run toolchain'"
  log "installing $* from Debian"
  # Update the package lists only once per toolchain run; they can be stale on a fresh machine.
  if [ ! -f /tmp/.rebootlab-apt-updated ]; then apt-get update -qq && touch /tmp/.rebootlab-apt-updated; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# CAP_SYS_RESOURCE is capability 24; CapBnd is a hex mask.
lacks_sys_resource() {
  local mask; mask="$(awk '/^CapBnd:/ {print $2}' /proc/self/status)"
  (( (0x$mask >> 24 & 1) == 0 ))
}

configure_runtime() {
  command -v jq >/dev/null || apt_install jq
  install -m 0755 "$HACK_DIR/runc-drop-sys-resource" "$WRAPPER"
  mkdir -p /etc/docker
  local current='{}'
  [ -s /etc/docker/daemon.json ] && current="$(cat /etc/docker/daemon.json)"
  printf '%s' "$current" | jq --arg p "$WRAPPER" \
    '.runtimes["runc-nosysres"] = {path: $p} | .["default-runtime"] = "runc-nosysres"' > /etc/docker/daemon.json.new
  if ! cmp -s /etc/docker/daemon.json.new /etc/docker/daemon.json 2>/dev/null; then
    mv /etc/docker/daemon.json.new /etc/docker/daemon.json
    log "registered $WRAPPER as dockerd's default runtime (this machine lacks CAP_SYS_RESOURCE)"
    return 0
  fi
  rm -f /etc/docker/daemon.json.new
  return 1
}

engine_answers() { timeout 10 docker info >/dev/null 2>&1; }

start_dockerd() {
  log "starting dockerd (log: $DOCKERD_LOG)"
  nohup dockerd >>"$DOCKERD_LOG" 2>&1 </dev/null &
  local i
  for i in $(seq 1 60); do
    engine_answers && { log "dockerd answers"; return; }
    sleep 1
  done
  die "dockerd did not answer within 60 s; see $DOCKERD_LOG"
}

main() {
  command -v docker >/dev/null && command -v dockerd >/dev/null || apt_install docker.io
  command -v jq >/dev/null || apt_install jq
  local changed=1
  if lacks_sys_resource; then configure_runtime && changed=0 || true; fi
  if engine_answers; then
    if [ "$changed" = 0 ]; then
      # The runtime was registered while dockerd runs: SIGHUP reloads daemon.json's runtimes.
      pkill -HUP -x dockerd || true
      sleep 1
    fi
    log "Docker engine answers"
    return
  fi
  [ "$(id -u)" = 0 ] || die "Docker engine not running and starting dockerd needs root"
  start_dockerd
}
main "$@"
