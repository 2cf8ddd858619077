// PodGC's quarantine queue outlives a Node: a name deleted again soon after it was re-created can lose its pods at
// once. The run waits that out before a fault that deletes a Node, so each run (and each repeat) starts with the
// 40 s quarantine the forecast and the causal chain assume.
import { abortableSleep } from '../common/sleep.js';
import type { TargetNode } from '../faults/index.js';
import type { Journal } from '../observe/index.js';
import { PODGC_PERIOD_SECONDS, PODGC_QUARANTINE_SECONDS } from '../analyze/predict-pods.js';
import type { Experiment } from '../spec/types.js';

/**
 * Slack after quarantine + period, milliseconds: `creationTimestamp` has 1 s resolution, and the PodGC loop runs
 * `gcCheckPeriod` after the end of its previous pass (wait.UntilWithContext is sliding), so passes drift later by
 * their own duration (well under 1 s on a cluster of a few nodes).
 */
export const PODGC_REQUEUE_SLACK_MS = 2_000;

/**
 * How long after a Node object was created a PodGC quarantine entry left from before it existed may still be
 * pending, milliseconds: 40 s + 20 s + 2 s = 62 s.
 *
 * Mechanism (pkg/controller/podgc/gc_controller.go, gcOrphaned and discoverDeletedNodes, v1.35.4, v1.36.3 and
 * v1.37.2 alike): every pass (every `gcCheckPeriod` 20 s) calls `nodeQueue.AddAfter(node, quarantineTime 40 s)` for
 * each node name some pod is bound to but the node informer lacks, then takes every name whose delay has passed and
 * deletes the pods of those the API server still does not know. The pass that deletes them has just queued the
 * name again, 40 s ahead; that entry is taken at the first pass after it is ready and dropped if the Node exists by
 * then. If the Node was re-created but is deleted again before that pass, its pods are deleted at that pass, with no
 * 40 s quarantine counted from the new deletion (measured: 3.7 to 4.4 s after the deletion, in repeats started 81 s
 * after the previous repeat's deletion). The last entry can only be queued while the name was missing, so before its
 * re-creation: it is gone from the queue at the latest 40 s + 20 s (+ slack) after `creationTimestamp`.
 */
export const PODGC_REQUEUE_CLEAR_MS = (PODGC_QUARANTINE_SECONDS + PODGC_PERIOD_SECONDS) * 1000 + PODGC_REQUEUE_SLACK_MS;

/**
 * When the fault may start so that no PodGC quarantine entry left from before a Node to be deleted was (re-)created
 * is still pending when it is deleted: over the nodes of `createdAtMs` (epoch milliseconds), the latest
 * `creationTimestamp` + {@link PODGC_REQUEUE_CLEAR_MS} − the time after time zero at which the experiment deletes it
 * (`deleteAfterMs`, milliseconds, 0 for the fault itself). Epoch milliseconds; null when `createdAtMs` is empty.
 */
export function podgcRequeueClearAtMs(createdAtMs: ReadonlyMap<string, number>, deleteAfterMs: ReadonlyMap<string, number>): number | null {
  let latest: number | null = null;
  for (const [node, created] of createdAtMs) {
    const at = created + PODGC_REQUEUE_CLEAR_MS - (deleteAfterMs.get(node) ?? 0);
    if (latest === null || at > latest) latest = at;
  }
  return latest;
}

/**
 * The nodes the experiment deletes from the API server, each with the earliest time after time zero it does so,
 * milliseconds: the targets of a `node-delete` fault at 0, the node of a `delete-node-object` step (its named node,
 * else every target) at the step's `afterMs`. Empty when nothing is deleted.
 */
export function deletionOffsetsMs(experiment: Pick<Experiment, 'fault' | 'steps'>, targets: readonly string[]): Map<string, number> {
  const offsets = new Map<string, number>();
  const add = (node: string, ms: number) => offsets.set(node, Math.min(offsets.get(node) ?? ms, ms));
  if (experiment.fault.type === 'node-delete') for (const t of targets) add(t, 0);
  for (const step of experiment.steps) {
    if (step.action !== 'delete-node-object') continue;
    for (const n of step.node === null ? targets : [step.node]) add(n, step.afterMs);
  }
  return offsets;
}

/**
 * What one `rebootlab run` knows of the Node names of its current cluster, so that a Node this run made and never
 * deleted is not waited for: PodGC queues a name only while some pod is bound to it and the Node is missing, and
 * pods are bound to a Node only once it exists, so a Node registered when the cluster was created (and never deleted
 * since) has no quarantine entry. `createdByThisRun` is false for an attached cluster (--reuse-cluster, provider
 * `existing`): who deleted what before is unknown there, and the creation time alone decides.
 * `deleted` holds every name this run deleted, or was about to delete when it injected the fault (added before the
 * fault command, so an interrupted deletion counts too).
 */
export interface NodeDeletionHistory {
  readonly createdByThisRun: boolean;
  readonly deleted: Set<string>;
}

/** The phase marker journaled when the run waits for {@link PODGC_REQUEUE_CLEAR_MS}; detail `{ waitMs, clearAtMs }`. */
export const PODGC_REQUEUE_WAIT_PHASE = 'podgc-requeue-wait';

/**
 * Before the fault: when the experiment deletes a Node created less than {@link PODGC_REQUEUE_CLEAR_MS} before it
 * would be deleted (a repeat right after a run that deleted and re-created it), waits until PodGC's old quarantine
 * entry is surely gone, saying so (`say`) and journaling a {@link PODGC_REQUEUE_WAIT_PHASE} marker. No wait when
 * nothing is deleted or every such Node is old enough.
 * `nodes` are the cluster's Nodes as listed for target selection (a Node not among them, or without its creation
 * time, needs no wait: nothing of it is deleted). A Node of `history` that this run's cluster had from its creation
 * and that this run never deleted needs none either ({@link NodeDeletionHistory}). Returns early when `signal`
 * aborts (the caller checks it). Resolves to the names the experiment deletes (empty when none), which the caller
 * adds to its history before the fault command.
 */
export async function waitForPodgcRequeueClear(
  nodes: readonly TargetNode[],
  experiment: Pick<Experiment, 'fault' | 'steps'>,
  targets: readonly string[],
  options: { journal: Pick<Journal, 'mark'>; say: (line: string) => void; signal: AbortSignal; history?: NodeDeletionHistory },
): Promise<readonly string[]> {
  const deletions = deletionOffsetsMs(experiment, targets);
  const deleted = [...deletions.keys()];
  if (deletions.size === 0) return deleted;
  const neverMissing = (name: string) => options.history !== undefined && options.history.createdByThisRun && !options.history.deleted.has(name);
  const createdAtMs = new Map(nodes.flatMap((n) => (deletions.has(n.name) && n.createdAtMs !== undefined && !neverMissing(n.name) ? [[n.name, n.createdAtMs] as const] : [])));
  const clearAtMs = podgcRequeueClearAtMs(createdAtMs, deletions);
  const now = Date.now();
  if (clearAtMs === null || clearAtMs <= now) return deleted;
  const waitMs = clearAtMs - now;
  options.say(`waiting ${(waitMs / 1000).toFixed(1)} s before deleting ${[...createdAtMs.keys()].join(', ')}: created less than ${PODGC_REQUEUE_CLEAR_MS / 1000} s ago, PodGC may still hold a quarantine entry from before (pods would be deleted at once)`);
  options.journal.mark(PODGC_REQUEUE_WAIT_PHASE, { nodes: [...createdAtMs.keys()], detail: { waitMs, clearAtMs } });
  await abortableSleep(waitMs, options.signal);
  return deleted;
}
