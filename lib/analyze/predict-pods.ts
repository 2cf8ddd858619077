// Causal model, pod part: taint-based evictions, pod garbage collection, force-delete steps and replacements,
// each derived from the observed node event it follows.
import { matchingTolerations, minTolerationSeconds } from './tolerations.js';
import { evictionWindow } from './windows.js';
import { causeOf, leaderChangeDuring, leaderChangeText, OBSERVATION_LATENCY_SECONDS, OUT_OF_SERVICE_TAINT, secondsText, windowOf, type ItemDraft, type LeaderChange } from './predict-common.js';
import type { NodeTimeline, PodTimeline, StepInstant } from './types.js';

/** PodGC runs every 20 s (pkg/controller/podgc/gc_controller.go `gcCheckPeriod`), seconds. */
export const PODGC_PERIOD_SECONDS = 20;
/** PodGC waits this long after a Node is gone before deleting its pods (`quarantineTime`), seconds. */
export const PODGC_QUARANTINE_SECONDS = 40;
/** A controller creates a replacement within this many seconds of the old pod leaving its count (watch + sync), seconds. */
export const REPLACEMENT_SECONDS = 3;

const podId = (p: PodTimeline): string => `${p.namespace}/${p.name}`;

/** One NoExecute taint change as the taint eviction controller sees it; seconds since time zero. */
interface NoExecuteChange {
  /** When it was received (our clock). */
  at: number;
  /** The soonest the controller can have seen it. */
  earliest: number;
  key: string;
  /** The taint's value ('' when absent): an Equal toleration compares it. */
  value: string;
  added: boolean;
  /** Seconds the controller may see it after `at` beyond the usual observation latency (a new leader's first processing). */
  lateBy?: number;
  /** Set for the taints a new kube-controller-manager leader found on the node when it started. */
  newLeader?: LeaderChange;
}

/** A countdown the replay scheduled: seconds since time zero. */
interface ScheduledEviction {
  start: number;
  earliestStart: number;
  trigger: number;
  key: string;
  seconds: number;
  /** No toleration tolerated `key`: evicted at once. */
  untolerated: boolean;
  lateBy: number;
  newLeader?: LeaderChange;
}

/**
 * The replay of processPodOnNode (pkg/controller/tainteviction/taint_eviction.go, v1.34.4) over `changes` (sorted by
 * `at`): the countdown in effect, or why there is none. At each change, with the NoExecute taints then present:
 * none → any countdown is cancelled; one that no toleration tolerates → evicted at once; per taint the first
 * matching toleration (matchingTolerations), and when none of those has tolerationSeconds the pod tolerates every
 * taint forever → any countdown is cancelled; otherwise an existing countdown is kept (its start + its seconds is
 * never later than now + the new smallest seconds), else one starts now for the smallest tolerationSeconds.
 */
function replayTaintChanges(pod: PodTimeline, changes: readonly NoExecuteChange[]): { scheduled: ScheduledEviction | null; cancelledAt: number | null; foreverKey: string | null } {
  const present = new Map<string, string>();
  let scheduled: ScheduledEviction | null = null;
  let cancelledAt: number | null = null;
  let foreverKey: string | null = null;
  const tolerations = pod.tolerations.tolerations;
  for (const c of changes) {
    // Stop at the pod's own end: nothing happens to a pod already deleted or evicted by the time of the change.
    if (pod.deletedAfterSeconds !== null && c.at >= pod.deletedAfterSeconds) break;
    if (scheduled && scheduled.trigger <= c.at) break;
    if (c.added) present.set(c.key, c.value);
    else present.delete(c.key);
    if (present.size === 0) {
      if (scheduled) cancelledAt = c.at;
      scheduled = null;
      continue;
    }
    const taints = [...present].map(([key, value]) => ({ key, value, effect: 'NoExecute' }));
    const { untolerated, used } = matchingTolerations(taints, tolerations);
    if (untolerated) {
      scheduled = { start: c.at, earliestStart: c.earliest, trigger: c.at, key: untolerated.key, seconds: 0, untolerated: true, lateBy: c.lateBy ?? 0, newLeader: c.newLeader };
      break;
    }
    const min = minTolerationSeconds(used);
    if (min.seconds === null) {
      // Tolerated forever from now on: the controller cancels a scheduled eviction (cancelWorkWithEvent).
      if (scheduled) cancelledAt = c.at;
      scheduled = null;
      foreverKey = taints[0]!.key;
      continue;
    }
    foreverKey = null;
    if (!scheduled) {
      scheduled = { start: c.at, earliestStart: c.earliest, trigger: c.at + min.seconds, key: min.taint?.key ?? taints[0]!.key, seconds: min.seconds, untolerated: false, lateBy: c.lateBy ?? 0, newLeader: c.newLeader };
      cancelledAt = null;
    }
  }
  return { scheduled, cancelledAt, foreverKey };
}

