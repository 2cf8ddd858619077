// The supported Kubernetes versions and the pinned tools, read from versions.json at the repository root: the one
// place they are written (hack/lib.sh reads the same file), so a patch bump is one edit of that file.
import pinned from '../../versions.json' with { type: 'json' };

/**
 * Pinned tools: `kind` (sigs.k8s.io/kind release, one for every Kubernetes version), `localPathProvisioner`,
 * `kwok`, `debianSuite` (node image base), `go` (the oldest Go the toolchain builds with, {@link MIN_GO_VERSION}), and
 * `kubernetesVersions` (see {@link SUPPORTED_KUBERNETES_VERSIONS}).
 * The etcd, CoreDNS and pause versions are not pinned: the toolchain reads them from each Kubernetes version's own
 * kubeadm (cmd/kubeadm/app/constants/constants.go: DefaultEtcdVersion, CoreDNSVersion, PauseVersion) at build time
 * and records them in that version's toolchain file (lib/common/cache.ts).
 */
export const VERSIONS: Readonly<typeof pinned> = Object.freeze({ ...pinned });

/**
 * The oldest Go the toolchain builds with (versions.json `go`, e.g. `1.26`): the go directive of the newest supported
 * k8s.io/kubernetes module's go.mod (v1.37.2: `go 1.26.0`), which hack/build-binaries.sh (GOTOOLCHAIN=local) needs
 * the installed go to meet. hack/toolchain.sh refuses an older go; `rebootlab doctor` reports it.
 */
export const MIN_GO_VERSION: string = pinned.go;

/**
 * Whether a Go version (`go1.26.8`, `1.26`, `go1.27rc1`) is at least `minimum` (`1.26`), comparing the dotted numbers.
 * @returns null when `version` has no leading number (e.g. a `devel` build), which cannot be compared.
 */
export function goVersionAtLeast(version: string, minimum: string): boolean | null {
  const numbers = (v: string) => /^(?:go)?(\d+(?:\.\d+)*)/.exec(v)?.[1]?.split('.').map(Number) ?? null;
  const have = numbers(version);
  const want = numbers(minimum) ?? [0];
  if (have === null) return null;
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const d = (have[i] ?? 0) - (want[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** `v1.37.2` → [1, 37, 2]; null for anything else. */
export function parseKubernetesVersion(version: string): [number, number, number] | null {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function newestFirst(a: string, b: string): number {
  const p = parseKubernetesVersion(a) ?? [0, 0, 0];
  const q = parseKubernetesVersion(b) ?? [0, 0, 0];
  return q[0] - p[0] || q[1] - p[1] || q[2] - p[2];
}

/**
 * The Kubernetes versions rebootlab builds, runs and models, newest first (versions.json `kubernetesVersions`):
 * v1.37.2, v1.36.3, v1.35.4, and v1.34.4 (the version of the recorded fixtures). Every one runs with kind
 * {@link VERSIONS}.kind; kind v0.33.0 generates kubeadm v1beta4 configs for Kubernetes ≥ v1.36 and v1beta3 below
 * (sigs.k8s.io/kind@v0.33.0 pkg/cluster/internal/kubeadm/config.go, `Config`).
 */
export const SUPPORTED_KUBERNETES_VERSIONS: readonly string[] = Object.freeze([...pinned.kubernetesVersions].sort(newestFirst));

/** The version used when an experiment names none: the newest supported patch. */
export const DEFAULT_KUBERNETES_VERSION: string = SUPPORTED_KUBERNETES_VERSIONS[0]!;

/** The supported set as one phrase for messages: `v1.37.2, v1.36.3, v1.35.4 or v1.34.4`. */
export const SUPPORTED_KUBERNETES_VERSIONS_TEXT = SUPPORTED_KUBERNETES_VERSIONS.length === 1
  ? SUPPORTED_KUBERNETES_VERSIONS[0]!
  : `${SUPPORTED_KUBERNETES_VERSIONS.slice(0, -1).join(', ')} or ${SUPPORTED_KUBERNETES_VERSIONS.at(-1)!}`;

/** True when rebootlab supports exactly this version (a listed patch; another patch of a listed minor is not). */
export function isSupportedKubernetesVersion(version: string): boolean {
  return SUPPORTED_KUBERNETES_VERSIONS.includes(version);
}

/** The command that builds `version`'s toolchain: `npm run toolchain` for the default, else with `-- --kubernetes <version>`. */
export function toolchainCommandFor(version: string): string {
  return version === DEFAULT_KUBERNETES_VERSION ? 'npm run toolchain' : `npm run toolchain -- --kubernetes ${version}`;
}
