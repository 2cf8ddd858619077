// Chooses the fault's target nodes: a named node, the workers with most workload pods, or a label
// selector; never a control-plane node unless the fault allows it.
import { InputError } from '../common/errors.js';
import type { FaultSpec, StepSpec } from '../spec/types.js';

/** A node that could be a target: Kubernetes name, role, and the Node object's labels. */
export interface TargetNode {
  name: string;
  role: 'control-plane' | 'worker';
  labels: Record<string, string>;
  /** The Node's `metadata.creationTimestamp`, epoch milliseconds, when read from the API server. */
  createdAtMs?: number;
}

/** A pod, as far as target selection needs it: the node it is bound to ('' when unscheduled). */
export interface TargetPod {
  nodeName: string;
  /** True when the pod has a deletionTimestamp; terminating pods are not counted. */
  terminating: boolean;
}

/** Label the control-plane role carries on kubeadm/kind clusters. */
export const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';

/** True for a control-plane node, by role or by the kubeadm role label. */
export function isControlPlane(node: TargetNode): boolean {
  return node.role === 'control-plane' || CONTROL_PLANE_LABEL in node.labels;
}

function describeTarget(fault: Pick<FaultSpec, 'target'>): string {
  const t = fault.target;
  if (t.kind === 'node') return `node ${t.node}`;
  if (t.kind === 'selector') return `selector ${Object.entries(t.selector).map(([k, v]) => `${k}=${v}`).join(',')}`;
  return 'worker-with-most-pods';
}

/**
 * The node names the fault hits, `fault.count` of them, in injection order.
 * - `node`: that node (count must be 1).
 * - `worker-with-most-pods`: the eligible nodes ordered by the number of non-terminating `pods` on
 *   them, most first, ties by name.
 * - `selector`: eligible nodes whose labels contain every selector pair, ordered by name.
 * A control-plane node is eligible only with `fault.allowControlPlane`.
 * @throws InputError naming the target when the node does not exist, is a control plane without
 *   allowControlPlane, or fewer than `count` nodes qualify.
 */
export function resolveTargets(
  fault: Pick<FaultSpec, 'target' | 'count' | 'allowControlPlane'>,
  nodes: readonly TargetNode[],
  pods: readonly TargetPod[],
): string[] {
  const eligible = (n: TargetNode) => fault.allowControlPlane || !isControlPlane(n);
  const target = fault.target;
  const byName = [...nodes].sort((a, b) => a.name.localeCompare(b.name));
  let chosen: TargetNode[];
  if (target.kind === 'node') {
    const node = nodes.find((n) => n.name === target.node);
    if (!node) throw new InputError(`fault.target: node ${target.node} does not exist; nodes: ${byName.map((n) => n.name).join(', ')}`);
    if (!eligible(node)) {
      throw new InputError(`fault.target: ${node.name} is a control-plane node`, 'Set fault.allowControlPlane: true to target it');
    }
    if (fault.count !== 1) throw new InputError(`fault.count: a named node target hits exactly 1 node, not ${fault.count}`);
    chosen = [node];
  } else if (target.kind === 'worker-with-most-pods') {
    const counts = new Map<string, number>();
    for (const p of pods) if (p.nodeName && !p.terminating) counts.set(p.nodeName, (counts.get(p.nodeName) ?? 0) + 1);
    chosen = byName.filter(eligible).sort((a, b) => (counts.get(b.name) ?? 0) - (counts.get(a.name) ?? 0) || a.name.localeCompare(b.name));
  } else {
    chosen = byName.filter((n) => eligible(n) && Object.entries(target.selector).every(([k, v]) => n.labels[k] === v));
  }
  if (chosen.length < fault.count) {
    throw new InputError(
      `fault.target: ${describeTarget(fault)} matches ${chosen.length} eligible node(s), fault.count needs ${fault.count}`,
      fault.allowControlPlane ? undefined : 'Control-plane nodes are never targets unless fault.allowControlPlane is true',
    );
  }
  return chosen.slice(0, fault.count).map((n) => n.name);
}

/**
 * Refuses a step that names a control-plane node (by role or the kubeadm role label) when the fault does not allow
 * control-plane nodes: the consent a fault target needs, a drain or a Node deletion needs too. Nodes absent from
 * `nodes` are left to the step itself. Checked before anything is deployed or injected.
 * @throws InputError naming `steps[i].node` (its index in the experiment's steps).
 */
export function checkStepNodes(steps: readonly Pick<StepSpec, 'node' | 'action'>[], fault: Pick<FaultSpec, 'allowControlPlane'>, nodes: readonly TargetNode[]): void {
  if (fault.allowControlPlane) return;
  for (const [index, step] of steps.entries()) {
    const node = step.node === null ? undefined : nodes.find((n) => n.name === step.node);
    if (node && isControlPlane(node)) {
      throw new InputError(`steps[${index}].node: ${node.name} is a control-plane node; ${step.action} would act on it`, 'Set fault.allowControlPlane: true to act on control-plane nodes');
    }
  }
}
