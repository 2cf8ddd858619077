#!/usr/bin/env bash
# Builds every Go binary the offline toolchain needs, from the Go module proxy, cached by version:
# kind, Kubernetes components, etcd, CoreDNS, local-path-provisioner, kwok, and rebootlab's own
# node helpers (pause, CNI agent) and CSI driver. Output: $REBOOTLAB_CACHE/bin/<name>-<version>/<binary>.
# Usage: hack/build-binaries.sh [kind|kubernetes|etcd|coredns|local-path|kwok|helpers|csi ...]  (default: all)
# The Kubernetes version is $KUBERNETES_VERSION (default: the newest in versions.json); etcd and CoreDNS are the
# versions that Kubernetes version's kubeadm deploys (hack/lib.sh resolve_kubeadm_pins).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=local
BIN_ROOT="$REBOOTLAB_CACHE/bin"
MOD_ROOT="$REBOOTLAB_CACHE/modules"
mkdir -p "$BIN_ROOT" "$MOD_ROOT"

# build_in_wrapper NAME VERSION_KEY GO_MOD_BODY LDFLAGS PACKAGES...
# Creates a throwaway module whose go.mod pins the dependency (and, for Kubernetes, every staging
# module through replace directives), then builds the listed main packages into one directory.
build_in_wrapper() {
  local name="$1" key="$2" gomod="$3" ldflags="$4"; shift 4
  local out="$BIN_ROOT/$name-$key" mod="$MOD_ROOT/$name-$key"
  local stamp_key; stamp_key="$(printf '%s\n%s\n%s\n' "$gomod" "$ldflags" "$*" | sha256sum | cut -c1-12)"
  if stamp_ok "$out/.done" "$stamp_key"; then log "$name $key: cached"; return; fi
  log "$name $key: building $* (cold builds take minutes)"
  rm -rf "$out"; mkdir -p "$out" "$mod"
  printf '%s\n' "$gomod" > "$mod/go.mod"
  printf 'package main\n\nfunc main() {}\n' > "$mod/main.go"
  (cd "$mod" && go mod download && go build -trimpath -ldflags "-s -w $ldflags" -o "$out/" "$@")
  printf '%s' "$stamp_key" > "$out/.done"
}

build_kind() {
  local out="$BIN_ROOT/kind-$KIND_VERSION"
  if stamp_ok "$out/.done" "$KIND_VERSION"; then log "kind $KIND_VERSION: cached"; return; fi
  log "kind $KIND_VERSION: go install"
  mkdir -p "$out"
  # kind's documented install path: go install sigs.k8s.io/kind@<version>.
  GOBIN="$out" GOFLAGS= go install "sigs.k8s.io/kind@$KIND_VERSION"
  printf '%s' "$KIND_VERSION" > "$out/.done"
}

build_kubernetes() {
  local v="$KUBERNETES_VERSION" minor staging mod_dir replaces="" s
  minor="$(echo "$v" | cut -d. -f2)"
  # The staging modules are versioned v0.<minor>.<patch>; the list comes from that version's go.mod.
  mod_dir="$(kubernetes_module_dir)"
  staging="$(sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' "$mod_dir/go.mod")"
  [ -n "$staging" ] || die "no staging modules found in $mod_dir/go.mod"
  for s in $staging; do replaces+="	$s => $s v0.${v#v1.}"$'\n'; done
  local gomod="module rebootlab.local/kubernetes

go 1.24.0

require k8s.io/kubernetes $v

replace (
$replaces)"
  local ld="" key val
  for kv in "gitVersion=$v" "gitMajor=1" "gitMinor=$minor" "gitTreeState=clean" "gitCommit=rebootlab-built-from-go-module-$v" "buildDate=1970-01-01T00:00:00Z"; do
    key="${kv%%=*}"; val="${kv#*=}"
    ld+=" -X k8s.io/component-base/version.$key=$val -X k8s.io/client-go/pkg/version.$key=$val"
  done
  build_in_wrapper kubernetes "$v" "$gomod" "$ld" \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kubeadm k8s.io/kubernetes/cmd/kubectl \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-proxy
}

