// Where a workload's pods land, as the placement rendered in pod-template.ts asks the scheduler: what `rebootlab
// predict` assumes without a cluster. A run reads the real placement from the cluster instead.
import type { WorkloadSpec } from '../spec/types.js';

/** A pod as placement gives it: its name (a placeholder for controllers that name pods themselves) and node. */
export interface PlacedPod {
  name: string;
  node: string;
}

/**
 * The nodes a workload's pods would run on in a cluster whose schedulable workers are `workers` (sorted by name) and
 * whose fault targets are `targets`, following the affinity and spread that renderPodTemplate writes:
 * - `target`: preferred node affinity to the targets (a standalone Pod requires them): every pod on a target, spread
 *   over them in turn (the scheduler's default spreading scores the emptier target higher);
 * - `spread`: topology spread over hostnames with maxSkew 1 (the control plane's NoSchedule taint honoured): one pod
 *   per worker in turn;
 * - `any`: the scheduler's default spreading, taken as one pod per worker in turn (an assumption: resources decide);
 * - a DaemonSet: one pod per worker (its pods do not tolerate the control plane's taint).
 * Pod names: a StatefulSet's own `<workload>-<ordinal>`, a standalone Pod's own name, and for the kinds whose
 * controller names its pods (Deployment `web-<hash>-<suffix>`, DaemonSet, Job) the placeholder `<workload>[n]`, n from
 * 1, which no real pod name can be (brackets are not allowed in a DNS subdomain). Manifest and selected workloads give
 * none: their placement is the cluster's.
 */
export function expectedPlacement(spec: WorkloadSpec, workers: readonly string[], targets: readonly string[]): PlacedPod[] {
  if (spec.manifest !== null || spec.selected !== null || workers.length === 0) return [];
  const nameOf = (i: number) => (spec.kind === 'StatefulSet' ? `${spec.name}-${i}` : `${spec.name}[${i + 1}]`);
  if (spec.kind === 'DaemonSet') return workers.map((node, i) => ({ name: nameOf(i), node }));
  const count = spec.replicas ?? 1;
  const pool = spec.placement === 'target' && targets.length > 0 ? targets : workers;
  if (spec.kind === 'Pod') return [{ name: spec.name, node: pool[0] }];
  return Array.from({ length: count }, (_, i) => ({ name: nameOf(i), node: pool[i % pool.length] }));
}
