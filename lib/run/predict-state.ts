// The pre-fault state `rebootlab predict` forecasts from when there is no cluster: the nodes a run would create (kind
// names, zone labels round-robin), the targets it would pick, and the pods of the experiment's workloads where their
// placement puts them.
import { admittedTolerations, type PreFaultNode, type PreFaultPod, type PreFaultState } from '../analyze/forecast/index.js';
import { clusterNodeNames } from '../cluster/node-names.js';
import { resolveTargets, type TargetNode } from '../faults/targets.js';
import type { Experiment, WorkloadSpec } from '../spec/types.js';
import { expectedPlacement } from '../workloads/placement.js';

/** Zone label the kind and kwok providers give workers when the experiment names zones. */
const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** The control-plane role label (kubeadm). */
const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';
/** Namespace of every workload rebootlab deploys. */
const WORKLOAD_NAMESPACE = 'rebootlab';

const OWNER_KIND: Record<WorkloadSpec['kind'], string | null> = { Deployment: 'ReplicaSet', StatefulSet: 'StatefulSet', DaemonSet: 'DaemonSet', Job: 'Job', Pod: null };

/**
 * The cluster a run of `experiment` would start from, as far as the experiment says: one control plane and
 * `cluster.workers` workers named as kind names them (`<name>-control-plane`, `<name>-worker`, `<name>-worker2`, …;
 * kwok copies them), each worker with `cluster.workerLabels` and worker i with zone `zones[i mod n]`; the fault targets picked as a run picks them before
 * its pods exist (worker-with-most-pods: the first workers by name); each workload's pods where its placement puts
 * them (lib/workloads/placement.ts), with the tolerations admission gives them. Heartbeats unknown.
 * @throws InputError (from resolveTargets) when the target does not exist among those nodes.
 */
export function preFaultStateOf(experiment: Experiment): PreFaultState {
  const names = clusterNodeNames(experiment.cluster.name, experiment.cluster.workers);
  const zones = experiment.cluster.zones;
  const nodes: PreFaultNode[] = [
    { name: names.controlPlane, labels: { 'kubernetes.io/hostname': names.controlPlane, [CONTROL_PLANE_LABEL]: '' }, controlPlane: true, lastLeaseRenewSeconds: null, lastStatusPostSeconds: null },
    ...names.workers.map((name, i) => ({
      name, labels: { 'kubernetes.io/hostname': name, ...experiment.cluster.workerLabels, ...(zones.length > 0 ? { [ZONE_LABEL]: zones[i % zones.length] } : {}) }, controlPlane: false, lastLeaseRenewSeconds: null, lastStatusPostSeconds: null,
    })),
  ];
  const targetNodes: TargetNode[] = nodes.map((n) => ({ name: n.name, role: n.controlPlane ? 'control-plane' : 'worker', labels: n.labels }));
  const targets = resolveTargets(experiment.fault, targetNodes, []);
  const defaults = { notReadySeconds: experiment.cluster.settings.apiServer.defaultNotReadyTolerationSeconds, unreachableSeconds: experiment.cluster.settings.apiServer.defaultUnreachableTolerationSeconds };
  const pods: PreFaultPod[] = experiment.workloads.flatMap((w) =>
    expectedPlacement(w, names.workers, targets).map((p) => ({
      namespace: WORKLOAD_NAMESPACE, name: p.name, workload: w.name, ownerKind: OWNER_KIND[w.kind], node: p.node,
      tolerations: admittedTolerations(w.tolerations, OWNER_KIND[w.kind], defaults),
      // rebootlab's pod template sets no priorityClassName (lib/workloads/pod-template.ts): priority 0.
      priority: 0, terminationGracePeriodSeconds: w.terminationGracePeriodSeconds,
    })),
  );
  return { source: 'experiment', nodes, targets, pods, leadSeconds: 0 };
}
