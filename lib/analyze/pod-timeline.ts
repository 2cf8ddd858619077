// Builds each pod's own facts (by UID) around the fault: readiness, eviction, deletion, restarts, IP and node.
import type { ObjectObservation } from '../observe/types.js';
import { secondsSince, serverSecondsSince } from './clock.js';
import { groupBy, type RunContext } from './context.js';
import {
  condition,
  containerIDs,
  deletionTimestamp,
  isReady,
  nodeName,
  ownerKind,
  pendingReason,
  phase,
  podIP,
  podReason,
  restartCount,
  tolerations,
} from './objects.js';
import { tolerationSecondsFor } from './tolerations.js';
import { controllerUid } from './membership.js';
import type { PodTimeline, Replacement } from './types.js';

export { WORKLOAD_LABEL } from './membership.js';

/** A pod's records plus the facts the outcome rules need; `outcome` and `replacement` are decided later. */
export interface PodFacts extends Omit<PodTimeline, 'outcome' | 'replacement'> {
  records: ObjectObservation[];
  /**
   * Journal seq from which the pod's controller no longer counts it, or null: the first record after the fault
   * with a deletionTimestamp, a terminal phase (Failed/Succeeded) or the deletion. A ReplicaSet replaces a pod
   * that turned Failed at once, before its deletion (pod garbage collection marks an orphaned pod Failed, then
   * deletes it), so a replacement may appear between the two.
   */
  evictedSeq: number | null;
  /** Phase of the last record ("Pending", "Running", …). */
  phaseAtEnd: string | null;
  /** Whether the pod was ever Ready after the fault. */
  readyAfterFault: boolean;
  /** UID of its controller at the fault (ownerReferences), or null: a replacement comes from the same controller. */
  controllerUid: string | null;
  /**
   * Whether its kubelet ended it (terminal phase with DisruptionTarget reason TerminationByKubelet: a graceful node
   * shutdown, a node-pressure eviction) before any deletionTimestamp: a later deletion of the ended object (its
   * DaemonSet controller, the taint eviction controller) does not make it an evicted pod. Absent: false.
   */
  terminatedByKubelet?: boolean;
}

/** Pod phases after which a controller treats the pod as gone (it does not run again). */
export const TERMINAL_PHASES = new Set(['Failed', 'Succeeded']);

function isObserved(records: ObjectObservation[], ctx: RunContext): boolean {
  const before = records.filter((r) => r.seq < ctx.faultSeq).at(-1);
  return before !== undefined && before.verb !== 'DELETED' && deletionTimestamp(before.object) === null;
}