/**
 * The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go, processPodOnNode), replayed over
 * the node's NoExecute taint changes as received: a taint the pod does not tolerate evicts it at once; otherwise
 * the first taint change schedules the eviction at (that instant + the smallest tolerationSeconds among the taints
 * present) and later tolerated changes keep that schedule; removing every NoExecute taint cancels it; tolerated
 * forever (no tolerationSeconds) never evicts. The controller and the observer both watch the API server, but the
 * controller (in the process that wrote the taint) can see it before the observer does, by up to the observer's watch
 * latency: measured on kind under load, evictions 0.25 s before (receive + toleration). So the window on the pod's
 * deletionTimestamp receive time is [max(taint timeAdded, receive − observation latency) + toleration,
 * receive + toleration + 1 s + observation latency]. Defaults come from the DefaultTolerationSeconds admission plugin (kube-apiserver
 * --default-unreachable-toleration-seconds / --default-not-ready-toleration-seconds); out-of-service has no default.
 * A kube-controller-manager leader change that cut the countdown restarts the replay at the new leader's first pass
 * (leaderCutReason says when it cannot).
 */
function evictionItem(pod: PodTimeline, node: NodeTimeline, leaderChanges: readonly LeaderChange[]): ItemDraft | null {
  // `earliest`: the soonest the controller can have seen the change: the taint's server timeAdded (whole seconds,
  // truncated, so never after the write) when it has one, else our receive time minus our own watch latency.
  const changes: NoExecuteChange[] = [];
  for (const t of node.taints) {
    if (t.effect !== 'NoExecute') continue;
    if (t.addedReceivedAfterSeconds !== null) {
      const earliest = Math.max(t.addedReceivedAfterSeconds - OBSERVATION_LATENCY_SECONDS, t.timeAdded !== undefined && t.addedAfterSeconds !== null ? t.addedAfterSeconds : -Infinity);
      changes.push({ at: t.addedReceivedAfterSeconds, earliest, key: t.key, value: t.value ?? '', added: true });
    }
    if (t.removedAfterSeconds !== null) changes.push({ at: t.removedAfterSeconds, earliest: t.removedAfterSeconds - OBSERVATION_LATENCY_SECONDS, key: t.key, value: t.value ?? '', added: false });
  }
  const byTime = (a: NoExecuteChange, b: NoExecuteChange) => a.at - b.at || Number(b.added) - Number(a.added);
  changes.sort(byTime);
  const base = { event: 'pod-eviction' as const, node: node.name, pod: podId(pod), observedSeconds: pod.evictedAfterSeconds };
  if (changes.length === 0) return null;
  let { scheduled, cancelledAt, foreverKey } = replayTaintChanges(pod, changes);
  let newLeader: LeaderChange | null = null;
  if (scheduled) {
    const leader = leaderChangeDuring(leaderChanges, scheduled.start, scheduled.trigger + 1 + OBSERVATION_LATENCY_SECONDS);
    if (leader !== undefined) {
      const cut = leaderCutReason(leader, scheduled, leaderChanges);
      if (cut !== null) return { ...scheduledItem(pod, node, base, scheduled), notModelled: `not modelled: ${leaderChangeText(leader)}; ${cut}` };
      // The old leader's countdown died with it. The new leader's taint eviction controller starts from the taints it
      // finds when it first processes the pod (about its first pass), then follows the changes after that: its node
      // lifecycle controller's first pass removes and re-adds them (markNodeAsReachable on every node it has not
      // seen yet, then the taint queue), so the countdown is scheduled again from the re-added taint.
      const firstPass = leader.firstPassReceivedSeconds!;
      const present = new Map<string, string>();
      for (const c of changes) if (c.at <= firstPass) (c.added ? present.set(c.key, c.value) : present.delete(c.key));
      const found: NoExecuteChange[] = [...present].map(([key, value]) => ({ at: firstPass, earliest: leader.acquiredSeconds, key, value, added: true, lateBy: OBSERVATION_LATENCY_SECONDS, newLeader: leader }));
      ({ scheduled, cancelledAt, foreverKey } = replayTaintChanges(pod, [...found, ...changes.filter((c) => c.at > firstPass)].sort(byTime)));
      newLeader = leader;
    }
  }
  const leaderNote = newLeader === null ? '' : ` (counted by the new leader: the old leader's countdown died with it; ${leaderChangeText(newLeader)})`;
  if (pod.stoppedCountingAfterSeconds !== null && scheduled && pod.stoppedCountingAfterSeconds < scheduled.start && pod.evictedAfterSeconds !== null && pod.evictedAfterSeconds < scheduled.start) return null;
  if (scheduled) {
    const item = scheduledItem(pod, node, base, scheduled);
    item.because += leaderNote;
    if (newLeader !== null) {
      const acquired = newLeader.acquiredSeconds;
      const later = leaderChangeDuring(leaderChanges.filter((c) => c.acquiredSeconds > acquired), scheduled.start, item.window!.toSeconds);
      if (later !== undefined) item.notModelled = `not modelled: ${leaderChangeText(later)} during the new leader's countdown`;
    }
    return item;
  }
  if (cancelledAt !== null && foreverKey !== null) {
    return { ...base, taintKey: foreverKey, expected: false, window: null, cause: causeOf(`NoExecute taint change on ${node.name} leaving only taints the pod tolerates forever (received)`, cancelledAt), because: `taint eviction controller cancels a scheduled eviction when the pod tolerates every NoExecute taint left forever (no tolerationSeconds on the first matching toleration of each; processPodOnNode)${leaderNote}` };
  }
  if (cancelledAt !== null) {
    return { ...base, taintKey: null, expected: false, window: null, cause: causeOf(`every NoExecute taint removed from ${node.name} (received)`, cancelledAt), because: `taint eviction controller cancels a scheduled eviction when the node loses its NoExecute taints${leaderNote}` };
  }
  if (foreverKey !== null) {
    return { ...base, taintKey: foreverKey, expected: false, window: null, cause: causeOf(`${foreverKey}:NoExecute on ${node.name} (received)`, changes[0].at), because: `the pod tolerates ${foreverKey}:NoExecute forever (its first matching toleration has no tolerationSeconds)` };
  }
  return null;
}

