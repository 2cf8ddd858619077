// Whether the workloads recovered from the fault, decided during a run from each journal record once
// (RecoveryTracker) instead of re-analyzing the whole journal at every check; recoveryOfAnalysis states the
// same rule over a full analysis, the reference the tracker is tested against record by record.
import type { ObjectObservation, Observation } from '../observe/types.js';
import { workloadMembership, type WorkloadOf } from './membership.js';
import { deletionTimestamp, isReady, nodeName, phase, restartCount } from './objects.js';
import { TERMINAL_PHASES } from './pod-timeline.js';
import type { PredictionItem, RunAnalysis, WorkloadRef } from './types.js';
import { countsAsAvailable } from './workload-timeline.js';

/** The three parts of the "until recovered" decision, as of the records seen so far. */
export interface RecoveryState {
  /** Every fault target seen as a Node is Ready in its last record, or its Node was deleted after time zero. */
  nodesBack: boolean;
  /**
   * Every workload pod that ran on a fault target at time zero shows the fault's effect: its outcome
   * (lib/analyze/outcome.ts decideOutcome) is anything but `unaffected`.
   */
  effectsSeen: boolean;
  /**
   * Every workload is back at its desired Ready count (WorkloadTimeline.recovered), or is a standalone Pod
   * whose every pod was evicted or deleted (no controller brings it back).
   */
  workloadsSettled: boolean;
  /**
   * No workload pod that existed at time zero is still listed and bound to a Node that is gone (deleted, not back)
   * or not Ready: such a pod still awaits its consequence (PodGC for a deleted Node, an eviction or the kubelet's
   * return for a down one), even while the API shows it Ready and its workload at full count (issue 24: two Nodes
   * deleted looked "recovered" 2 s later, before PodGC had acted). Pods on Nodes never journaled count as fine.
   */
  podsOnLiveNodes: boolean;
  /**
   * Every pod (any namespace, rebootlab's or not) that ran on a fault target and was Ready at time zero is Ready again
   * in its last record, or has stopped counting (deleted, terminating, or in a terminal phase since): after a reboot
   * the node's own DaemonSet pods (CNI, kube-proxy) restart seconds after the workloads may already be back
   * (local-data-reboot, forecast campaign: the CNI pod not yet restarted when the run ended).
   */
  targetPodsBack: boolean;
}

/** The recovery rule over a full analysis of the journal so far (what run-variant decided before the tracker). */
export function recoveryOfAnalysis(analysis: RunAnalysis): RecoveryState {
  const targets = new Set(analysis.targets);
  const nodes = new Map(analysis.nodes.map((n) => [n.name, n]));
  return {
    nodesBack: analysis.nodes.filter((n) => n.faultTarget).every((n) => n.readyAtEnd || n.deletedAfterSeconds !== null),
    effectsSeen: analysis.pods
      .filter((p) => p.workload !== null && p.nodeBefore !== null && targets.has(p.nodeBefore))
      .every((p) => p.outcome !== 'unaffected'),
    workloadsSettled: analysis.workloads.every((w) => w.recovered || (w.kind === 'Pod' && analysis.pods
      .filter((p) => p.workload === w.name)
      .every((p) => p.evictedAfterSeconds !== null || p.deletedAfterSeconds !== null))),
    podsOnLiveNodes: analysis.pods.every((p) => {
      if (p.workload === null || p.deletedAfterSeconds !== null || p.nodeAfter === null) return true;
      const node = nodes.get(p.nodeAfter);
      return node === undefined || node.readyAtEnd;
    }),
    targetPodsBack: analysis.pods
      .filter((p) => p.readyAtFault === true && p.nodeBefore !== null && targets.has(p.nodeBefore))
      .every((p) => p.readyAtEnd || p.stoppedCountingAfterSeconds !== null),
  };
}

/** What the tracker keeps of one pod (by UID): the facts the outcome rule reads, nothing of the object itself. */
interface PodState {
  /** At time zero: it existed, not deleted and without a deletionTimestamp (analysis' pod facts keep only these). */
  observed: boolean;
  /** Workload label, node and restart count of its last record before time zero. */
  workload: string | null;
  nodeBefore: string | null;
  restartsBefore: number;
  /** Its last record: a deletion, or Ready without a deletionTimestamp, and its phase. */
  lastDeleted: boolean;
  lastReady: boolean;
  lastPhase: string | null;
  /** Node and restart count of its last record that was not a deletion. */
  nodeAfter: string | null;
  restartsAfter: number;
  /** After time zero: deleted or given a deletionTimestamp; ever Ready. */
  evicted: boolean;
  readyAfterFault: boolean;
  /** After time zero: deleted, given a deletionTimestamp or seen in a terminal phase (its controller stopped counting it). */
  stoppedCounting: boolean;
}

