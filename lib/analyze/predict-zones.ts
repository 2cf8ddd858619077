// Causal model, zone part: which NotReady nodes get the NoExecute taint and when, replaying the node lifecycle
// controller's per-zone token buckets and zone states over the observed detections.
import { KUBE_API_BURST_DEFAULT, KUBE_API_QPS_DEFAULT, type TimeoutSettings } from '../spec/settings.js';
import { firstTaint } from './predict-detection.js';
import { causeOf, leaderChangeDuring, leaderChangeText, NOT_READY_TAINT, OBSERVATION_LATENCY_SECONDS, round3, secondsText, UNREACHABLE_TAINT, windowOf, type ItemDraft, type LeaderChange } from './predict-common.js';
import type { NodeTimeline, PodTimeline, Window, ZoneStateChange } from './types.js';

/** Detections closer than this are taken as one monitor pass, seconds (a pass updates its nodes within milliseconds). */
export const SAME_PASS_SECONDS = 1;

type ZoneState = ZoneStateChange['state'];

/**
 * Zone state as ComputeZoneState (pkg/controller/nodelifecycle/node_lifecycle_controller.go): FullDisruption when
 * no node is Ready and at least one is not; PartialDisruption when more than 2 are NotReady and NotReady / total ≥
 * `--unhealthy-zone-threshold`; else Normal. Counts are over the zone's nodes that count (not labelled
 * node.kubernetes.io/exclude-disruption). https://kubernetes.io/docs/concepts/architecture/nodes/#rate-limits-on-eviction
 */
