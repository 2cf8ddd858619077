// When a workload counts as ready, judged from its own object's status (pure; used by wait-ready.ts).
import type { V1Pod } from '@kubernetes/client-node';
import type { WorkloadKind } from '../spec/types.js';

/** The parts of a workload object readiness looks at. */
export interface WorkloadObjectState {
  metadata?: { generation?: number };
  spec?: { replicas?: number; parallelism?: number; selector?: { matchLabels?: Record<string, string> } };
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

/** How many example pods a not-ready summary names per group. */
const EXAMPLES_PER_GROUP = 2;

/**
 * One line on why a workload's pods are not Ready, for the error of a readiness timeout: the Ready count, then the
 * others grouped by phase and whether they were scheduled (and are terminating), with up to two examples each and
 * their node, e.g. `183 of 300 Ready; not Ready: 117 Running on a node (web-6f…-abc on rebootlab-worker12, …)`.
 * Pure: the pods come from one list made at the timeout.
 */
export function summarizePodReadiness(pods: readonly V1Pod[]): string {
  const isReady = (p: V1Pod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const groups = new Map<string, V1Pod[]>();
  for (const pod of pods.filter((p) => !isReady(p))) {
    const where = pod.spec?.nodeName ? 'on a node' : 'not scheduled';
    const key = `${pod.status?.phase ?? 'no phase'} ${where}${pod.metadata?.deletionTimestamp ? ', terminating' : ''}`;
    const group = groups.get(key) ?? [];
    group.push(pod);
    groups.set(key, group);
  }
  const ready = pods.filter(isReady).length;
  if (groups.size === 0) return `${ready} of ${pods.length} pods Ready`;
  const parts = [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([key, group]) => {
      const examples = group.slice(0, EXAMPLES_PER_GROUP).map((p) => `${p.metadata?.name}${p.spec?.nodeName ? ` on ${p.spec.nodeName}` : ''}`);
      return `${group.length} ${key} (${examples.join(', ')}${group.length > EXAMPLES_PER_GROUP ? ', …' : ''})`;
    });
  return `${ready} of ${pods.length} pods Ready; not Ready: ${parts.join('; ')}`;
}
