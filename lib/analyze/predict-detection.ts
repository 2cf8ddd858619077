// Causal model, node part: when the node lifecycle controller marks a silent node Unknown, and its NoSchedule taint.
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import { detectionWindowAfterHeartbeat, detectionWindowAfterHeartbeatIn } from './windows.js';
import { causeOf, leaderChangeDuring, leaderChangeText, NOT_READY_TAINT, OBSERVATION_LATENCY_SECONDS, round3, secondsText, UNREACHABLE_TAINT, windowOf, type ItemDraft, type LeaderChange } from './predict-common.js';
import { heartbeatText, type Heartbeat } from './heartbeats.js';
import type { FaultInstant, NodeTimeline, TaintChange } from './types.js';
export { leaseRenewIntervalSeconds } from './windows.js';

/**
 * Window of the Ready→Unknown transition after the last Lease renewal the controller saw (seconds since time zero):
 * {@link detectionWindowAfterHeartbeat} (lib/analyze/windows.ts, the one home of that formula).
 */
export const detectionWindowAfterRenewal = detectionWindowAfterHeartbeat;

/** First added change of taint `key`:`effect` on a node, or undefined. */
export function firstTaint(node: NodeTimeline, key: string, effect: string): TaintChange | undefined {
  return node.taints.find((t) => t.key === key && t.effect === effect && t.addedReceivedAfterSeconds !== null);
}

/** Inputs of {@link predictDetection}. */
export interface DetectionInput {
  settings: TimeoutSettings;
  node: NodeTimeline;
  /** The fault on this node, or undefined for a node that went NotReady without one. */
  fault: FaultInstant | undefined;
  /** This node's heartbeats (Lease renewals and status posts, lib/analyze/heartbeats.ts), sorted by fromSeconds. */
  heartbeats: readonly Heartbeat[];
  /** kube-controller-manager leader changes after time zero. */
  leaderChanges: readonly LeaderChange[];
}

/**
 * Predictions for one node: its Ready→Unknown transition from the last heartbeat (Lease renewal or status post)
 * before a heartbeat gap longer than the grace period (or "must not happen" when no gap is long enough), a kubelet-reported Ready=False as not
 * modelled, and the NoSchedule taint the controller adds after the transition it observed.
 */