export function computeZoneState(settings: TimeoutSettings, notReady: number, total: number): ZoneState {
  const ready = total - notReady;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / Math.max(total, 1) >= settings.controllerManager.unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * NoExecute tainting rate of a zone in `state`, nodes per second (setLimiterInZone): Normal and FullDisruption →
 * `--node-eviction-rate`; PartialDisruption → `--secondary-node-eviction-rate` when the zone has more than
 * `--large-cluster-size-threshold` nodes, else 0.
 */
export function zoneEvictionRate(settings: TimeoutSettings, state: ZoneState, zoneSize: number): number {
  const cm = settings.controllerManager;
  if (state === 'PartialDisruption') return zoneSize > cm.largeClusterSizeThreshold ? cm.secondaryNodeEvictionRate : 0;
  return cm.nodeEvictionRate;
}

/** One observed NotReady transition (client receive time, seconds since time zero) and the taint key it calls for. */
interface Detection {
  node: NodeTimeline;
  atSeconds: number;
  key: string;
  /** Set when the zone's limiter went to rate 0 (or master disruption mode began) while this node was queued. */
  stranded?: { why: string; atSeconds: number };
  /** Set when this node's in-pass token was lost to the end-of-pass swap to rate 0 (see `inPassTaints`): why. */
  lostInPassToken?: string;
}

interface Zone {
  name: string;
  members: NodeTimeline[];
  state: ZoneState;
  rate: number;
  /** When the bucket (burst 1) next holds a token, seconds since time zero; −∞ = full. */
  nextTokenAt: number;
  /** Nodes detected and waiting for a token, in queue order. */
  queue: Detection[];
  /** What the next token counts from (the last taint, or a limiter swap that drained the bucket): the cause of the next queued taint. */
  tokenCause: { event: string; atSeconds: number; received?: boolean } | null;
}

/** Result of {@link predictNoExecuteTaints}. */
export interface ZoneReplay {
  items: ItemDraft[];
  zoneStates: ZoneStateChange[];
}

/**
 * Replay the controller over the observed detections (Ready→Unknown: unreachable; Ready=False from the kubelet:
 * not-ready). Each detection joins its zone's queue in its monitor pass (detections within SAME_PASS_SECONDS are
 * one pass) and is tainted as soon as the zone's token bucket (burst 1, one token per 1 / rate s, starts full) has a
 * token: the NoExecute tainting loop runs every 100 ms, so a node detected in a pass usually takes a free token
 * before the end of that pass. At the end of every pass the zone states are re-evaluated from the nodes NotReady
 * at that pass; on a change the zone's limiter is swapped (SwapLimiter keeps the bucket empty when the old one was),
 * which to rate 0 strands the rest of the queue, and the in-pass taint too when the loop did not get to it first
 * (case C1: at most one of three simultaneous nodes tainted; case C9: of three nodes 15 s apart the first two
 * tainted, the third when it wins that race). When every zone is FullDisruption the controller enters master disruption mode:
 * it removes NoExecute taints and taints nothing. A queued node's token time counts from the previous taint as
 * observed (client receive time) when it was observed, else as predicted.
 * A taint whose cause and window span a kube-controller-manager leader change (`leaderChanges`: from the old holder's
 * last renewal to the new holder's acquisition) is "not modelled". `pods` (their node before the
 * fault and when NotReady was received, seconds since time zero) count the controller's writes in a pass: a taint in
 * a pass that writes more than `--kube-api-burst` requests may wait for client tokens (clientThrottle).
 */
export function predictNoExecuteTaints(
  settings: TimeoutSettings,
  nodes: readonly NodeTimeline[],
  endSeconds: number,
  leaderChanges: readonly LeaderChange[],
  pods: readonly Pick<PodTimeline, 'nodeBefore' | 'notReadyReceivedAfterSeconds'>[] = [],
): ZoneReplay {
  const items: ItemDraft[] = [];
  const zoneStates: ZoneStateChange[] = [];
  const zones = new Map<string, Zone>();
  // When each pod's NotReady was received, by its node before the fault: what clientThrottle counts per pass.
  const podNotReadyByNode = new Map<string, number[]>();
  for (const p of pods) {
    if (p.nodeBefore === null || p.notReadyReceivedAfterSeconds === null) continue;
    podNotReadyByNode.set(p.nodeBefore, [...(podNotReadyByNode.get(p.nodeBefore) ?? []), p.notReadyReceivedAfterSeconds]);
  }
  for (const n of nodes) {
    if (!n.countsForZoneState) continue;
    const z = zones.get(n.zone) ?? { name: n.zone, members: [], state: 'Normal' as ZoneState, rate: settings.controllerManager.nodeEvictionRate, nextTokenAt: -Infinity, queue: [], tokenCause: null };
    z.members.push(n);
    zones.set(n.zone, z);
  }
  const detections: Detection[] = nodes
    .filter((n) => n.notReadyReceivedAfterSeconds !== null && n.notReadyStatus !== null)
    .map((n) => ({ node: n, atSeconds: n.notReadyReceivedAfterSeconds as number, key: n.notReadyStatus === 'False' ? NOT_READY_TAINT : UNREACHABLE_TAINT }))
    .sort((a, b) => a.atSeconds - b.atSeconds || a.node.name.localeCompare(b.node.name));
  // Passes: detections grouped by time; Ready-again and deletions also change the NotReady set at their instant.
  const passes: { atSeconds: number; detections: Detection[] }[] = [];
  for (const d of detections) {
    const last = passes.at(-1);
    if (last && d.atSeconds - last.atSeconds <= SAME_PASS_SECONDS) last.detections.push(d);
    else passes.push({ atSeconds: d.atSeconds, detections: [d] });
  }
  // A node Ready again or deleted changes its zone's NotReady count: the next pass re-evaluates the zone state.
  for (const d of detections) {
    for (const back of [d.node.readyAgainReceivedAfterSeconds, d.node.deletedAfterSeconds]) {
      if (back !== null && back > d.atSeconds && !passes.some((p) => Math.abs(p.atSeconds - back) <= SAME_PASS_SECONDS)) passes.push({ atSeconds: back, detections: [] });
    }
  }
  passes.sort((a, b) => a.atSeconds - b.atSeconds);
  const notReadyAt = (n: NodeTimeline, t: number): boolean =>
    n.notReadyReceivedAfterSeconds !== null && n.notReadyReceivedAfterSeconds <= t + SAME_PASS_SECONDS / 2 &&
    (n.readyAgainReceivedAfterSeconds === null || n.readyAgainReceivedAfterSeconds > t) && (n.deletedAfterSeconds === null || n.deletedAfterSeconds > t);
  const flagRate = (r: number) => (r === settings.controllerManager.nodeEvictionRate ? `--node-eviction-rate ${r}/s` : r === 0 ? 'rate 0' : `--secondary-node-eviction-rate ${r}/s`);
  let masterDisruption = false;
  let leftMasterDisruptionAt: number | null = null;
  /**
   * `inPass`: the taint is tried in the very monitor pass that wrote Ready=Unknown. The tainting loop reads the node
   * from the controller's informer cache; when it runs before the controller's own Ready=Unknown write reached that
   * cache it still sees Ready=True, spends the zone's token and drops the node ("ready now, ignoring taint request",
   * doNoExecuteTaintingPass), and the next monitor pass re-queues it (markNodeForTainting removes and re-adds a node
   * without the taint), so it waits for the next token: max(M, 1 / rate) after the write. Both paths are windows
   * derived from the same cause; the item shows the one the observed taint took (the first when unobserved).
   */
  const emitTaint = (z: Zone, d: Detection, at: number, cause: ReturnType<typeof causeOf>, because: string, inPass: boolean, afterReceivedTaint = false, throttle: ClientThrottle | null = null): { item: ItemDraft; passWindow: Window | null } => {
    const observed = observedTaintAt(d);
    const leader = leaderChangeDuring(leaderChanges, d.atSeconds, at + OBSERVATION_LATENCY_SECONDS);
    // The controller itself writes Ready=Unknown in the pass that taints; a Ready=False the kubelet wrote is only
    // seen at the controller's next --node-monitor-period pass (0…M later).
    const monitorPeriodSeconds = settings.controllerManager.nodeMonitorPeriodMs / 1000;
    const passWaitSeconds = d.key === NOT_READY_TAINT ? monitorPeriodSeconds : 0;
    const item: ItemDraft = {
      event: 'no-execute-taint', node: d.node.name, pod: null, taintKey: d.key, expected: true,
      // After a taint as received, the token was spent when that taint was written, up to the observation latency
      // before its receipt: the next one can be received that much less than 1 / rate after it (kwok at 100 nodes: 0.52 to 0.73 s in three runs).
      window: windowOf(at - 0.1 - (afterReceivedTaint ? OBSERVATION_LATENCY_SECONDS : 0), at + passWaitSeconds + OBSERVATION_LATENCY_SECONDS + (throttle?.waitSeconds ?? 0)), observedSeconds: observed, cause,
      because: passWaitSeconds > 0 ? `${because}; the kubelet reported Ready=False itself, which the controller sees at its next pass (--node-monitor-period ${secondsText(passWaitSeconds)})` : because,
    };
    if (throttle) item.because += `; ${throttle.because}`;
    // The window of a taint written in this very pass, before the informer-cache path below may replace it.
    const passWindow = item.window;
    let usedAt = observed !== null && Math.abs(observed - at) <= 2 ? observed : at;
    if (inPass && d.key === UNREACHABLE_TAINT && z.rate > 0 && observed !== null && item.window !== null && observed > item.window.toSeconds) {
      const tokenSeconds = 1 / z.rate;
      const raceWindow = windowOf(at + Math.max(monitorPeriodSeconds, tokenSeconds) - 0.1, at + Math.max(monitorPeriodSeconds, 0.1 + tokenSeconds) + 0.1 + OBSERVATION_LATENCY_SECONDS);
      if (observed >= raceWindow.fromSeconds && observed <= raceWindow.toSeconds) {
        item.window = raceWindow;
        item.because = `${d.key}:NoExecute one token later: the tainting loop read ${d.node.name} from the controller's informer cache before its own Ready=Unknown write arrived, spent zone "${z.name}"'s token and dropped the node as Ready; the next monitor pass (--node-monitor-period ${secondsText(monitorPeriodSeconds)}) re-queued it for the next token (${flagRate(z.rate)}, burst 1)`;
        usedAt = observed;
      }
    }
    if (leader !== undefined) item.notModelled = `not modelled: ${leaderChangeText(leader)}; the new leader re-queues NotReady nodes`;
    items.push(item);
    // The next token counts from when this taint really happened when it was seen near its prediction.
    z.nextTokenAt = usedAt + (z.rate > 0 ? 1 / z.rate : Infinity);
    z.tokenCause = { event: `previous NoExecute taint in zone "${z.name}" (on ${d.node.name}, received)`, atSeconds: usedAt, received: usedAt === observed };
    return { item, passWindow };
  };
  /**
   * The next node of a zone's queue. Every monitor pass re-queues each NotReady node that has no taint yet
   * (markNodeForTainting: Remove, then Add with a new time), in the order that pass listed the nodes (the informer
   * lister's, a map's order: not observable), so any node waiting when a token comes may be the one tainted. The
   * token goes to whichever waiting node the controller was seen to taint first; one not seen tainted comes after
   * those that were, by name. Slot times do not depend on this choice; which node fills which slot does.
   */
  const nextInQueue = (z: Zone): Detection => {
    const head = z.queue[0] as Detection;
    const tokenAt = Math.max(z.nextTokenAt, head.atSeconds);
    const observedAt = (d: Detection) => observedTaintAt(d) ?? Infinity;
    let best = 0;
    for (let i = 1; i < z.queue.length; i++) {
      const d = z.queue[i] as Detection;
      if (d.atSeconds > tokenAt + SAME_PASS_SECONDS) continue; // not NotReady yet when the token came
      const candidate = z.queue[best] as Detection;
      if (observedAt(d) < observedAt(candidate) || (observedAt(d) === observedAt(candidate) && d.node.name.localeCompare(candidate.node.name) < 0)) best = i;
    }
    return z.queue.splice(best, 1)[0] as Detection;
  };
  const drain = (z: Zone, until: number): void => {
    while (z.queue.length > 0 && z.rate > 0 && !masterDisruption && Math.max(z.nextTokenAt, leftMasterDisruptionAt ?? -Infinity) < until) {
      const d = nextInQueue(z);
      const at = Math.max(z.nextTokenAt, d.atSeconds, leftMasterDisruptionAt ?? -Infinity);
      if (gone(d, at)) {
        items.push(leftQueue(d, z));
        continue;
      }
      if (leftMasterDisruptionAt !== null) {
        items.push({ ...notTainted(d, 'left master disruption mode', d.atSeconds), expected: true, notModelled: `not modelled: the controller left master disruption mode at ${secondsText(leftMasterDisruptionAt)} and re-queues NotReady nodes` });
        continue;
      }
      const prev = z.tokenCause;
      const afterPrevious = prev !== null && prev.atSeconds >= d.atSeconds;
      emitTaint(z, d, at, afterPrevious ? causeOf(prev.event, prev.atSeconds) : causeOf(`${d.node.name} NotReady (received)`, d.atSeconds),
        `zone "${z.name}" token bucket: one node per ${secondsText(round3(1 / z.rate))} (${flagRate(z.rate)}, burst 1); ${d.node.name} waited for the next token (each monitor pass re-queues the waiting nodes in its lister's order: which one is next is taken as observed)`,
        false, afterPrevious && prev.received === true && at === z.nextTokenAt);
    }
  };
  for (const pass of passes) {
    const t = pass.atSeconds;
    /**
     * The in-pass taints of the current pass, with the window of a write in that pass, so one can be taken back.
     * The controller queues a node (processTaintBaseEviction) while its monitor pass runs and swaps the zone's limiter
     * at the end of that pass (handleDisruption); the tainting loop that spends the token runs every 100 ms
     * (scheduler.NodeEvictionPeriod) on its own goroutine. When the pass ends by swapping the limiter to rate 0, the
     * taint happens only if a tick of that loop fell between the queueing and the swap (campaign of 2 Dec 2026: lost
     * in 1 of 3 runs both of kwok zone-partial-disruption and of kind staggered-workers). Which way it went cannot be known before, so the observation decides: a node not seen tainted in its
     * window goes back to the queue, stranded at rate 0, and is tainted at the zone's next token if the zone recovers.
     */
    const inPassTaints: { zone: Zone; detection: Detection; item: ItemDraft; passWindow: Window | null }[] = [];
    // One per pass (it counts the whole pass's writes), computed when a taint in it needs it.
    let passThrottle: ClientThrottle | null | undefined;
    const throttleOfPass = () => (passThrottle === undefined ? (passThrottle = clientThrottle(settings, pass.detections, podNotReadyByNode)) : passThrottle);
    for (const z of zones.values()) drain(z, t);
    for (const d of pass.detections) {
      const z = zones.get(d.node.zone);
      if (!z || !z.members.includes(d.node)) continue;
      if (masterDisruption) {
        items.push(notTainted(d, 'every zone is FullDisruption: master disruption mode taints nothing (node lifecycle controller)', t));
        continue;
      }
      // A node seen tainted right away is the one that took the token; otherwise queue order is by name.
      z.queue.push(d);
    }
    for (const z of zones.values()) {
      z.queue.sort((a, b) => Number(tainted(b, t)) - Number(tainted(a, t)) || a.atSeconds - b.atSeconds || a.node.name.localeCompare(b.node.name));
      if (z.queue.length > 0 && z.rate > 0 && !masterDisruption && z.nextTokenAt <= t) {
        const d = z.queue.shift() as Detection;
        const { item, passWindow } = emitTaint(z, d, d.atSeconds, causeOf(`${d.node.name} ${d.key === UNREACHABLE_TAINT ? 'Ready=Unknown' : 'Ready=False'} (received)`, d.atSeconds),
          `${d.key}:NoExecute in the monitor pass that saw it NotReady; zone "${z.name}" had a token (${flagRate(z.rate)}, burst 1)`, true, false,
          throttleOfPass());
        inPassTaints.push({ zone: z, detection: d, item, passWindow });
      }
    }
    // End of the pass: zone states and limiters.
    const states = new Map<string, ZoneState>();
    for (const z of zones.values()) {
      const down = z.members.filter((n) => notReadyAt(n, t)).length;
      const live = z.members.filter((n) => n.deletedAfterSeconds === null || n.deletedAfterSeconds > t).length;
      states.set(z.name, computeZoneState(settings, down, live));
    }
    const allFull = [...states.values()].every((st) => st === 'FullDisruption');
    for (const z of zones.values()) {
      const st = states.get(z.name) as ZoneState;
      if (st === z.state) continue;
      const down = z.members.filter((n) => notReadyAt(n, t)).length;
      const newRate = zoneEvictionRate(settings, st, z.members.length);
      // SwapLimiter: a new bucket starts full unless the old one had no token.
      const hadToken = z.rate > 0 && z.nextTokenAt <= t;
      z.state = st;
      if (newRate !== z.rate) {
        // An in-pass taint not seen inside the window of a write in this pass lost the race with this swap to rate 0:
        // take it back (inPassTaints). Its token state needs no restore: rate 0 has none, and leaving rate 0 always
        // starts with an empty bucket. A taint seen later (the informer-cache path's next token) cannot come at rate 0.
        for (const p of newRate <= 0 ? inPassTaints.filter((x) => x.zone === z) : []) {
          const observed = observedTaintAt(p.detection);
          if (observed !== null && p.passWindow !== null && observed <= p.passWindow.toSeconds) continue;
          const index = items.indexOf(p.item);
          if (index >= 0) items.splice(index, 1);
          p.detection.lostInPassToken = `the tainting loop (every 100 ms) did not taint ${p.detection.node.name} before the end of the monitor pass that swapped zone "${z.name}"'s limiter to rate 0 at ${secondsText(t)} (it did not run between the node's queueing and that swap, or read the node from its informer cache as still Ready)`;
          z.queue.unshift(p.detection);
        }
        z.rate = newRate;
        z.nextTokenAt = hadToken ? -Infinity : newRate > 0 ? t + 1 / newRate : Infinity;
        if (!hadToken && newRate > 0) z.tokenCause = { event: `zone "${z.name}" ${st}: limiter swapped to ${flagRate(newRate)} with an empty bucket`, atSeconds: t };
        if (newRate <= 0) for (const d of z.queue) d.stranded ??= { why: `zone "${z.name}" ${st} (${down}/${z.members.length} NotReady) at rate 0`, atSeconds: t };
      }
      zoneStates.push({ zone: z.name, atSeconds: round3(t), state: st, evictionRatePerSecond: allFull ? 0 : newRate, notReady: down, total: z.members.length });
    }
    if (allFull && !masterDisruption) {
      masterDisruption = true;
      for (const z of zones.values()) for (const d of z.queue) d.stranded ??= { why: 'every zone FullDisruption: master disruption mode taints nothing', atSeconds: t };
      // A taint placed in this very pass races the end-of-pass removal: it may show for a moment, or not at all.
      for (const item of items) {
        if (item.event === 'no-execute-taint' && item.expected && item.window !== null && item.window.fromSeconds >= t - 0.2) {
          item.notModelled = `not modelled: every zone became FullDisruption in the same monitor pass (${secondsText(t)}); master disruption mode removes NoExecute taints at once, so this taint may show for a moment or not at all`;
        }
      }
    }
    else if (!allFull && masterDisruption) {
      masterDisruption = false;
      leftMasterDisruptionAt = t;
    }
  }
  for (const z of zones.values()) drain(z, endSeconds);
  for (const z of zones.values()) {
    for (const d of z.queue) {
      if (gone(d, endSeconds)) {
        items.push(leftQueue(d, z));
        continue;
      }
      if (masterDisruption) items.push(notTainted(d, 'every zone is FullDisruption: master disruption mode taints nothing (node lifecycle controller)', d.atSeconds));
      else if (leftMasterDisruptionAt !== null) items.push({ ...notTainted(d, 'left master disruption mode', d.atSeconds), notModelled: `not modelled: the controller left master disruption mode at ${secondsText(leftMasterDisruptionAt)} and re-queues NotReady nodes` });
      else if (z.rate <= 0) items.push(notTainted(d, `zone "${z.name}" is ${z.state} (${z.state === 'PartialDisruption' ? `NotReady ≥ --unhealthy-zone-threshold ${settings.controllerManager.unhealthyZoneThreshold} and more than 2; a zone of ≤ --large-cluster-size-threshold ${settings.controllerManager.largeClusterSizeThreshold} nodes gets rate 0` : 'rate 0'}): no token ever comes${d.lostInPassToken ? `; ${d.lostInPassToken}` : ''}`, d.atSeconds));
      else {
        // Still waiting at the end of the journal: the token comes after it.
        const at = Math.max(z.nextTokenAt, d.atSeconds);
        items.push({ event: 'no-execute-taint', node: d.node.name, pod: null, taintKey: d.key, expected: true, window: windowOf(at - 0.1, at + OBSERVATION_LATENCY_SECONDS), observedSeconds: observedTaintAt(d), cause: causeOf(`${d.node.name} NotReady (received)`, d.atSeconds), because: `zone "${z.name}" token bucket (${flagRate(z.rate)}): next token after the journal ended` });
        z.nextTokenAt = at + 1 / z.rate;
      }
    }
  }
  return { items, zoneStates };
}

/** A queued node that became Ready again or was deleted before `t` leaves the queue (markNodeAsReachable). */
function gone(d: Detection, t: number): boolean {
  const back = d.node.readyAgainReceivedAfterSeconds;
  const deleted = d.node.deletedAfterSeconds;
  return (back !== null && back <= t) || (deleted !== null && deleted <= t);
}

/** "Not tainted": the node was Ready again (or deleted) before its zone had a token for it. */
function leftQueue(d: Detection, z: Zone): ItemDraft {
  const back = d.node.readyAgainReceivedAfterSeconds ?? d.node.deletedAfterSeconds ?? 0;
  const why = d.stranded ? `${d.stranded.why} from ${secondsText(d.stranded.atSeconds)}${d.lostInPassToken ? ` (${d.lostInPassToken})` : ''}` : `zone "${z.name}" had no token yet`;
  return notTainted(d, `${why}, and the node was Ready again or deleted at ${secondsText(back)} first (the controller drops it from the tainting queue)`, d.atSeconds);
}

/** When the node's NoExecute taint of its detection's key was first received (seconds since time zero), or null. */
function observedTaintAt(d: Detection): number | null {
  return firstTaint(d.node, d.key, 'NoExecute')?.addedReceivedAfterSeconds ?? null;
}

function tainted(d: Detection, t: number): boolean {
  const at = observedTaintAt(d);
  return at !== null && at <= t + 2;
}

function notTainted(d: Detection, because: string, atSeconds: number): ItemDraft {
  return {
    event: 'no-execute-taint', node: d.node.name, pod: null, taintKey: d.key, expected: false, window: null,
    observedSeconds: observedTaintAt(d),
    cause: causeOf(`${d.node.name} NotReady (received)`, atSeconds), because,
  };
}

/**
 * Goroutines of the node lifecycle controller that write through its client besides the tainting loop: 8 monitor-pass
 * workers (status, MarkPodsNotReady), 8 node-update workers (NoSchedule taints) and the Event sink
 * (nodeUpdateWorkerSize = 8 in pkg/controller/nodelifecycle/node_lifecycle_controller.go, v1.34). Each blocks on at
 * most one reserved request at a time.
 */
const CONTROLLER_WRITERS = 8 + 8 + 1;

/** How long the node lifecycle controller's client-side rate limiter can hold an in-pass taint back, and why. */
interface ClientThrottle {
  /** Longest wait of the taint's GET and PATCH behind the pass's other writes, seconds (> 0). */
  waitSeconds: number;
  because: string;
}

/**
 * The node lifecycle controller writes through one client whose token bucket holds `--kube-api-burst` requests and
 * refills at `--kube-api-qps` per second (client-go flowcontrol; defaults 20 and 30). In the monitor pass that marks
 * nodes NotReady it writes, per node: its Ready condition (unreachable only: the kubelet wrote Ready=False itself), a
 * NodeNotReady Event, and the NoSchedule taint (a GET and a PATCH, doNoScheduleTaintingPass); per pod on it that was
 * Ready: its Ready=False status and a NodeNotReady Event (MarkPodsNotReady). The in-pass NoExecute taint needs two
 * more requests (GET, PATCH: SwapNodeControllerTaint). With the bucket full at the pass start (the controller writes
 * nothing while nodes are healthy), the last of the W + 2 requests goes out at most (W + 2 − burst) / qps seconds
 * after the pass started, which is before the first Ready=Unknown of the pass was received. Pods are counted as
 * journaled (NotReady received in or after the pass): pods in namespaces the observer did not watch are not, so the
 * bound can only be short, never wide. The rate limiter serves reservations in order and each other writer goroutine
 * holds at most one, so each of the two requests also waits at most (writers + 1) / qps: the wait is the smaller of
 * both bounds. Null when the pass fits in the burst.
 */
function clientThrottle(settings: TimeoutSettings, passDetections: readonly Detection[], podNotReadyByNode: ReadonlyMap<string, readonly number[]>): ClientThrottle | null {
  const qps = settings.controllerManager.kubeAPIQPS ?? KUBE_API_QPS_DEFAULT;
  const burst = settings.controllerManager.kubeAPIBurst ?? KUBE_API_BURST_DEFAULT;
  let nodeWrites = 0;
  let podWrites = 0;
  for (const d of passDetections) {
    nodeWrites += (d.key === UNREACHABLE_TAINT ? 1 : 0) + 1 + 2;
    const marked = (podNotReadyByNode.get(d.node.name) ?? []).filter((at) => at >= d.atSeconds - SAME_PASS_SECONDS).length;
    podWrites += 2 * marked;
  }
  const writes = nodeWrites + podWrites;
  const behindAll = (writes + 2 - burst) / qps;
  if (behindAll <= 0) return null;
  // Each of the taint's two requests waits at most behind one pending request per other writer goroutine.
  const behindWriters = (2 * (CONTROLLER_WRITERS + 1)) / qps;
  const waitSeconds = round3(Math.min(behindAll, behindWriters));
  const why = behindAll <= behindWriters
    ? `so its GET + PATCH may wait up to ${secondsText(waitSeconds)} for tokens (${writes} + 2 − --kube-api-burst ${burst}, at --kube-api-qps ${qps}/s)`
    : `so each of its GET and PATCH may wait behind one pending request of each of the controller's ${CONTROLLER_WRITERS} other writers: up to ${secondsText(waitSeconds)} at --kube-api-qps ${qps}/s (--kube-api-burst ${burst})`;
  return {
    waitSeconds,
    because: `that pass wrote ${writes} requests through the controller's client (${passDetections.length} node(s): status, NodeNotReady Event, NoSchedule taint GET + PATCH = ${nodeWrites}; ${podWrites / 2} pod(s) marked Ready=False, each with an Event = ${podWrites}), ${why}`,
  };
}