/** Ready pods of one workload (its pods per lib/analyze/membership.ts), counted as analyze counts them. */
interface WorkloadCount {
  ref: WorkloadRef;
  readyByUid: Map<string, boolean>;
  ready: number;
  /** Ready count just before its first pod record after time zero, or null before that record. */
  readyAtFault: number | null;
}

/**
 * Follows the journal record by record (each appended record given to {@link add} once, in seq order) and
 * answers {@link state} from what it keeps: per Node name its last state and whether it was deleted after
 * time zero; per pod UID the facts of the outcome rule; per workload its Ready count. The answer equals
 * {@link recoveryOfAnalysis} of `analyze()` over the same records, at every record (test/unit/analyze/recovery.test.ts),
 * at a cost per record independent of the journal's length. Time zero, targets and the pods' state before it
 * follow lib/analyze/context.ts: the first `fault-injecting` marker, or the first `fault-injected` one in
 * journals without an earlier `fault-injecting`.
 */
export class RecoveryTracker {
  /** Client clock of the first `fault-injected` marker, Unix epoch milliseconds, or null before it. */
  faultInjectedAtMs: number | null = null;
  #timeZero: 'fault-injecting' | 'fault-injected' | null = null;
  readonly #injectingTargets = new Set<string>();
  readonly #injectedTargets = new Set<string>();
  readonly #nodes = new Map<string, { lastDeleted: boolean; lastReady: boolean; deletedAfterFault: boolean }>();
  readonly #pods = new Map<string, PodState>();
  /** Pods observed at time zero with a workload label, by the node they ran on then. */
  readonly #workloadPodsByNode = new Map<string, PodState[]>();
  /** Pods (any workload or none) observed Ready at time zero, by the node they ran on then. */
  readonly #readyPodsByNode = new Map<string, PodState[]>();
  /** Pods observed at time zero, by workload label. */
  readonly #podsByWorkload = new Map<string, PodState[]>();
  readonly #workloads = new Map<string, WorkloadCount>();
  readonly #workloadOf: WorkloadOf;

  /** @param workloads the experiment's workloads (run.json `workloads`), as analyze() takes them. */
  constructor(workloads: readonly WorkloadRef[]) {
    for (const ref of workloads) this.#workloads.set(ref.name, { ref, readyByUid: new Map(), ready: 0, readyAtFault: null });
    this.#workloadOf = workloadMembership(workloads);
  }

  /** Takes the next journal record (seq order, each once). */
  add(record: Observation): void {
    if (record.type === 'phase') {
      if (record.phase === 'fault-injecting') {
        if (this.faultInjectedAtMs === null) this.#startTimeZero('fault-injecting');
        for (const node of record.nodes ?? []) this.#injectingTargets.add(node);
      } else if (record.phase === 'fault-injected') {
        this.faultInjectedAtMs ??= record.receivedAtMs;
        this.#startTimeZero('fault-injected');
        for (const node of record.nodes ?? []) this.#injectedTargets.add(node);
      }
      return;
    }
    if (record.type !== 'object') return;
    if (record.kind === 'Node') this.#addNode(record);
    else if (record.kind === 'Pod') this.#addPod(record);
  }

