// Puts one replica of the cluster DNS on a fault target before the fault (a DNS probe's `placeReplicaOnTarget`), so
// the run shows what clients of the DNS see when the node of one of its replicas goes down (case C16). kubeadm
// clusters made by kind schedule both CoreDNS replicas on the control plane, the only node when they are created.
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { Cluster } from '../cluster/index.js';
import { apiError, apiErrorCode, collectionOf, isPodReady, watchList } from '../cluster/index.js';
import type { FaultGuard, GuardEntry } from '../faults/index.js';
import { CLUSTER_DNS_SERVICE, labelSelectorText, listClusterDnsPods } from '../workloads/index.js';

/** How long the moved replica may take to be Ready on the target and the deleted one to go, milliseconds. */
export const PLACE_DNS_REPLICA_TIMEOUT_MS = 180_000;

/** What {@link placeDnsReplica} did; journaled as the `dns-replica-placed` marker's detail. */
export interface DnsReplicaPlacement {
  /** The target node. */
  node: string;
  /** The cluster DNS pod Ready on it afterwards. */
  pod: string;
  /** The pod deleted to make room, or null when a replica already ran on the target. */
  deleted: string | null;
  /** Nodes cordoned meanwhile (and uncordoned again). */
  cordoned: string[];
}

/**
 * Makes sure a Ready, non-terminating cluster DNS pod runs on `target`. If none does: cordons every other
 * schedulable node (each undo registered with `guard` before acting, so a Ctrl-C or `doctor --restore` uncordons
 * it), deletes one cluster DNS pod on another node (the first by name; its ReplicaSet creates the replacement at
 * once, and only `target` can take it), waits until the replacement is Ready on `target` and the deleted pod is
 * gone, then uncordons. CoreDNS tolerates the control-plane taint, so this needs nothing but a schedulable target.
 * @throws InfraError when the API fails, no cluster DNS pod exists, or the replacement is not Ready on the target
 *   within PLACE_DNS_REPLICA_TIMEOUT_MS (the cordons are undone first).
 */
export async function placeDnsReplica(kc: KubeConfig, cluster: Cluster, target: string, guard: FaultGuard, signal?: AbortSignal): Promise<DnsReplicaPlacement> {
  const pods = await listClusterDnsPods(kc);
  const onTarget = pods.find((p) => p.spec?.nodeName === target && isPodReady(p));
  if (onTarget) return { node: target, pod: onTarget.metadata?.name ?? '', deleted: null, cordoned: [] };
  const victim = pods.filter((p) => p.spec?.nodeName !== target).sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))[0];
  if (!victim) throw apiError(`place a cluster DNS replica on ${target}`, new Error(`no pod of ${CLUSTER_DNS_SERVICE.namespace}/${CLUSTER_DNS_SERVICE.name} to move`));
  const victimName = victim.metadata!.name!;
  const core = kc.makeApiClient(CoreV1Api);
  const others = (await core.listNode()).items.filter((n) => n.metadata?.name !== target && !n.spec?.unschedulable).map((n) => n.metadata!.name!);
  const entries: GuardEntry[] = [];
  try {
    for (const node of others) {
      await cluster.act(node, 'cordon', {
        beforeAct: (undo, record) => void entries.push(guard.register(`cordon ${node} (cluster DNS replica moved to ${target})`, [node], undo, record.restoreCommands)),
      });
    }
    try {
      await core.deleteNamespacedPod({ namespace: CLUSTER_DNS_SERVICE.namespace, name: victimName });
    } catch (error) {
      if (apiErrorCode(error) !== 404) throw apiError(`delete pod ${CLUSTER_DNS_SERVICE.namespace}/${victimName}`, error);
    }
    const selector = labelSelectorText(Object.fromEntries(Object.entries(victim.metadata?.labels ?? {}).filter(([k]) => k !== 'pod-template-hash')));
    const settled = await watchList(kc, collectionOf(kc, 'Pod', { namespace: CLUSTER_DNS_SERVICE.namespace, labelSelector: selector }), (objects) => {
      const all = [...objects.values()];
      return !all.some((p) => p.metadata?.name === victimName) && all.some((p) => p.spec?.nodeName === target && !p.metadata?.deletionTimestamp && isPodReady(p));
    }, {
      timeoutMs: PLACE_DNS_REPLICA_TIMEOUT_MS,
      what: `a cluster DNS pod Ready on ${target} (after deleting ${victimName} with every other node cordoned)`,
      ...(signal ? { signal } : {}),
      describe: (objects) => [...objects.values()].map(describePod).join('; '),
    });
    const moved = [...settled.values()].find((p) => p.spec?.nodeName === target && !p.metadata?.deletionTimestamp && isPodReady(p))!;
    return { node: target, pod: moved.metadata?.name ?? '', deleted: victimName, cordoned: others };
  } finally {
    for (const entry of entries.reverse()) await guard.release(entry);
  }
}

function describePod(p: V1Pod): string {
  return `${p.metadata?.name ?? '?'} on ${p.spec?.nodeName ?? 'no node'}${p.metadata?.deletionTimestamp ? ' (terminating)' : isPodReady(p) ? ' (Ready)' : ' (not Ready)'}`;
}