/** The predicted eviction of a scheduled countdown: [earliest start + toleration, trigger + 1 s + observation latency (+ lateBy)], seconds since time zero. */
function scheduledItem(pod: PodTimeline, node: NodeTimeline, base: Pick<ItemDraft, 'event' | 'node' | 'pod' | 'observedSeconds'>, scheduled: ScheduledEviction): ItemDraft {
  const what = scheduled.untolerated ? `${scheduled.key}:NoExecute not tolerated: evicted at once` : `${scheduled.key}:NoExecute + ${secondsText(scheduled.seconds)} toleration${defaultFlag(scheduled.key)}`;
  const leader = scheduled.newLeader;
  return {
    ...base, taintKey: scheduled.key, expected: true, window: evictionWindow({ taintSeenFromSeconds: scheduled.earliestStart, taintReceivedToSeconds: scheduled.start, tolerationSeconds: scheduled.seconds, lateBySeconds: scheduled.lateBy }),
    cause: leader === undefined
      ? causeOf(`NoExecute taint change on ${node.name} seen by the taint eviction controller (received)`, scheduled.start)
      : causeOf(`kube-controller-manager leader acquired its Lease (acquireTime) with ${scheduled.key}:NoExecute on ${node.name}; its first pass received at ${secondsText(scheduled.start)}`, leader.acquiredSeconds),
    because: what,
  };
}

/**
 * Why an eviction countdown that a kube-controller-manager leader change (`leader`) cut cannot be replayed, or null
 * when it can: the old leader may still have been acting at the earliest trigger (LeaderChange.oldGoneBySeconds:
 * its last renewal + renewal interval + renew deadline, or its container's restart), or the new leader's first pass
 * was not seen (no RegisteredNode Event), or another leader took over before it. Measured on kind
 * (experiments/controller-manager-restart.ts, three runs, 30 s toleration): the new leader's first pass removed and
 * re-added the unreachable taint 0.02 to 0.12 s after its RegisteredNode Events, and the evictions came 30.06 to
 * 30.13 s after the re-added taint's receipt.
 */