build_etcd() {
  build_in_wrapper etcd "$ETCD_VERSION" "module rebootlab.local/etcd

go 1.24.0

require go.etcd.io/etcd/server/v3 $ETCD_VERSION" "" go.etcd.io/etcd/server/v3
  # The server module's main package builds as "server"; give it its real name.
  local dir="$BIN_ROOT/etcd-$ETCD_VERSION"
  if [ -f "$dir/server" ]; then mv "$dir/server" "$dir/etcd"; fi
}

build_coredns() {
  build_in_wrapper coredns "$COREDNS_VERSION" "module rebootlab.local/coredns

go 1.24.0

require github.com/coredns/coredns $COREDNS_VERSION" "" github.com/coredns/coredns
}

build_local_path() {
  build_in_wrapper local-path-provisioner "$LOCAL_PATH_PROVISIONER_VERSION" "module rebootlab.local/localpath

go 1.24.0

require github.com/rancher/local-path-provisioner $LOCAL_PATH_PROVISIONER_VERSION" "" github.com/rancher/local-path-provisioner
}

build_kwok() {
  build_in_wrapper kwok "$KWOK_VERSION" "module rebootlab.local/kwok

go 1.24.0

require sigs.k8s.io/kwok $KWOK_VERSION" "" sigs.k8s.io/kwok/cmd/kwok
}

# rebootlab's own small helpers (pause, CNI agent) live in hack/node-helpers as a Go module.
build_helpers() {
  local src="$HACK_DIR/node-helpers" key out
  key="$(cd "$src" && find . -type f | sort | xargs cat | sha256sum | cut -c1-12)"
  out="$BIN_ROOT/node-helpers-$key"
  if stamp_ok "$out/.done" "$key"; then log "node helpers: cached"; else
    log "node helpers: building"
    mkdir -p "$out"
    (cd "$src" && go build -trimpath -ldflags "-s -w" -o "$out/" ./cmd/...)
    printf '%s' "$key" > "$out/.done"
  fi
  ln -sfn "$out" "$BIN_ROOT/node-helpers"
}

# rebootlab's attachable CSI driver (hack/csi-driver): a Go module of its own, so its client-go and grpc
# dependencies neither enlarge the node helpers nor change their hash, which keys every offline node image.
# Output: $REBOOTLAB_CACHE/bin/rebootlab-csi-<source hash>/rebootlab-csi (printed on stdout).
build_csi() {
  local src="$HACK_DIR/csi-driver" key out
  key="$(cd "$src" && find . -type f | sort | xargs cat | sha256sum | cut -c1-12)"
  out="$BIN_ROOT/rebootlab-csi-$key"
  if stamp_ok "$out/.done" "$key"; then log "rebootlab-csi: cached"; else
    log "rebootlab-csi: building (cold builds take a minute)"
    mkdir -p "$out"
    (cd "$src" && go build -trimpath -ldflags "-s -w" -o "$out/rebootlab-csi" .)
    printf '%s' "$key" > "$out/.done"
  fi
  printf '%s\n' "$out/rebootlab-csi"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(kind kubernetes etcd coredns local-path helpers csi)
for t in "${targets[@]}"; do
  case "$t" in
    kind) build_kind ;;
    kubernetes) build_kubernetes ;;
    etcd) resolve_kubeadm_pins; build_etcd ;;
    coredns) resolve_kubeadm_pins; build_coredns ;;
    local-path) build_local_path ;;
    kwok) build_kwok ;;
    helpers) build_helpers ;;
    csi) build_csi ;;
    *) die "unknown build target '$t' (expected kind, kubernetes, etcd, coredns, local-path, kwok, helpers, csi)" ;;
  esac
done
