// Readers for the fields of journaled Kubernetes objects (Node, Lease, Pod), which are untyped JSON.

type Obj = Record<string, unknown>;

/** The value at `path` inside an untyped JSON object, or undefined where a step is missing or not an object. */
export function get(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Obj)[key];
  }
  return cur;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A status condition (Node or Pod) as the API server sends it. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  /** Node conditions only: when the kubelet last computed it (its own clock, whole seconds), set on every status post. */
  lastHeartbeatTime?: string;
}

/** `status.conditions[type=<type>]` of a Node or Pod, or null. */
export function condition(obj: Obj, type: string): Condition | null {
  const list = get(obj, 'status', 'conditions');
  if (!Array.isArray(list)) return null;
  const found = list.find((c) => get(c, 'type') === type) as Condition | undefined;
  return found ?? null;
}

/** True when the object's Ready condition has status "True". */
export function isReady(obj: Obj): boolean {
  return condition(obj, 'Ready')?.status === 'True';
}

/** A taint from Node `spec.taints`. */
export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

/** Node `spec.taints` (empty when none). */
export function taints(node: Obj): Taint[] {
  const list = get(node, 'spec', 'taints');
  return Array.isArray(list) ? (list as Taint[]) : [];
}

/** Node `status.addresses[type=InternalIP].address`, or null. */
export function internalIP(node: Obj): string | null {
  const list = get(node, 'status', 'addresses');
  if (!Array.isArray(list)) return null;
  return str(get(list.find((a) => get(a, 'type') === 'InternalIP'), 'address'));
}

/** Lease `spec.renewTime` (RFC 3339 MicroTime), or null. */
export function renewTime(lease: Obj): string | null {
  return str(get(lease, 'spec', 'renewTime'));
}

/** Pod label value, or null. */
export function label(obj: Obj, key: string): string | null {
  return str(get(obj, 'metadata', 'labels', key));
}

/** `metadata.deletionTimestamp`, or null. */
export function deletionTimestamp(obj: Obj): string | null {
  return str(get(obj, 'metadata', 'deletionTimestamp'));
}

/** Kind of the pod's controller owner reference, or null for a standalone pod. */
export function ownerKind(pod: Obj): string | null {
  const refs = get(pod, 'metadata', 'ownerReferences');
  if (!Array.isArray(refs)) return null;
  const ctrl = refs.find((r) => get(r, 'controller') === true) ?? refs[0];
  return str(get(ctrl, 'kind'));
}

/** Pod `spec.nodeName`, or null before scheduling. */
export function nodeName(pod: Obj): string | null {
  return str(get(pod, 'spec', 'nodeName'));
}

/** Pod `status.podIP`, or null. */
export function podIP(pod: Obj): string | null {
  return str(get(pod, 'status', 'podIP'));
}

/** Pod `status.reason` (e.g. `NodeAffinity`, `Evicted`, `Terminated`), or null. */
export function podReason(pod: Obj): string | null {
  return str(get(pod, 'status', 'reason'));
}

/** Pod `status.phase`, or null. */
export function phase(pod: Obj): string | null {
  return str(get(pod, 'status', 'phase'));
}

/** Sum of `restartCount` over the pod's containerStatuses (0 when it has none yet). */
export function restartCount(pod: Obj): number {
  const list = get(pod, 'status', 'containerStatuses');
  if (!Array.isArray(list)) return 0;
  return list.reduce((sum: number, c) => sum + (Number(get(c, 'restartCount')) || 0), 0);
}

/**
 * The runtime IDs of the pod's containers (`status.containerStatuses[].containerID`, e.g. `containerd://1a2b…`), in
 * status order; a container without one (waiting for its first start) is left out. Empty when none is reported.
 */
export function containerIDs(pod: Obj): string[] {
  const list = get(pod, 'status', 'containerStatuses');
  if (!Array.isArray(list)) return [];
  return list.map((c) => str(get(c, 'containerID'))).filter((id): id is string => id !== null);
}

/** Pod `spec.tolerations` (empty when none). */
export function tolerations(pod: Obj): Obj[] {
  const list = get(pod, 'spec', 'tolerations');
  return Array.isArray(list) ? (list as Obj[]) : [];
}

/** Why a pod is still Pending: the PodScheduled=False message, else the first container waiting reason, else null. */
export function pendingReason(pod: Obj): string | null {
  const scheduled = condition(pod, 'PodScheduled');
  if (scheduled && scheduled.status === 'False') return [scheduled.reason, scheduled.message].filter(Boolean).join(': ') || 'Unschedulable';
  const list = get(pod, 'status', 'containerStatuses');
  if (Array.isArray(list)) {
    for (const c of list) {
      const reason = str(get(c, 'state', 'waiting', 'reason'));
      if (reason) return reason;
    }
  }
  return null;
}