function leaderCutReason(leader: LeaderChange, scheduled: ScheduledEviction, changes: readonly LeaderChange[]): string | null {
  if (leader.oldGoneBySeconds === null || leader.oldGoneBySeconds > scheduled.earliestStart + scheduled.seconds) return 'the old leader may have evicted before it went';
  if (leader.firstPassReceivedSeconds === null) return "the new leader's taint eviction controller schedules evictions from its own start, and no RegisteredNode Event shows its first pass";
  if (changes.some((c) => c !== leader && c.acquiredSeconds > leader.acquiredSeconds && c.acquiredSeconds < leader.firstPassReceivedSeconds!)) return 'another leader change before its first pass';
  return null;
}

function defaultFlag(key: string): string {
  if (key.endsWith('/unreachable')) return ' (default from kube-apiserver --default-unreachable-toleration-seconds)';
  if (key.endsWith('/not-ready')) return ' (default from kube-apiserver --default-not-ready-toleration-seconds)';
  return '';
}

/** Inputs of {@link predictPods}. */
export interface PodsInput {
  pods: readonly PodTimeline[];
  nodes: readonly NodeTimeline[];
  /** Nodes a fault hit (their pods without a NoExecute taint get "no eviction" items). */
  targets: readonly string[];
  steps: readonly StepInstant[];
  /** kube-controller-manager leader changes after time zero. */
  leaderChanges: readonly LeaderChange[];
  /** Pods evicted through the Eviction API (DisruptionTarget reason EvictionByEvictionAPI), by pod uid → the condition's lastTransitionTime (whole seconds, truncated), seconds since time zero. */
  apiEvictions: ReadonlyMap<string, number>;
  /**
   * Pods their kubelet ended (DisruptionTarget reason TerminationByKubelet: a graceful node shutdown), by pod uid →
   * receipt of that record, seconds since time zero. Absent: none.
   */
  kubeletTerminations?: ReadonlyMap<string, number>;
  /** Uids of pods whose Job is journaled: lib/analyze/predict-jobs.ts predicts their replacement. Absent: none. */
  jobPods?: ReadonlySet<string>;
}

/**
 * Pod predictions: eviction per pod from its node's observed NoExecute taints (or "no eviction" on a target node
 * that got none); deletion by PodGC (Node deleted: [D + 40, D + 80] s; out-of-service taint on a NotReady node:
 * terminating pods force-deleted at the next 20 s pass) or by a `force-delete-pods` step; replacement created after
 * the old pod stopped counting (ReplicaSet, Job) or was deleted (StatefulSet).
 */
