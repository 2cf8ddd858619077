// Small conversions from the resolved experiment to the run metadata that run.json records.
import type { WorkloadRef } from '../analyze/index.js';
import type { FaultTarget, WorkloadSpec } from '../spec/types.js';
import type { SelectedWorkload } from '../workloads/index.js';

/** The fault target as a user wrote it: a node name, `worker-with-most-pods`, or `selector k=v,...`. */
export function describeTarget(target: FaultTarget): string {
  switch (target.kind) {
    case 'node':
      return target.node;
    case 'worker-with-most-pods':
      return 'worker-with-most-pods';
    case 'selector':
      return `selector ${Object.entries(target.selector).map(([k, v]) => `${k}=${v}`).join(',')}`;
  }
}

/**
 * The workloads as the analyzer needs them: name, kind, desired Ready pods (replicas; 1 for a Pod;
 * absent for a DaemonSet, whose desired count is its Ready count at the fault) and the name of the Service in
 * front of the pods (lib/workloads renderService: the workload's name with `service:`, and for every
 * StatefulSet; absent otherwise) and its volume type. Pods already running (`selected`) take kind and desired pods from `selected`, what
 * the start of the run read of their controllers (lib/workloads/selected.ts), and keep their namespace and labels.
 */
export function workloadRefs(workloads: readonly WorkloadSpec[], selected: ReadonlyMap<string, SelectedWorkload> = new Map()): WorkloadRef[] {
  return workloads.map((w) => {
    if (w.selected) {
      const read = selected.get(w.name);
      const kind = read?.kind ?? 'unknown';
      const selector = { namespace: w.selected.namespace, matchLabels: { ...w.selected.matchLabels } };
      return read?.desiredReplicas == null ? { name: w.name, kind, selector } : { name: w.name, kind, desiredReplicas: read.desiredReplicas, selector };
    }
    const desired = w.kind === 'Pod' ? 1 : w.replicas;
    const extra = { ...(w.service !== null || w.kind === 'StatefulSet' ? { serviceName: w.name } : {}), ...(w.volume ? { volumeType: w.volume.type } : {}) };
    return desired === null ? { name: w.name, kind: w.kind, ...extra } : { name: w.name, kind: w.kind, desiredReplicas: desired, ...extra };
  });
}
