// Reconfigures a cluster in place between variants of a matrix (only timeout flags differ) and waits,
// through watches, until every restarted component runs again and the controller-manager leads again.
import * as k8s from '@kubernetes/client-node';
import type { Cluster, ControlPlaneComponent } from '../cluster/index.js';
import { loadKubeConfig } from '../cluster/index.js';
import { InfraError } from '../common/errors.js';
import type { ClusterSpec } from '../spec/types.js';
import { waitForList } from './prepare-cluster.js';
import type { Progress } from './progress.js';

/** How long restarted control-plane components may take to be Ready again, milliseconds. */
const COMPONENT_READY_TIMEOUT_MS = 240_000;
/** How long the kubelets may take to serve the new config on /configz after a restart, milliseconds. */
const KUBELET_CONFIG_TIMEOUT_MS = 90_000;
/** Leader-elected components whose Lease (kube-system) shows that a new process leads and works. */
const LEADER_LEASES: Partial<Record<ControlPlaneComponent, string>> = {
  'kube-controller-manager': 'kube-controller-manager',
  'kube-scheduler': 'kube-scheduler',
};

/**
 * True when a cluster made for `from` can serve `to` by reconfiguring in place: the same provider, name,
 * Kubernetes version, node image, worker count and zones (so the same nodes); only timeout settings,
 * extra flags and kubelet fields may differ.
 */
export function reconfigurableInPlace(from: ClusterSpec, to: ClusterSpec): boolean {
  const shape = (s: ClusterSpec) => JSON.stringify([s.provider, s.name, s.kubernetesVersion, s.nodeImage, s.workers, s.zones]);
  return shape(from) === shape(to);
}

/**
 * Puts `spec` into effect on `cluster` with {@link Cluster.reconfigure}, then waits until each restarted
 * static pod's mirror pod runs a container started after the rewrite and is Ready, the controller-manager's
 * (and scheduler's) leader Lease is held by a new process and renewed, and every kubelet's /configz shows
 * the new kubelet settings. The apiserver is down for part of that: the watches re-open until it answers.
 * @returns the components restarted and how long the whole change took (milliseconds), or null when the
 *   cluster cannot be reconfigured in place (its provider has no `reconfigure`).
 * @throws InfraError when a component is not back within 240 s, or the kubelets within 90 s.
 */
export async function reconfigureInPlace(
  cluster: Cluster,
  spec: ClusterSpec,
  previous: ClusterSpec | null,
  progress: Progress,
  signal: AbortSignal,
): Promise<{ restarted: ControlPlaneComponent[]; durationMs: number } | null> {
  if (!cluster.reconfigure) return null;
  const started = Date.now();
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const leaseHolders = async () => {
    const leases = await coordination.listNamespacedLease({ namespace: 'kube-system' });
    return new Map(leases.items.map((l) => [l.metadata?.name ?? '', l.spec?.holderIdentity ?? '']));
  };
  const holdersBefore = await leaseHolders();
  const { restarted, writtenAtMs } = await cluster.reconfigure(spec, previous);
  if (restarted.length === 0) return { restarted, durationMs: Date.now() - started };
  progress.phase(`reconfigured ${cluster.name} in place: restarting ${restarted.join(', ')}`);

  const staticPods = restarted.filter((c) => c !== 'kubelet');
  if (staticPods.length > 0) {
    const controlPlane = (await cluster.nodes()).find((n) => n.role === 'control-plane')?.name;
    if (!controlPlane) throw new InfraError(`cluster ${cluster.name} has no control-plane node`, 'Run: rebootlab doctor');
    // The container start time has second precision: compare against the second of the rewrite.
    const writtenSecondMs = Math.floor(writtenAtMs / 1000) * 1000;
    await waitForList(kc, '/api/v1/namespaces/kube-system/pods', () => core.listNamespacedPod({ namespace: 'kube-system' }),
      (items) => staticPods.every((component) => {
        const pod = items.find((p) => p.metadata?.name === `${component}-${controlPlane}`) as k8s.V1Pod | undefined;
        const startedAt = pod?.status?.containerStatuses?.[0]?.state?.running?.startedAt;
        const ready = pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        return !!ready && !!startedAt && new Date(startedAt).getTime() >= writtenSecondMs;
      }),
      COMPONENT_READY_TIMEOUT_MS, `${staticPods.join(', ')} restarted and Ready`, signal);
    // A restarted controller-manager waits for the old leader's Lease to expire (15 s) before its node
    // lifecycle controller runs; an apiserver restart can make it lose and re-take the lease. A renewal
    // seen after the pods are Ready proves a live leader.
    const componentsReadyAtMs = Date.now();
    const leases = Object.entries(LEADER_LEASES).filter(([c]) => restarted.includes(c as ControlPlaneComponent) || restarted.includes('kube-apiserver'));
    await waitForList(kc, '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', () => coordination.listNamespacedLease({ namespace: 'kube-system' }),
      (items) => leases.every(([component, leaseName]) => {
        const lease = items.find((l) => l.metadata?.name === leaseName) as k8s.V1Lease | undefined;
        const holder = lease?.spec?.holderIdentity ?? '';
        const renewedMs = lease?.spec?.renewTime ? new Date(lease.spec.renewTime as unknown as string).getTime() : 0;
        const newHolder = !restarted.includes(component as ControlPlaneComponent) || (holder !== '' && holder !== holdersBefore.get(leaseName));
        return newHolder && renewedMs >= componentsReadyAtMs - 1000;
      }),
      COMPONENT_READY_TIMEOUT_MS, `a new ${leases.map(([, l]) => l).join(' and ')} leader`, signal);
  }

  if (restarted.includes('kubelet')) {
    const wanted = spec.settings.kubelet;
    const deadline = Date.now() + KUBELET_CONFIG_TIMEOUT_MS;
    for (;;) {
      const effective = await cluster.effectiveSettings().catch(() => null);
      const nodes = (await cluster.nodes()).length;
      const k = effective?.settings.kubelet;
      if (effective && Object.keys(effective.kubeletConfigs).length === nodes && k
        && (Object.keys(wanted) as (keyof typeof wanted)[]).every((key) => k[key] === wanted[key]) && effective.inconsistent.length === 0) break;
      if (signal.aborted) throw new InfraError('interrupted while waiting for the kubelets to restart');
      // /configz answers only once a kubelet is up again; there is no object to watch for that.
      if (Date.now() > deadline) throw new InfraError(`kubelets of ${cluster.name} did not serve the new config within ${KUBELET_CONFIG_TIMEOUT_MS / 1000} s`, 'Run: rebootlab doctor');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  return { restarted, durationMs: Date.now() - started };
}
