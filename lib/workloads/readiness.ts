// When a workload counts as ready, judged from its own object's status (pure; used by wait-ready.ts).
import type { WorkloadKind } from '../spec/types.js';

/** The parts of a workload object readiness looks at. */
export interface WorkloadObjectState {
  metadata?: { generation?: number };
  spec?: { replicas?: number; parallelism?: number };
  status?: Record<string, unknown> & { conditions?: { type: string; status: string }[] };
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * True when every desired pod of the workload is Ready:
 * Deployment — observedGeneration current, updatedReplicas = readyReplicas = spec.replicas;
 * StatefulSet — readyReplicas = spec.replicas (and current revision); DaemonSet — numberReady =
 * desiredNumberScheduled > 0; Job — status.ready = spec.parallelism; Pod — condition Ready True.
 */
export function isWorkloadReady(kind: WorkloadKind, object: WorkloadObjectState): boolean {
  const status = object.status ?? {};
  const generationSeen = n(status['observedGeneration']) >= n(object.metadata?.generation);
  switch (kind) {
    case 'Deployment': {
      const want = object.spec?.replicas ?? 1;
      return generationSeen && n(status['updatedReplicas']) === want && n(status['readyReplicas']) === want && n(status['replicas']) === want;
    }
    case 'StatefulSet': {
      const want = object.spec?.replicas ?? 1;
      return generationSeen && n(status['readyReplicas']) === want;
    }
    case 'DaemonSet': {
      const want = n(status['desiredNumberScheduled']);
      return generationSeen && want > 0 && n(status['numberReady']) === want;
    }
    case 'Job':
      return n(status['ready']) === (object.spec?.parallelism ?? 1);
    case 'Pod':
      return (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  }
}

/** The REST collection path of a workload kind in a namespace, for list and watch. */
export function collectionPath(kind: WorkloadKind, namespace: string): string {
  switch (kind) {
    case 'Deployment': return `/apis/apps/v1/namespaces/${namespace}/deployments`;
    case 'StatefulSet': return `/apis/apps/v1/namespaces/${namespace}/statefulsets`;
    case 'DaemonSet': return `/apis/apps/v1/namespaces/${namespace}/daemonsets`;
    case 'Job': return `/apis/batch/v1/namespaces/${namespace}/jobs`;
    case 'Pod': return `/api/v1/namespaces/${namespace}/pods`;
  }
}