  /** The decision as of the records added so far, or null before the first `fault-injected` marker. */
  state(): RecoveryState | null {
    if (this.faultInjectedAtMs === null) return null;
    const targets = this.#timeZero === 'fault-injecting' ? this.#injectingTargets : this.#injectedTargets;
    let nodesBack = true;
    let effectsSeen = true;
    for (const target of targets) {
      const node = this.#nodes.get(target);
      if (node && !((!node.lastDeleted && node.lastReady) || node.deletedAfterFault)) nodesBack = false;
      for (const pod of this.#workloadPodsByNode.get(target) ?? []) if (this.#unaffected(pod)) effectsSeen = false;
    }
    let targetPodsBack = true;
    for (const target of targets) {
      for (const pod of this.#readyPodsByNode.get(target) ?? []) if (!pod.lastReady && !pod.stoppedCounting) targetPodsBack = false;
    }
    let podsOnLiveNodes = true;
    for (const pods of this.#podsByWorkload.values()) {
      for (const pod of pods) {
        if (pod.lastDeleted || pod.nodeAfter === null) continue;
        const node = this.#nodes.get(pod.nodeAfter);
        if (node && (node.lastDeleted || !node.lastReady)) podsOnLiveNodes = false;
      }
    }
    let workloadsSettled = true;
    for (const w of this.#workloads.values()) {
      const desired = w.ref.desiredReplicas ?? w.readyAtFault ?? w.ready;
      if (w.ready >= desired) continue;
      if (w.ref.kind === 'Pod' && (this.#podsByWorkload.get(w.ref.name) ?? []).every((p) => p.evicted)) continue;
      workloadsSettled = false;
    }
    return { nodesBack, effectsSeen, workloadsSettled, podsOnLiveNodes, targetPodsBack };
  }

  #addNode(record: ObjectObservation): void {
    const deleted = record.verb === 'DELETED';
    const node = this.#nodes.get(record.name);
    const deletedAfterFault = (node?.deletedAfterFault ?? false) || (deleted && this.#timeZero !== null);
    this.#nodes.set(record.name, { lastDeleted: deleted, lastReady: !deleted && isReady(record.object), deletedAfterFault });
  }

  #addPod(record: ObjectObservation): void {
    const afterFault = this.#timeZero !== null;
    const deleted = record.verb === 'DELETED';
    const terminating = deletionTimestamp(record.object) !== null;
    let pod = this.#pods.get(record.uid);
    if (!pod) {
      pod = {
        observed: false, workload: null, nodeBefore: null, restartsBefore: 0, lastDeleted: false, lastReady: false, lastPhase: null,
        nodeAfter: null, restartsAfter: 0, evicted: false, readyAfterFault: false, stoppedCounting: false,
      };
      this.#pods.set(record.uid, pod);
    }
    if (!afterFault) {
      // Until time zero the last record is "the pod at the fault"; its facts become the pod's `before`.
      pod.observed = !deleted && !terminating;
      pod.workload = this.#workloadOf(record);
      pod.nodeBefore = nodeName(record.object);
      pod.restartsBefore = restartCount(record.object);
    } else {
      if (deleted || terminating) pod.evicted = true;
      if (deleted || terminating || TERMINAL_PHASES.has(phase(record.object) ?? '')) pod.stoppedCounting = true;
      if (!deleted && isReady(record.object)) pod.readyAfterFault = true;
    }
    pod.lastDeleted = deleted;
    pod.lastReady = !deleted && isReady(record.object) && !terminating;
    pod.lastPhase = deleted ? null : phase(record.object);
    if (!deleted) {
      pod.nodeAfter = nodeName(record.object);
      pod.restartsAfter = restartCount(record.object);
    }
    this.#count(record, afterFault);
  }

  /**
   * At the time-zero marker: the pods as they are now are the pods at the fault. Those that exist (not deleted,
   * no deletionTimestamp) are indexed by workload and by node, once; pods first seen later are never counted.
   */
  #startTimeZero(marker: 'fault-injecting' | 'fault-injected'): void {
    if (this.#timeZero !== null) return;
    this.#timeZero = marker;
    for (const pod of this.#pods.values()) {
      if (pod.observed && pod.lastReady && pod.nodeBefore !== null) push(this.#readyPodsByNode, pod.nodeBefore, pod);
      if (!pod.observed || pod.workload === null) continue;
      push(this.#podsByWorkload, pod.workload, pod);
      if (pod.nodeBefore !== null) push(this.#workloadPodsByNode, pod.nodeBefore, pod);
    }
  }

  /** The outcome rule (decideOutcome) reduced to "is it still unaffected?". */
  #unaffected(pod: PodState): boolean {
    if (pod.evicted) return false;
    if (pod.lastPhase === 'Pending' && !pod.readyAfterFault) return false;
    if (pod.restartsAfter - pod.restartsBefore > 0) return false;
    if (!pod.lastReady) return false;
    if (pod.nodeAfter === null) return true;
    const node = this.#nodes.get(pod.nodeAfter);
    return node !== undefined && !node.lastDeleted && node.lastReady;
  }

  /** Updates the Ready count of the workload the record's label names (as buildWorkloadTimelines counts). */
  #count(record: ObjectObservation, afterFault: boolean): void {
    const name = this.#workloadOf(record);
    const w = name === null ? undefined : this.#workloads.get(name);
    if (!w) return;
    if (afterFault && w.readyAtFault === null) w.readyAtFault = w.ready;
    const ready = countsAsAvailable(record);
    const was = w.readyByUid.get(record.uid) ?? false;
    w.readyByUid.set(record.uid, ready);
    w.ready += Number(ready) - Number(was);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The predicted events still ahead in an analysis of the journal so far: items expected to happen, with a window,
 * not yet observed (held === null: the window is still open) and not "not modelled", whose window closes by
 * `untilSeconds` (seconds since time zero, e.g. the observation's timeout): PodGC of a deleted Node's pods, an
 * eviction counting down, a replacement due. Sorted by the window's end. A run that stops before them reports
 * consequences as absent that were only late.
 */
export function pendingPredictions(analysis: RunAnalysis, untilSeconds: number): PredictionItem[] {
  return analysis.predictions.items
    .filter((i) => i.expected && i.notModelled === undefined && i.window !== null && i.held === null && i.observedSeconds === null && i.window.toSeconds <= untilSeconds)
    .sort((a, b) => a.window!.toSeconds - b.window!.toSeconds);
}