export function predictDetection(input: DetectionInput): ItemDraft[] {
  const { settings, node, fault } = input;
  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const monitor = msToSeconds(settings.controllerManager.nodeMonitorPeriodMs);
  const flag = `kube-controller-manager --node-monitor-grace-period ${secondsText(grace)}, --node-monitor-period ${secondsText(monitor)}`;
  const items: ItemDraft[] = [];
  // After a kubelet-reported Ready=False the controller still marks the node Unknown when its heartbeats stop for
  // the grace period (tryUpdateNodeHealth compares the probe timestamp with the grace period whatever the Ready status).
  const observedUnknown = node.notReadyStatus === 'Unknown' ? node.notReadyAfterSeconds : (node.unknownAfterSeconds ?? null);
  const unknownReceived = node.notReadyStatus === 'Unknown' ? node.notReadyReceivedAfterSeconds : (node.unknownReceivedAfterSeconds ?? null);
  const afterFalse = node.notReadyStatus === 'False' && node.notReadyAfterSeconds !== null
    ? `; the kubelet reported Ready=False itself at ${secondsText(node.notReadyAfterSeconds)} (${node.notReadyReason ?? 'no reason'}) and then stopped: a NotReady node is marked Unknown too when its heartbeats stop (tryUpdateNodeHealth)`
    : '';
  const base = { node: node.name, pod: null, taintKey: null } as const;
  if (node.notReadyStatus === 'False') {
    items.push({
      ...base, event: 'node-not-ready-kubelet', expected: true, window: null, observedSeconds: node.notReadyAfterSeconds,
      cause: null, because: `kubelet reported Ready=False itself (${node.notReadyReason ?? 'no reason'})`,
      notModelled: 'not modelled: when a live kubelet reports Ready=False depends on the kubelet and its container runtime, not on a controller setting',
    });
  }
  // The heartbeat gaps that count start with the last heartbeat at or before the fault command started.
  const beats = input.heartbeats;
  const startAt = fault ? fault.issuedAfterSeconds : 0;
  let from = 0;
  beats.forEach((b, i) => {
    if (b.fromSeconds <= startAt) from = i;
  });
  let longestGap = 0;
  // Only a gap that starts while the fault is on counts: after the restore the node heartbeats as usual, and the
  // last heartbeat of the journal opening a "gap" only means the journal ended.
  const restoredAt = fault?.restoredAfterSeconds ?? null;
  // A status post is known only to an interval; the last heartbeat before a gap is the latest of those up to it.
  let lastTo = -Infinity;
  for (let i = 0; i < from; i++) lastTo = Math.max(lastTo, beats[i]!.toSeconds);
  for (let i = from; i < beats.length; i++) {
    const beat = beats[i]!;
    if (restoredAt !== null && beat.fromSeconds > restoredAt) break;
    lastTo = Math.max(lastTo, beat.toSeconds);
    const next = i + 1 < beats.length ? beats[i + 1]! : null;
    const window = detectionWindowAfterHeartbeatIn(settings, beat.fromSeconds, lastTo);
    const cause = causeOf(`last heartbeat of ${node.name}: ${heartbeatText(beat)}`, beat.fromSeconds);
    const because = `no heartbeat (Lease renewal or node status post) for more than the grace period, seen at a monitor pass (${flag})${lastTo > beat.fromSeconds ? `; the heartbeat reached the API server by ${secondsText(lastTo)}` : ''}${observedUnknown !== null ? afterFalse : ''}`;
    if (next !== null) longestGap = Math.max(longestGap, next.fromSeconds - lastTo);
    if (next !== null && next.toSeconds <= beat.fromSeconds + grace) continue;
    if (node.deletedAfterSeconds !== null && node.deletedAfterSeconds < window.fromSeconds) {
      items.push({ ...base, event: 'node-not-ready', expected: false, window: null, observedSeconds: observedUnknown, cause: causeOf(`Node ${node.name} deleted`, node.deletedAfterSeconds), because: 'the Node object was deleted before the grace period ran out: the node lifecycle controller no longer tracks it' });
      return items;
    }
    const leader = leaderChangeDuring(input.leaderChanges, beat.fromSeconds, window.toSeconds);
    if (leader !== undefined) {
      items.push({ ...base, event: 'node-not-ready', expected: true, window: null, observedSeconds: observedUnknown, cause, because, notModelled: `not modelled: ${leaderChangeText(leader)}; the new leader restarts the grace period from its own first pass` });
    } else if (next !== null && next.fromSeconds <= lastTo + grace + 2 * monitor) {
      items.push({ ...base, event: 'node-not-ready', expected: true, window, observedSeconds: observedUnknown, cause, because, notModelled: `not modelled: the heartbeat resumed ${secondsText(next.fromSeconds - beat.fromSeconds)} after this one, within the monitor passes' uncertainty (grace … grace + 2 × monitor period); whether a pass fell in between is not observable` });
    } else {
      items.push({ ...base, event: 'node-not-ready', expected: true, window, observedSeconds: observedUnknown, cause, because });
    }
    if (observedUnknown !== null) items.push(...noScheduleItems(node, UNREACHABLE_TAINT, unknownReceived ?? observedUnknown, 'Ready=Unknown'));
    return items;
  }
  if (node.notReadyStatus === 'False' && node.notReadyReceivedAfterSeconds !== null) {
    items.push(...noScheduleItems(node, NOT_READY_TAINT, node.notReadyReceivedAfterSeconds, 'Ready=False'));
  }
  if (beats.length === 0) {
    items.push({ ...base, event: 'node-not-ready', expected: true, window: null, observedSeconds: observedUnknown, cause: null, because: 'no heartbeat journaled for this node', notModelled: 'not modelled: no Lease renewal or status post of this node was journaled, so the grace period has no start' });
    return items;
  }
  const last = beats[beats.length - 1]!;
  items.push({
    ...base, event: 'node-not-ready', expected: false, window: null, observedSeconds: observedUnknown,
    cause: causeOf(`last heartbeat of ${node.name}: ${heartbeatText(last)}`, last.fromSeconds),
    because: `the node never went without a heartbeat (Lease renewal or status post) longer than the grace period (longest gap ${secondsText(round3(Math.max(0, longestGap)))}; ${flag})`,
  });
  return items;
}

/**
 * The NoSchedule taint (unreachable for Unknown, not-ready for False): added by the controller's node update worker
 * when it sees the new Ready condition, not rate limited. Window on the taint's client receive time:
 * [observed transition received, + 1 s + observation latency].
 */
function noScheduleItems(node: NodeTimeline, key: string, transitionReceivedSeconds: number, status: string): ItemDraft[] {
  const observed = firstTaint(node, key, 'NoSchedule')?.addedReceivedAfterSeconds ?? null;
  return [{
    event: 'no-schedule-taint', node: node.name, pod: null, taintKey: key, expected: true,
    window: windowOf(transitionReceivedSeconds - 0.1, transitionReceivedSeconds + 1 + OBSERVATION_LATENCY_SECONDS),
    observedSeconds: observed, cause: causeOf(`${node.name} ${status} (received)`, transitionReceivedSeconds),
    because: `node lifecycle controller taints a node ${key}:NoSchedule when its Ready condition is ${status.slice(6)} (not rate limited)`,
  }];
}