function factsOf(ctx: RunContext, records: ObjectObservation[]): PodFacts {
  const before = records.filter((r) => r.seq < ctx.faultSeq && r.verb !== 'DELETED').at(-1) ?? records[0];
  const lastBefore = records.filter((r) => r.seq < ctx.faultSeq).at(-1);
  const after = records.filter((r) => r.seq > ctx.faultSeq);
  const live = after.filter((r) => r.verb !== 'DELETED');
  const last = records[records.length - 1];
  const lastState = records.filter((r) => r.verb !== 'DELETED').at(-1) ?? last;
  let notReady: ObjectObservation | undefined;
  let readyAgain: ObjectObservation | undefined;
  for (const rec of live) {
    if (!notReady && !isReady(rec.object)) notReady = rec;
    else if (notReady && !readyAgain && isReady(rec.object)) readyAgain = rec;
  }
  const evicted = after.find((r) => r.verb === 'DELETED' || deletionTimestamp(r.object) !== null);
  const inactive = after.find((r) => r.verb === 'DELETED' || deletionTimestamp(r.object) !== null || TERMINAL_PHASES.has(phase(r.object) ?? ''));
  const deleted = after.find((r) => r.verb === 'DELETED');
  // A Job's Succeeded pod finished its work; any other pod in a terminal phase was ended by its kubelet.
  const endedPhases = ownerKind(before.object) === 'Job' ? ['Failed'] : ['Failed', 'Succeeded'];
  const failed = live.find((r) => endedPhases.includes(phase(r.object) ?? '') && deletionTimestamp(r.object) === null);
  const terminatedByKubelet = failed !== undefined && (evicted === undefined || failed.seq < evicted.seq) && condition(failed.object, 'DisruptionTarget')?.reason === 'TerminationByKubelet';
  const ltt = notReady ? condition(notReady.object, 'Ready')?.lastTransitionTime : undefined;
  const f = ctx.faultMs;
  const restartsBefore = restartCount(before.object);
  const restartsAfter = restartCount(lastState.object);
  return {
    records,
    namespace: before.namespace ?? '',
    name: before.name,
    uid: before.uid,
    workload: ctx.workloadOf(before),
    ownerKind: ownerKind(before.object),
    nodeBefore: nodeName(before.object),
    nodeAfter: nodeName(lastState.object),
    podIPBefore: podIP(before.object),
    podIPAfter: podIP(lastState.object),
    restartCountBefore: restartsBefore,
    restartCountAfter: restartsAfter,
    restartCountDelta: restartsAfter - restartsBefore,
    containerIDsBefore: containerIDs(before.object),
    containerIDsAfter: containerIDs(lastState.object),
    notReadyAfterSeconds: notReady ? (serverSecondsSince(f, ltt) ?? secondsSince(f, notReady.receivedAtMs)) : null,
    notReadyReceivedAfterSeconds: notReady ? secondsSince(f, notReady.receivedAtMs) : null,
    readyAgainAfterSeconds: readyAgain ? secondsSince(f, readyAgain.receivedAtMs) : null,
    phaseWhenNotReady: notReady ? phase(notReady.object) : null,
    evictedAfterSeconds: evicted ? secondsSince(f, evicted.receivedAtMs) : null,
    deletionTimestamp: evicted ? deletionTimestamp(evicted.object) : null,
    deletedAfterSeconds: deleted ? secondsSince(f, deleted.receivedAtMs) : null,
    terminatedAfterSeconds: failed ? secondsSince(f, failed.receivedAtMs) : null,
    terminatedPhase: failed ? phase(failed.object) : null,
    terminatedReason: failed ? podReason(failed.object) : null,
    stoppedCountingAfterSeconds: inactive ? secondsSince(f, inactive.receivedAtMs) : null,
    tolerations: {
      unreachableTolerationSeconds: tolerationSecondsFor(tolerations(before.object), { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }),
      notReadyTolerationSeconds: tolerationSecondsFor(tolerations(before.object), { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }),
      // The value the non-graceful shutdown docs and rebootlab's taint-out-of-service step use.
      outOfServiceTolerationSeconds: tolerationSecondsFor(tolerations(before.object), { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }),
      tolerations: tolerations(before.object),
    },
    readyAtFault: lastBefore !== undefined && lastBefore.verb !== 'DELETED' && isReady(lastBefore.object) && deletionTimestamp(lastBefore.object) === null,
    readyAtEnd: last.verb !== 'DELETED' && isReady(last.object) && deletionTimestamp(last.object) === null,
    // Only a pod that was evicted, deleted or ended by its kubelet is paired with a replacement (a Job's Succeeded pod
    // finished its work: not replaced); it is paired from when it stopped counting.
    evictedSeq: (evicted || failed) && inactive ? inactive.seq : null,
    phaseAtEnd: last.verb === 'DELETED' ? null : phase(last.object),
    readyAfterFault: live.some((r) => isReady(r.object)),
    controllerUid: controllerUid(before.object),
    ...(terminatedByKubelet ? { terminatedByKubelet } : {}),
  };
}

/**
 * Facts for the pods that existed (without a deletionTimestamp) at the fault and either belong to a workload
 * (ctx.workloadOf) or ran on a target node. Sorted by namespace, then name, then UID.
 */
export function buildPodFacts(ctx: RunContext): PodFacts[] {
  const byUid = groupBy(ctx.pods, (r) => r.uid);
  const facts: PodFacts[] = [];
  for (const records of byUid.values()) {
    if (!isObserved(records, ctx)) continue;
    const f = factsOf(ctx, records);
    if (f.workload !== null || (f.nodeBefore !== null && ctx.targets.includes(f.nodeBefore))) facts.push(f);
  }
  return facts.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name) || a.uid.localeCompare(b.uid));
}

/** Pods of a workload first seen after the fault, in order of appearance: candidates to replace evicted pods. */
export function buildReplacementCandidates(ctx: RunContext): Map<string, ObjectObservation[][]> {
  const byUid = groupBy(ctx.pods, (r) => r.uid);
  const candidates = new Map<string, ObjectObservation[][]>();
  for (const records of byUid.values()) {
    if (records[0].seq < ctx.faultSeq) continue;
    const workload = ctx.workloadOf(records[0]);
    if (workload === null) continue;
    const list = candidates.get(workload) ?? [];
    list.push(records);
    candidates.set(workload, list);
  }
  return candidates;
}

/** The Replacement view of a candidate pod's records; times are seconds since fault. */
export function describeReplacement(ctx: RunContext, records: ObjectObservation[]): Replacement {
  const f = ctx.faultMs;
  const scheduled = records.find((r) => nodeName(r.object) !== null);
  const ready = records.find((r) => r.verb !== 'DELETED' && isReady(r.object));
  const last = records.filter((r) => r.verb !== 'DELETED').at(-1) ?? records[records.length - 1];
  const pending = records[records.length - 1].verb !== 'DELETED' && phase(last.object) === 'Pending';
  return {
    name: records[0].name,
    uid: records[0].uid,
    createdAfterSeconds: secondsSince(f, records[0].receivedAtMs),
    scheduledAfterSeconds: scheduled ? secondsSince(f, scheduled.receivedAtMs) : null,
    readyAfterSeconds: ready ? secondsSince(f, ready.receivedAtMs) : null,
    node: nodeName(last.object),
    podIP: podIP(last.object),
    containerIDs: containerIDs(last.object),
    pendingReason: pending ? (pendingReason(last.object) ?? 'Pending') : null,
  };
}
