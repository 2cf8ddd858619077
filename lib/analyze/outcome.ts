// Links evicted pods to their replacements and decides each pod's single outcome.
import type { ObjectObservation } from '../observe/types.js';
import type { RunContext } from './context.js';
import { buildReplacementCandidates, describeReplacement, type PodFacts } from './pod-timeline.js';
import type { PodOutcome, PodTimeline, Replacement } from './types.js';

/**
 * Decide the outcome of one pod from its facts, its replacement (if any) and whether its node is Ready at the
 * end. The rules, in order, are those of the PodOutcome docstring (lib/analyze/types.ts).
 */
export function decideOutcome(pod: PodFacts, replacement: Replacement | null, nodeReadyAtEnd: boolean): PodOutcome {
  if (pod.evictedAfterSeconds !== null) {
    if (replacement && replacement.readyAfterSeconds !== null) return 'evicted-replaced';
    if (replacement && replacement.pendingReason !== null) return 'pending-unschedulable';
    if (replacement) return 'evicted-replaced';
    // No controller will ever recreate a standalone pod, listed or not; a controller's pod waits for its deletion.
    return pod.deletedAfterSeconds !== null || pod.ownerKind === null ? 'evicted-lost' : 'stuck-terminating';
  }
  if (pod.phaseAtEnd === 'Pending' && !pod.readyAfterFault) return 'pending-unschedulable';
  if (pod.restartCountDelta > 0) return 'restarted-in-place';
  if (!pod.readyAtEnd || !nodeReadyAtEnd) return 'not-evicted';
  return 'unaffected';
}

/**
 * Give every evicted pod at most one replacement: a new pod of the same workload first seen after the fault,
 * preferring one with the same name (a StatefulSet recreates `web-0` as `web-0`), else the earliest one first
 * seen after the pod stopped counting for its controller (evictedSeq: deletionTimestamp, Failed phase or deletion).
 * Evicted pods are served in that order, so the first to stop counting gets the first new pod.
 */
export function linkReplacements(ctx: RunContext, pods: PodFacts[]): Map<string, Replacement> {
  const candidates = buildReplacementCandidates(ctx);
  const used = new Set<string>();
  const links = new Map<string, Replacement>();
  const evicted = pods
    .filter((p) => p.evictedSeq !== null && p.workload !== null)
    .sort((a, b) => (a.evictedSeq ?? 0) - (b.evictedSeq ?? 0));
  for (const pod of evicted) {
    const pool = (candidates.get(pod.workload ?? '') ?? []).filter((c) => !used.has(c[0].uid));
    const choice: ObjectObservation[] | undefined =
      pool.find((c) => c[0].name === pod.name && c[0].namespace === pod.namespace) ??
      pool.find((c) => c[0].seq > (pod.evictedSeq ?? 0) && c[0].namespace === pod.namespace);
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
    const { records: _records, evictedSeq: _seq, phaseAtEnd: _phase, readyAfterFault: _ready, ...timeline } = facts;
    const replacement = links.get(facts.uid) ?? null;
    const nodeReadyAtEnd = facts.nodeAfter === null ? true : (nodeReady.get(facts.nodeAfter) ?? false);
    return { ...timeline, replacement, outcome: decideOutcome(facts, replacement, nodeReadyAtEnd) };
  });
}
