// Gets a cluster ready for a run: every node Ready, no workloads left from an earlier run, and the
// timeout settings actually in effect read back (they, not the requested ones, drive the predictions).
import * as k8s from '@kubernetes/client-node';
import type { Cluster } from '../cluster/index.js';
import { collectionOf, isNodeReady, loadKubeConfig, watchList } from '../cluster/index.js';
import { InputError } from '../common/errors.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { ClusterSpec } from '../spec/types.js';
import { MANAGED_BY_LABEL, WORKLOAD_NAMESPACE } from '../workloads/index.js';
import type { Progress } from './progress.js';

/** How long a fresh or reused cluster may take to have every node Ready, milliseconds. */
const NODES_READY_TIMEOUT_MS = 300_000;
/** How long deleting the previous run's namespace may take, milliseconds. */
const NAMESPACE_GONE_TIMEOUT_MS = 180_000;

/**
 * Waits until every node is Ready and the `rebootlab` namespace of an earlier run is gone, then reads
 * the effective settings. Differences from the requested settings are logged as warnings.
 * @returns the effective timeout settings (durations in milliseconds).
 * @throws InfraError when nodes stay NotReady or the namespace is not deleted in time; InputError when a worker lacks
 *   one of `spec.workerLabels` (a reused cluster made without them).
 */
export async function prepareCluster(cluster: Cluster, spec: ClusterSpec, progress: Progress, signal: AbortSignal): Promise<{ settings: TimeoutSettings }> {
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  progress.phase(`waiting for every node of ${cluster.name} to be Ready`);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await watchList(kc, collectionOf(kc, 'Node'), (nodes) => nodes.size > 0 && [...nodes.values()].every(isNodeReady),
    { timeoutMs: NODES_READY_TIMEOUT_MS, what: 'every node Ready', signal });
  await checkWorkerLabels(core, cluster, spec);
  const existing = await core.listNamespace({ fieldSelector: `metadata.name=${WORKLOAD_NAMESPACE}` });
  if (existing.items.length > 0) {
    progress.phase(`deleting namespace ${WORKLOAD_NAMESPACE} left by an earlier run`);
    // Pods on a node that was down may hang in Terminating: delete them at once (grace 0).
    await core.deleteCollectionNamespacedPod({ namespace: WORKLOAD_NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
    await core.deleteNamespace({ name: WORKLOAD_NAMESPACE }).catch(() => undefined);
    await watchList(kc, collectionOf(kc, 'Namespace', { fieldSelector: `metadata.name=${WORKLOAD_NAMESPACE}` }), (namespaces) => namespaces.size === 0,
      { timeoutMs: NAMESPACE_GONE_TIMEOUT_MS, what: `namespace ${WORKLOAD_NAMESPACE} deleted`, signal });
  }
  // Local PersistentVolumes of an earlier run are cluster-scoped and outlive the namespace (Retain):
  // left Released, they would keep the next run's claims Pending.
  const leftovers = await core.listPersistentVolume({ labelSelector: `${MANAGED_BY_LABEL}=rebootlab` });
  if (leftovers.items.length > 0) {
    progress.phase(`deleting ${leftovers.items.length} PersistentVolume(s) left by an earlier run`);
    for (const pv of leftovers.items) await core.deletePersistentVolume({ name: pv.metadata!.name! }).catch(() => undefined);
    await watchList(kc, collectionOf(kc, 'PersistentVolume', { labelSelector: `${MANAGED_BY_LABEL}=rebootlab` }), (volumes) => volumes.size === 0,
      { timeoutMs: NAMESPACE_GONE_TIMEOUT_MS, what: 'old PersistentVolumes deleted', signal });
  }
  const effective = await cluster.effectiveSettings();
  for (const path of differences(spec.settings, effective.settings)) {
    progress.log('warn', `${path}: requested ${lookup(spec.settings, path)}, in effect ${lookup(effective.settings, path)}`);
  }
  return { settings: effective.settings };
}

/**
 * `cluster.workerLabels` are set when the workers register: a reused cluster made without them does not have them, and
 * nothing here adds them (a kubelet would not keep them across a re-registration either).
 * @throws InputError naming the first worker without one.
 */
async function checkWorkerLabels(core: k8s.CoreV1Api, cluster: Cluster, spec: ClusterSpec): Promise<void> {
  const wanted = Object.entries(spec.workerLabels);
  if (wanted.length === 0) return;
  const workers = new Set((await cluster.nodes()).filter((n) => n.role === 'worker').map((n) => n.name));
  for (const node of (await core.listNode()).items.filter((n) => workers.has(n.metadata?.name ?? ''))) {
    const missing = wanted.find(([k, v]) => node.metadata?.labels?.[k] !== v);
    if (missing) {
      throw new InputError(`worker ${node.metadata?.name} of cluster ${cluster.name} has no label ${missing[0]}=${missing[1]} (cluster.workerLabels are set when the workers register)`,
        `Use a new cluster: rebootlab cluster delete --name ${cluster.name}, or another cluster.name`);
    }
  }
}

/** Dotted paths (e.g. `kubelet.nodeLeaseDurationSeconds`) whose values differ. */
function differences(a: TimeoutSettings, b: TimeoutSettings): string[] {
  const paths: string[] = [];
  for (const [group, values] of Object.entries(a) as [keyof TimeoutSettings, Record<string, number>][]) {
    for (const [key, value] of Object.entries(values)) {
      if ((b[group] as Record<string, number>)[key] !== value) paths.push(`${group}.${key}`);
    }
  }
  return paths;
}

function lookup(settings: TimeoutSettings, path: string): unknown {
  const [group, key] = path.split('.') as [keyof TimeoutSettings, string];
  return (settings[group] as Record<string, unknown>)[key];
}
