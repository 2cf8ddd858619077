// Causal model, node part: when the node lifecycle controller marks a silent node Unknown, and its NoSchedule taint.
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import { detectionWindowAfterHeartbeat } from './windows.js';
import { causeOf, leaderChangeDuring, leaderChangeText, NOT_READY_TAINT, OBSERVATION_LATENCY_SECONDS, round3, secondsText, UNREACHABLE_TAINT, windowOf, type ItemDraft, type LeaderChange } from './predict-common.js';
export { leaseRenewIntervalSeconds } from './windows.js';
import type { FaultInstant, NodeTimeline, TaintChange } from './types.js';

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
  /** Observed Lease renewTimes of this node, seconds since time zero, ascending, distinct. */
  renewals: readonly number[];
  /** kube-controller-manager leader changes after time zero. */
  leaderChanges: readonly LeaderChange[];
}

/**
 * Predictions for one node: its Ready→Unknown transition from the last Lease renewal before a heartbeat gap longer
 * than the grace period (or "must not happen" when no gap is long enough), a kubelet-reported Ready=False as not
 * modelled, and the NoSchedule taint the controller adds after the transition it observed.
 */
export function predictDetection(input: DetectionInput): ItemDraft[] {
  const { settings, node, fault } = input;
  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const monitor = msToSeconds(settings.controllerManager.nodeMonitorPeriodMs);
  const flag = `kube-controller-manager --node-monitor-grace-period ${secondsText(grace)}, --node-monitor-period ${secondsText(monitor)}`;
  const items: ItemDraft[] = [];
  const observedUnknown = node.notReadyStatus === 'Unknown' ? node.notReadyAfterSeconds : null;
  const base = { node: node.name, pod: null, taintKey: null } as const;
  if (node.notReadyStatus === 'False') {
    items.push({
      ...base, event: 'node-not-ready-kubelet', expected: true, window: null, observedSeconds: node.notReadyAfterSeconds,
      cause: null, because: `kubelet reported Ready=False itself (${node.notReadyReason ?? 'no reason'})`,
      notModelled: 'not modelled: when a live kubelet reports Ready=False depends on the kubelet and its container runtime, not on a controller setting',
    });
  }
  // The heartbeat gaps that count start with the last renewal at or before the fault command started.
  const startAt = fault ? fault.issuedAfterSeconds : 0;
  let from = 0;
  input.renewals.forEach((r, i) => {
    if (r <= startAt) from = i;
  });
  let longestGap = 0;
  // Only a gap that starts while the fault is on counts: after the restore the Lease is renewed as usual, and the
  // last renewal of the journal opening a "gap" only means the journal ended.
  const restoredAt = fault?.restoredAfterSeconds ?? null;
  for (let i = from; i < input.renewals.length; i++) {
    const renewal = input.renewals[i];
    if (restoredAt !== null && renewal > restoredAt) break;
    const next = i + 1 < input.renewals.length ? input.renewals[i + 1] : null;
    const window = detectionWindowAfterRenewal(settings, renewal);
    const cause = causeOf(`last Lease renewal of ${node.name} (server renewTime)`, renewal);
    const because = `no Lease renewal for more than the grace period, seen at a monitor pass (${flag})`;
    if (next !== null) longestGap = Math.max(longestGap, next - renewal);
    if (next !== null && next <= renewal + grace) continue;
    if (node.deletedAfterSeconds !== null && node.deletedAfterSeconds < window.fromSeconds) {
      items.push({ ...base, event: 'node-not-ready', expected: false, window: null, observedSeconds: observedUnknown, cause: causeOf(`Node ${node.name} deleted`, node.deletedAfterSeconds), because: 'the Node object was deleted before the grace period ran out: the node lifecycle controller no longer tracks it' });
      return items;
    }
    const leader = leaderChangeDuring(input.leaderChanges, renewal, window.toSeconds);
    if (leader !== undefined) {
      items.push({ ...base, event: 'node-not-ready', expected: true, window: null, observedSeconds: observedUnknown, cause, because, notModelled: `not modelled: ${leaderChangeText(leader)}; the new leader restarts the grace period from its own first pass` });
    } else if (next !== null && next <= renewal + grace + 2 * monitor) {
      items.push({ ...base, event: 'node-not-ready', expected: true, window, observedSeconds: observedUnknown, cause, because, notModelled: `not modelled: the heartbeat resumed ${secondsText(next - renewal)} after this renewal, within the monitor passes' uncertainty (grace … grace + 2 × monitor period); whether a pass fell in between is not observable` });
    } else {
      items.push({ ...base, event: 'node-not-ready', expected: true, window, observedSeconds: observedUnknown, cause, because });
    }
    if (observedUnknown !== null) items.push(...noScheduleItems(node, UNREACHABLE_TAINT, node.notReadyReceivedAfterSeconds ?? observedUnknown, 'Ready=Unknown'));
    return items;
  }
  if (node.notReadyStatus === 'False' && node.notReadyReceivedAfterSeconds !== null) {
    items.push(...noScheduleItems(node, NOT_READY_TAINT, node.notReadyReceivedAfterSeconds, 'Ready=False'));
  }
  if (input.renewals.length === 0) {
    items.push({ ...base, event: 'node-not-ready', expected: true, window: null, observedSeconds: observedUnknown, cause: null, because: 'no Lease renewal journaled for this node', notModelled: 'not modelled: no Lease renewal of this node was journaled, so the grace period has no start' });
    return items;
  }
  items.push({
    ...base, event: 'node-not-ready', expected: false, window: null, observedSeconds: observedUnknown,
    cause: causeOf(`last Lease renewal of ${node.name} (server renewTime)`, input.renewals[input.renewals.length - 1]),
    because: `the Lease was never left unrenewed longer than the grace period (longest gap ${secondsText(round3(longestGap))}; ${flag})`,
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