export function predictPods(input: PodsInput): ItemDraft[] {
  const items: ItemDraft[] = [];
  const byName = new Map(input.nodes.map((n) => [n.name, n]));
  for (const pod of input.pods) {
    const node = pod.nodeBefore === null ? undefined : byName.get(pod.nodeBefore);
    if (!node) continue;
    const deletion = deletionItem(pod, node, input.steps);
    // Removed by its deleter (a force-delete-pods step, or PodGC for a deleted Node): its deletionTimestamp arrived
    // inside that deletion's window, so it came from that delete, not from the taint eviction controller; or it was
    // force-deleted without one.
    const byDeleter = deletion !== null && deletion.expected && deletion.window !== null && pod.evictedAfterSeconds !== null && pod.evictedAfterSeconds >= deletion.window.fromSeconds;
    const forceDeletedAt = byDeleter ? pod.evictedAfterSeconds : pod.deletedAfterSeconds !== null && pod.evictedAfterSeconds === pod.deletedAfterSeconds ? pod.deletedAfterSeconds : null;
    let eviction = evictionItem(pod, node, input.leaderChanges);
    // A pod force-deleted (no deletionTimestamp seen first: a step or PodGC) before its eviction is gone, not evicted.
    if (eviction && forceDeletedAt !== null && (!eviction.expected || (eviction.window !== null && forceDeletedAt < eviction.window.fromSeconds))) {
      eviction = eviction.expected ? null : { ...eviction, observedSeconds: null, because: `${eviction.because}; the pod was force-deleted at ${secondsText(forceDeletedAt)} (not an eviction)` };
    }
    // Evicted by a drain or another client through the Eviction API (DisruptionTarget reason EvictionByEvictionAPI):
    // that deletion is not the taint eviction controller's. An expected eviction it pre-empted (the API eviction no
    // later than the window's end, + 1 s for lastTransitionTime's truncation) cannot be judged; a later one still can.
    const apiEviction = input.apiEvictions.get(pod.uid);
    const byApi = apiEviction === undefined ? '' : `evicted through the Eviction API at ${secondsText(apiEviction)} (DisruptionTarget reason EvictionByEvictionAPI: a drain or another client), not by the taint eviction controller`;
    if (eviction && apiEviction !== undefined) {
      if (!eviction.expected) eviction = { ...eviction, observedSeconds: null, because: `${eviction.because}; the pod was ${byApi}` };
      else if (eviction.window === null || apiEviction <= eviction.window.toSeconds + 1) eviction = { ...eviction, notModelled: `not modelled: ${byApi}` };
    }
    // Ended by its kubelet (TerminationByKubelet: a graceful node shutdown kills the pods, DaemonSet ones too, in its
    // grace period) before its deletionTimestamp, and deleted before any countdown ran out (a DaemonSet controller
    // deletes its Failed pods at once): the kubelet's shutdown and that deletion, not a taint eviction.
    const kubeletAt = input.kubeletTerminations?.get(pod.uid);
    const byKubelet = kubeletAt !== undefined && pod.evictedAfterSeconds !== null && kubeletAt <= pod.evictedAfterSeconds
      ? `terminated by its kubelet at ${secondsText(kubeletAt)} (DisruptionTarget reason TerminationByKubelet${pod.terminatedPhase ? `, phase ${pod.terminatedPhase}` : ''}) and deleted at ${secondsText(pod.evictedAfterSeconds)}, before any taint countdown ran out (not an eviction)`
      : '';
    if (eviction && byKubelet !== '' && (!eviction.expected || (eviction.window !== null && pod.evictedAfterSeconds! < eviction.window.fromSeconds))) {
      eviction = eviction.expected ? null : { ...eviction, observedSeconds: null, because: `${eviction.because}; the pod was ${byKubelet}` };
    }
    if (eviction) items.push(eviction);
    else if (input.targets.includes(node.name) && !node.taints.some((t) => t.effect === 'NoExecute') && node.deletedAfterSeconds === null) {
      const because = `no NoExecute taint was observed on ${node.name}: the taint eviction controller has nothing to act on`;
      const other = apiEviction !== undefined ? byApi : byKubelet;
      items.push({ event: 'pod-eviction', node: node.name, pod: podId(pod), taintKey: null, expected: false, window: null, observedSeconds: other === '' ? pod.evictedAfterSeconds : null, cause: null, because: other === '' ? because : `${because}; the pod was ${other}` });
    }
    if (deletion) items.push(deletion);
    const replacement = input.jobPods?.has(pod.uid) ? null : replacementItem(pod, node.name);
    if (replacement) items.push(replacement);
  }
  return items;
}

