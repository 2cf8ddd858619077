// Pods already running, made a workload by namespace and label selector (`workloads: [{name, namespace, selector}]`).
// rebootlab only reads them: it lists the pods and their controllers (ownerReferences; a ReplicaSet's own controller
// when a Deployment owns it) to learn the workload's kind and desired pods. It never creates, changes or deletes them.
import { AppsV1Api, BatchV1Api, CoreV1Api, type KubeConfig, type V1OwnerReference, type V1Pod } from '@kubernetes/client-node';
import { InputError } from '../common/errors.js';
import { apiError, apiErrorCode } from '../cluster/kube-client.js';
import type { SelectedPods, WorkloadSpec } from '../spec/types.js';

/** What the start of a run read of one selected workload. */
export interface SelectedWorkload {
  /** Kind of the pods' controllers (`Deployment`, `StatefulSet`, `DaemonSet`, `Job`, `Pod` for pods no controller owns, or another owner's kind such as a custom resource), distinct kinds joined with `+`, sorted. */
  kind: string;
  /**
   * Desired pods: the sum of each controller's replicas (Deployment, StatefulSet, ReplicaSet), parallelism (Job),
   * or 1 per standalone pod; null when a controller has no fixed count (DaemonSet, other owners), in which case the
   * analysis takes the Ready count at the fault.
   */
  desiredReplicas: number | null;
  /** The controllers, `Kind/name`, sorted. */
  controllers: string[];
  /** Pods matched (not terminating) when read. */
  pods: number;
}

/** `{a: 'b', c: 'd'}` → `a=b,c=d`, the labelSelector of a list call. */
export function labelSelectorText(matchLabels: Readonly<Record<string, string>>): string {
  return Object.entries(matchLabels).map(([k, v]) => `${k}=${v}`).join(',');
}

/** The controller owner reference of a pod (`controller: true`), or undefined for a standalone pod. */
function controllerOf(refs: readonly V1OwnerReference[] | undefined): V1OwnerReference | undefined {
  return refs?.find((r) => r.controller === true);
}

/** Pods in `selected.namespace` with every label of `selected.matchLabels`, not terminating. @throws InfraError. */
export async function listSelectedPods(kc: KubeConfig, selected: SelectedPods): Promise<V1Pod[]> {
  const core = kc.makeApiClient(CoreV1Api);
  try {
    const list = await core.listNamespacedPod({ namespace: selected.namespace, labelSelector: labelSelectorText(selected.matchLabels) });
    return list.items.filter((p) => !p.metadata?.deletionTimestamp);
  } catch (error) {
    throw apiError(`list pods in namespace ${selected.namespace} with labels ${labelSelectorText(selected.matchLabels)}`, error);
  }
}

/**
 * Reads every workload with `selected` set: its pods and their controllers. Workloads rebootlab creates are skipped.
 * @returns workload name → what was read.
 * @throws InputError (one line naming the workload, namespace and selector) when no running pod matches;
 *   InfraError when the API server fails.
 */
export async function resolveSelectedWorkloads(kc: KubeConfig, workloads: readonly WorkloadSpec[]): Promise<Map<string, SelectedWorkload>> {
  const resolved = new Map<string, SelectedWorkload>();
  for (const w of workloads) {
    if (!w.selected) continue;
    const { namespace, matchLabels } = w.selected;
    const pods = await listSelectedPods(kc, w.selected);
    if (pods.length === 0) {
      throw new InputError(`workloads.${w.name}: no running pod in namespace ${namespace} has labels ${labelSelectorText(matchLabels)}; check with kubectl get pods -n ${namespace} -l ${labelSelectorText(matchLabels)}`);
    }
    // Controller `Kind/name` → desired pods (null: no fixed count).
    const controllers = new Map<string, number | null>();
    for (const pod of pods) {
      const owner = controllerOf(pod.metadata?.ownerReferences);
      if (!owner) {
        const key = `Pod/${pod.metadata?.name ?? ''}`;
        controllers.set(key, 1);
        continue;
      }
      const top = owner.kind === 'ReplicaSet' ? await replicaSetOwner(kc, namespace, owner.name) : owner;
      const key = `${top.kind}/${top.name}`;
      if (!controllers.has(key)) controllers.set(key, await desiredOf(kc, namespace, top));
    }
    const keys = [...controllers.keys()].sort();
    const counts = [...controllers.values()];
    resolved.set(w.name, {
      kind: [...new Set(keys.map((k) => k.split('/')[0]!))].sort().join('+'),
      desiredReplicas: counts.some((c) => c === null) ? null : counts.reduce<number>((sum, c) => sum + c!, 0),
      controllers: keys,
      pods: pods.length,
    });
  }
  return resolved;
}

/** The Deployment that controls ReplicaSet `name`, or the ReplicaSet itself when none does. */
async function replicaSetOwner(kc: KubeConfig, namespace: string, name: string): Promise<Pick<V1OwnerReference, 'kind' | 'name'>> {
  try {
    const rs = await kc.makeApiClient(AppsV1Api).readNamespacedReplicaSet({ name, namespace });
    const owner = controllerOf(rs.metadata?.ownerReferences);
    return owner?.kind === 'Deployment' ? owner : { kind: 'ReplicaSet', name };
  } catch (error) {
    if (apiErrorCode(error) === 404) return { kind: 'ReplicaSet', name };
    throw apiError(`read ReplicaSet ${namespace}/${name}`, error);
  }
}

/** Desired pods of a controller: `spec.replicas` (default 1), Job `spec.parallelism` (default 1); null for others. */
async function desiredOf(kc: KubeConfig, namespace: string, owner: Pick<V1OwnerReference, 'kind' | 'name'>): Promise<number | null> {
  const { kind, name } = owner;
  try {
    const apps = kc.makeApiClient(AppsV1Api);
    if (kind === 'Deployment') return (await apps.readNamespacedDeployment({ name, namespace })).spec?.replicas ?? 1;
    if (kind === 'StatefulSet') return (await apps.readNamespacedStatefulSet({ name, namespace })).spec?.replicas ?? 1;
    if (kind === 'ReplicaSet') return (await apps.readNamespacedReplicaSet({ name, namespace })).spec?.replicas ?? 1;
    if (kind === 'Job') return (await kc.makeApiClient(BatchV1Api).readNamespacedJob({ name, namespace })).spec?.parallelism ?? 1;
    return null;
  } catch (error) {
    if (apiErrorCode(error) === 404) return null;
    throw apiError(`read ${kind} ${namespace}/${name}`, error);
  }
}
