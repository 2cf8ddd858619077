// The pinned versions of everything the toolchain builds, read from versions.json at the repository root: the
// one place they are written (hack/lib.sh reads the same file), so a version bump changes one line.
import pinned from '../../versions.json' with { type: 'json' };

/**
 * Pinned versions: `kind` (sigs.k8s.io/kind release), `kubernetes` (k8s.io/kubernetes, also the node image tag),
 * `etcd`, `etcdImageTag`, `coredns`, `pauseImageTag` (the ones kubeadm of that Kubernetes minor expects:
 * cmd/kubeadm/app/constants/constants.go), `localPathProvisioner`, `kwok`, `debianSuite` (node image base).
 */
export const VERSIONS: Readonly<typeof pinned> = Object.freeze({ ...pinned });
