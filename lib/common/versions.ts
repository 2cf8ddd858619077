// The supported Kubernetes versions and the pinned tools, read from versions.json at the repository root: the one
// place they are written (hack/lib.sh reads the same file), so a patch bump is one edit of that file.
import pinned from '../../versions.json' with { type: 'json' };

/**
 * Pinned tools: `kind` (sigs.k8s.io/kind release, one for every Kubernetes version), `localPathProvisioner`,
 * `kwok`, `debianSuite` (node image base), and `kubernetesVersions` (see {@link SUPPORTED_KUBERNETES_VERSIONS}).
 * The etcd, CoreDNS and pause versions are not pinned: the toolchain reads them from each Kubernetes version's own
 * kubeadm (cmd/kubeadm/app/constants/constants.go: DefaultEtcdVersion, CoreDNSVersion, PauseVersion) at build time
 * and records them in that version's toolchain file (lib/common/cache.ts).
 */
export const VERSIONS: Readonly<typeof pinned> = Object.freeze({ ...pinned });

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