function deletionItem(pod: PodTimeline, node: NodeTimeline, steps: readonly StepInstant[]): ItemDraft | null {
  const base = { event: 'pod-deleted' as const, node: node.name, pod: podId(pod), taintKey: null, expected: true, observedSeconds: pod.deletedAfterSeconds };
  const candidates: ItemDraft[] = [];
  const d = node.deletedAfterSeconds;
  if (d !== null && (pod.deletedAfterSeconds === null || pod.deletedAfterSeconds >= d)) {
    candidates.push({ ...base, window: windowOf(d + PODGC_QUARANTINE_SECONDS, d + PODGC_QUARANTINE_SECONDS + 2 * PODGC_PERIOD_SECONDS + OBSERVATION_LATENCY_SECONDS), cause: causeOf(`Node ${node.name} deleted (received)`, d), because: `PodGC deletes pods of a deleted Node after its ${PODGC_QUARANTINE_SECONDS} s quarantine, checked every ${PODGC_PERIOD_SECONDS} s (pkg/controller/podgc)` });
  }
  // gcTerminating matches the taint by key alone, any effect (pkg/controller/podgc/gc_controller.go, taints.TaintKeyExists, v1.34.4).
  const oos = node.taints.find((t) => t.key === OUT_OF_SERVICE_TAINT && t.addedReceivedAfterSeconds !== null);
  const notReady = node.notReadyReceivedAfterSeconds;
  if (oos && notReady !== null && pod.evictedAfterSeconds !== null) {
    const start = Math.max(oos.addedReceivedAfterSeconds as number, notReady, pod.evictedAfterSeconds);
    const notRemoved = oos.removedAfterSeconds === null || oos.removedAfterSeconds > start;
    const back = node.readyAgainReceivedAfterSeconds === null || node.readyAgainReceivedAfterSeconds > start;
    if (notRemoved && back && (pod.deletedAfterSeconds === null || pod.deletedAfterSeconds >= Math.max(oos.addedReceivedAfterSeconds as number, pod.evictedAfterSeconds))) {
      const cause = start === notReady ? `${node.name} NotReady (received)` : start === pod.evictedAfterSeconds ? `${pod.name} terminating (received)` : `${OUT_OF_SERVICE_TAINT}:${oos.effect} on ${node.name} (received)`;
      candidates.push({ ...base, window: windowOf(start - 0.1, start + PODGC_PERIOD_SECONDS + OBSERVATION_LATENCY_SECONDS), cause: causeOf(cause, start), because: `PodGC force-deletes terminating pods of a NotReady node with the ${OUT_OF_SERVICE_TAINT} taint (any effect: ${oos.effect} here) at its next pass (every ${PODGC_PERIOD_SECONDS} s)` });
    }
  }
  for (const step of steps) {
    if (step.action !== 'force-delete-pods' || step.node !== node.name) continue;
    if (pod.deletedAfterSeconds !== null && pod.deletedAfterSeconds < step.startedAfterSeconds) continue;
    candidates.push({ ...base, window: windowOf(step.startedAfterSeconds - 0.1, step.afterSeconds + OBSERVATION_LATENCY_SECONDS), cause: causeOf(`force-delete-pods step on ${node.name} started`, step.startedAfterSeconds), because: 'the force-delete-pods step deletes the node\'s pods with grace period 0 while it runs' });
  }
  if (candidates.length === 0) return null;
  return candidates.reduce((a, b) => ((a.window?.fromSeconds ?? Infinity) <= (b.window?.fromSeconds ?? Infinity) ? a : b));
}

function replacementItem(pod: PodTimeline, node: string): ItemDraft | null {
  if (pod.workload === null || pod.ownerKind === 'DaemonSet') return null;
  const base = { event: 'replacement-created' as const, node, pod: podId(pod), taintKey: null, observedSeconds: pod.replacement?.createdAfterSeconds ?? null };
  if (pod.ownerKind === null) {
    if (pod.stoppedCountingAfterSeconds === null) return null;
    return { ...base, expected: false, window: null, cause: causeOf(`${pod.name} stopped (received)`, pod.stoppedCountingAfterSeconds), because: 'a standalone pod has no controller to replace it' };
  }
  if (pod.ownerKind === 'StatefulSet') {
    if (pod.deletedAfterSeconds === null) {
      if (pod.stoppedCountingAfterSeconds === null) return null;
      return { ...base, expected: false, window: null, cause: causeOf(`${pod.name} terminating (received)`, pod.stoppedCountingAfterSeconds), because: 'a StatefulSet recreates a pod only once the old one is deleted (at most one pod per identity)' };
    }
    return { ...base, expected: true, window: windowOf(pod.deletedAfterSeconds - 0.1, pod.deletedAfterSeconds + REPLACEMENT_SECONDS), cause: causeOf(`${pod.name} deleted (received)`, pod.deletedAfterSeconds), because: `StatefulSet controller recreates ${pod.name} as soon as the old pod is deleted` };
  }
  if (pod.stoppedCountingAfterSeconds === null) return null;
  return { ...base, expected: true, window: windowOf(pod.stoppedCountingAfterSeconds - 0.1, pod.stoppedCountingAfterSeconds + REPLACEMENT_SECONDS), cause: causeOf(`${pod.name} terminating or Failed (received)`, pod.stoppedCountingAfterSeconds), because: `${pod.ownerKind} controller creates a replacement once the old pod has a deletionTimestamp or is Failed` };
}
