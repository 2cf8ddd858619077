// Links evicted pods to their replacements and decides each pod's single outcome.
import type { ObjectObservation } from '../observe/types.js';
import type { RunContext } from './context.js';
import { controllerUid } from './membership.js';
import { buildReplacementCandidates, describeReplacement, type PodFacts } from './pod-timeline.js';
import type { PodOutcome, PodTimeline, Replacement } from './types.js';

/**
 * Decide the outcome of one pod from its facts, its replacement (if any) and whether its node is Ready at the
 * end. The rules, in order, are those of the PodOutcome docstring (lib/analyze/types.ts).
 */
export function decideOutcome(pod: PodFacts, replacement: Replacement | null, nodeReadyAtEnd: boolean): PodOutcome {
  // A pod its kubelet ended first (TerminationByKubelet) was terminated, whoever deleted the ended object later.
  if (pod.evictedAfterSeconds !== null && pod.terminatedByKubelet !== true) {
    if (replacement && replacement.readyAfterSeconds !== null) return 'evicted-replaced';
    if (replacement && replacement.pendingReason !== null) return 'pending-unschedulable';
    if (replacement) return 'evicted-replaced';
    // No controller will ever recreate a standalone pod, listed or not; a controller's pod waits for its deletion.
    return pod.deletedAfterSeconds !== null || pod.ownerKind === null ? 'evicted-lost' : 'stuck-terminating';
  }
  if (pod.terminatedAfterSeconds != null) {
    if (replacement && replacement.readyAfterSeconds !== null) return 'terminated-replaced';
    if (replacement && replacement.pendingReason !== null) return 'pending-unschedulable';
    return replacement ? 'terminated-replaced' : 'terminated-lost';
  }
  if (pod.phaseAtEnd === 'Pending' && !pod.readyAfterFault) return 'pending-unschedulable';
  if (pod.restartCountDelta > 0) return 'restarted-in-place';
  if (!pod.readyAtEnd || !nodeReadyAtEnd) return 'not-evicted';
  return 'unaffected';
}

/**
 * Give every evicted pod at most one replacement: a new pod of the same workload and controller (ownerReferences:
 * a selector may match the pods of several controllers) first seen after the fault,
 * preferring one with the same name (a StatefulSet recreates `web-0` as `web-0`), else the earliest one first
 * seen after the pod stopped counting for its controller (evictedSeq: deletionTimestamp, Failed phase or deletion).
 * Evicted pods are served in that order, so the first to stop counting gets the first new pod.
 */
export function linkReplacements(ctx: RunContext, pods: PodFacts[]): Map<string, Replacement> {
  // Candidates come first-seen order (buildReplacementCandidates groups journal records by uid). Indexed by name,
  // and scanned per workload and namespace with a cursor that only moves forward: evicted pods come in evictedSeq
  // order, so a candidate first seen at or before one pod's eviction is too early for every later pod as well.
  // (Filtering the whole pool for every evicted pod was quadratic: minutes at 10,000 pods.)
  const used = new Set<string>();
  const byName = new Map<string, ObjectObservation[][]>();
  const queues = new Map<string, { list: ObjectObservation[][]; next: number }>();
  for (const [workload, list] of buildReplacementCandidates(ctx)) {
    for (const c of list) {
      const nameKey = `${workload}\u0000${c[0].namespace ?? ''}\u0000${c[0].name}`;
      const named = byName.get(nameKey);
      if (named) named.push(c);
      else byName.set(nameKey, [c]);
      const queueKey = `${workload}\u0000${c[0].namespace ?? ''}\u0000${controllerUid(c[0].object) ?? ''}`;
      const queue = queues.get(queueKey) ?? { list: [], next: 0 };
      queue.list.push(c);
      queues.set(queueKey, queue);
    }
  }
  const links = new Map<string, Replacement>();
  const evicted = pods
    .filter((p) => p.evictedSeq !== null && p.workload !== null)
    .sort((a, b) => (a.evictedSeq ?? 0) - (b.evictedSeq ?? 0));
  for (const pod of evicted) {
    const sameName = byName.get(`${pod.workload}\u0000${pod.namespace ?? ''}\u0000${pod.name}`);
    let choice: ObjectObservation[] | undefined = sameName?.find((c) => !used.has(c[0].uid));
    if (!choice) {
      const queue = queues.get(`${pod.workload}\u0000${pod.namespace ?? ''}\u0000${pod.controllerUid ?? ''}`);
      if (queue) {
        while (queue.next < queue.list.length && (used.has(queue.list[queue.next][0].uid) || queue.list[queue.next][0].seq <= (pod.evictedSeq ?? 0))) queue.next++;
        choice = queue.list[queue.next];
      }
    }
    if (!choice) continue;
    used.add(choice[0].uid);
    links.set(pod.uid, describeReplacement(ctx, choice));
  }
  return links;
}

/** Finish the pod timelines: replacement and outcome for each; `nodeReady` maps node name → Ready at the end. */
export function buildPodTimelines(ctx: RunContext, pods: PodFacts[], nodeReady: ReadonlyMap<string, boolean>): PodTimeline[] {
  const links = linkReplacements(ctx, pods);
  return pods.map((facts) => {
    const { records: _records, evictedSeq: _seq, phaseAtEnd: _phase, readyAfterFault: _ready, controllerUid: _controller, terminatedByKubelet: _kubelet, ...timeline } = facts;
    const replacement = links.get(facts.uid) ?? null;
    const nodeReadyAtEnd = facts.nodeAfter === null ? true : (nodeReady.get(facts.nodeAfter) ?? false);
    return { ...timeline, replacement, outcome: decideOutcome(facts, replacement, nodeReadyAtEnd) };
  });
}
