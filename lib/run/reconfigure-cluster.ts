// Reconfigures a cluster in place between variants of a matrix (only timeout flags differ) and waits,
// through watches, until every restarted component runs again and the controller-manager leads again.
import * as k8s from '@kubernetes/client-node';
import type { Cluster, Collection, ObjectsByKey, ReconfiguredComponent } from '../cluster/index.js';
import { collectionOf, isPodReady, loadKubeConfig, watchList } from '../cluster/index.js';
import { InfraError } from '../common/errors.js';
import type { ClusterSpec } from '../spec/types.js';
import type { Progress } from './progress.js';

/** How long restarted control-plane components may take to be Ready again, milliseconds. */
const COMPONENT_READY_TIMEOUT_MS = 240_000;
/** How long the kubelets may take to serve the new config on /configz after a restart, milliseconds. */
const KUBELET_CONFIG_TIMEOUT_MS = 90_000;
/** Leader-elected components whose Lease (kube-system) shows that a new process leads and works. */
const LEADER_LEASES: Partial<Record<ReconfiguredComponent, string>> = {
  'kube-controller-manager': 'kube-controller-manager',
  'kube-scheduler': 'kube-scheduler',
};

/**
 * True when a cluster made for `from` can serve `to` by reconfiguring in place: the same provider, name,
 * Kubernetes version, node image, worker count and zones (so the same nodes); only timeout settings,
 * extra flags and kubelet fields may differ.
 */
export function reconfigurableInPlace(from: ClusterSpec, to: ClusterSpec): boolean {
  const shape = (s: ClusterSpec) => JSON.stringify([s.provider, s.name, s.kubernetesVersion, s.nodeImage, s.workers, s.zones, s.workerLabels]);
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
): Promise<{ restarted: ReconfiguredComponent[]; durationMs: number } | null> {
  if (!cluster.reconfigure) return null;
  const started = Date.now();
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
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
    await waitThroughRestarts(kc, collectionOf(kc, 'Pod', { namespace: 'kube-system' }), (pods) => staticPods.every((component) => {
      const pod = pods.get(`kube-system/${component}-${controlPlane}`);
      const startedAt = pod?.status?.containerStatuses?.[0]?.state?.running?.startedAt;
      return pod !== undefined && isPodReady(pod) && !!startedAt && new Date(startedAt).getTime() >= writtenSecondMs;
    }), `${staticPods.join(', ')} restarted and Ready`, signal);
    // A restarted controller-manager waits for the old leader's Lease to expire (15 s) before its node
    // lifecycle controller runs; an apiserver restart can make it lose and re-take the lease. A renewal
    // seen after the pods are Ready proves a live leader.
    const componentsReadyAtMs = Date.now();
    const leases = Object.entries(LEADER_LEASES).filter(([c]) => restarted.includes(c as ReconfiguredComponent) || restarted.includes('kube-apiserver'));
    await waitThroughRestarts(kc, collectionOf(kc, 'Lease', { namespace: 'kube-system' }), (all) => leases.every(([component, leaseName]) => {
      const lease = all.get(`kube-system/${leaseName}`);
      const holder = lease?.spec?.holderIdentity ?? '';
      const renewedMs = lease?.spec?.renewTime ? new Date(lease.spec.renewTime as unknown as string).getTime() : 0;
      const newHolder = !restarted.includes(component as ReconfiguredComponent) || (holder !== '' && holder !== holdersBefore.get(leaseName));
      return newHolder && renewedMs >= componentsReadyAtMs - 1000;
    }), `a new ${leases.map(([, l]) => l).join(' and ')} leader`, signal);
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

/**
 * {@link watchList} that outlives an API server restart: while the apiserver is down the list fails, so the
 * wait is started again every second until `done` holds or 240 s (COMPONENT_READY_TIMEOUT_MS) have passed.
 * @throws InfraError from the last attempt once the time is up, or when `signal` aborts.
 */
async function waitThroughRestarts<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  collection: Collection<T>,
  done: (objects: ObjectsByKey<T>) => boolean,
  what: string,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + COMPONENT_READY_TIMEOUT_MS;
  for (;;) {
    try {
      await watchList(kc, collection, done, { timeoutMs: Math.max(1, deadline - Date.now()), what, signal });
      return;
    } catch (error) {
      if (signal.aborted || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
