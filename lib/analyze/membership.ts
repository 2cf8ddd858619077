// Which workload of the experiment a pod belongs to. rebootlab's own pods (built-in and manifest workloads) carry
// label rebootlab.dev/workload=<name>; pods already running (a workload with `namespace` and `selector`) are never
// changed, so they join their workload by namespace and labels instead.
import type { ObjectObservation } from '../observe/types.js';
import { get, label } from './objects.js';
import type { WorkloadRef } from './types.js';

/** Label that ties a pod rebootlab created to the experiment's workload of that name. */
export const WORKLOAD_LABEL = 'rebootlab.dev/workload';

/** A pod record → the name of its workload, or null when it belongs to none. */
export type WorkloadOf = (pod: Pick<ObjectObservation, 'namespace' | 'object'>) => string | null;

/**
 * The membership rule of `workloads`: the pod's rebootlab.dev/workload label when it has one, else the first
 * workload with a `selector` whose namespace is the pod's and whose every label the pod carries (equality-based,
 * as a Kubernetes matchLabels selector); null otherwise. Decided per record: a pod relabelled out of the selector
 * stops counting, as it would for its controller.
 */
export function workloadMembership(workloads: readonly WorkloadRef[]): WorkloadOf {
  const selected = workloads.filter((w) => w.selector !== undefined).map((w) => ({ name: w.name, ...w.selector!, keys: Object.entries(w.selector!.matchLabels) }));
  return (pod) => {
    const own = label(pod.object, WORKLOAD_LABEL);
    if (own !== null || selected.length === 0) return own;
    const labels = get(pod.object, 'metadata', 'labels') as Record<string, unknown> | undefined;
    if (!labels) return null;
    for (const w of selected) {
      if (pod.namespace === w.namespace && w.keys.every(([k, v]) => labels[k] === v)) return w.name;
    }
    return null;
  };
}

/** UID of the pod's controller owner reference (`controller: true`), or null for a pod no controller owns. */
export function controllerUid(pod: Record<string, unknown>): string | null {
  const refs = get(pod, 'metadata', 'ownerReferences');
  if (!Array.isArray(refs)) return null;
  const uid = get(refs.find((r) => get(r, 'controller') === true), 'uid');
  return typeof uid === 'string' ? uid : null;
}
