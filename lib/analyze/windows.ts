// The one home of the timing formulas (detection, eviction) that the causal model, the forecast, the run loop's
// "effects seen" deadline and the live progress countdown all use: one formula, one place.
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import type { Window } from './types.js';

/**
 * Observation latency allowed on top of a mechanism's own delay, seconds: the watch delivering an update to the
 * observer and to the controller that reacts to it (both watch the same API server), plus the 100 ms loops
 * (NoExecute tainting pass) and the API call that writes the result. Measured on kind: well under 1 s.
 */
export const OBSERVATION_LATENCY_SECONDS = 1;

/** Round seconds to the millisecond, as every figure of the results. */
export function round3(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** A window [from, to], seconds since time zero, rounded to the millisecond. */
export function windowOf(fromSeconds: number, toSeconds: number): Window {
  return { fromSeconds: round3(fromSeconds), toSeconds: round3(toSeconds) };
}

/**
 * Kubelet renews its Lease every 25% of nodeLeaseDurationSeconds (KEP-589 "Efficient Node Heartbeats",
 * https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/589-efficient-node-heartbeats;
 * kubelet `renewIntervalFraction = 0.25`). Seconds.
 */
export function leaseRenewIntervalSeconds(settings: TimeoutSettings): number {
  return msToSeconds(settings.kubelet.nodeLeaseDurationSeconds * 0.25 * 1000);
}

/**
 * Longest gap between two heartbeats of a healthy kubelet, seconds: its Lease renew interval, or its
 * nodeStatusReportFrequency when shorter (a status post changes the Ready condition's lastHeartbeatTime, which the
 * node lifecycle controller counts as a heartbeat too: tryUpdateNodeHealth, pkg/controller/nodelifecycle, v1.34).
 * Status posts on a change only make the gap shorter.
 */
export function heartbeatIntervalSeconds(settings: TimeoutSettings): number {
  return Math.min(leaseRenewIntervalSeconds(settings), msToSeconds(settings.kubelet.nodeStatusReportFrequencyMs));
}

/**
 * Window of the Ready→Unknown transition (server `lastTransitionTime`, seconds since time zero) after the last
 * heartbeat the controller saw, `heartbeatSeconds` (server renewTime, seconds since time zero).
 *
 * Mechanism (pkg/controller/nodelifecycle, tryUpdateNodeHealth, v1.34): at each monitor pass (every
 * `--node-monitor-period` M) that sees a newer heartbeat, the controller sets probeTimestamp = its own clock, so
 * probeTimestamp ∈ [R, R + M]. It marks the node Unknown at the first pass more than `--node-monitor-grace-period`
 * G after probeTimestamp, i.e. in (probe + G, probe + G + M]. Hence the transition is in [R + G, R + G + 2M];
 * lastTransitionTime is truncated to whole seconds (−1 s), and the controller's API write and watch add up to
 * OBSERVATION_LATENCY_SECONDS. Width: 2M + 2 s (12 s with M = 5 s): the pass phase is not observable.
 */
export function detectionWindowAfterHeartbeat(settings: TimeoutSettings, heartbeatSeconds: number): Window {
  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const monitor = msToSeconds(settings.controllerManager.nodeMonitorPeriodMs);
  return windowOf(heartbeatSeconds + grace - 1, heartbeatSeconds + grace + 2 * monitor + OBSERVATION_LATENCY_SECONDS);
}

/**
 * {@link detectionWindowAfterHeartbeat} over every last heartbeat in [fromSeconds, toSeconds] (seconds since time
 * zero): [from + G − 1, to + G + 2M + 1]. Width: (to − from) + 2M + 2 s.
 */
export function detectionWindowAfterHeartbeatIn(settings: TimeoutSettings, fromSeconds: number, toSeconds: number): Window {
  return windowOf(detectionWindowAfterHeartbeat(settings, fromSeconds).fromSeconds, detectionWindowAfterHeartbeat(settings, toSeconds).toSeconds);
}

/**
 * The detection window of a node silenced at time zero when nothing is known of its last heartbeat: it falls
 * anywhere in the heartbeat interval before (heartbeatIntervalSeconds), so [G − interval − 1, G + 2M + 1] seconds
 * since time zero. What the run loop waits for before "nothing happened" may count as recovered, and what the live
 * progress counts down to.
 */
export function detectionWindowFromSilence(settings: TimeoutSettings): Window {
  return detectionWindowAfterHeartbeatIn(settings, -heartbeatIntervalSeconds(settings), 0);
}

/** Inputs of {@link evictionWindow}; seconds since time zero. */
export interface EvictionWindowInput {
  /** The soonest the taint eviction controller can have seen the NoExecute taint (its earliest write). */
  taintSeenFromSeconds: number;
  /** The latest instant the taint was received (the observer's receive time, or the forecast's upper bound). */
  taintReceivedToSeconds: number;
  /** The pod's tolerationSeconds for that taint (0 when it does not tolerate it). */
  tolerationSeconds: number;
  /** Extra delay allowed beyond the usual observation latency (a new leader's first processing), seconds. */
  lateBySeconds?: number;
}

/**
 * Window of a pod's deletionTimestamp (client receive time) set by the taint eviction controller
 * (pkg/controller/tainteviction/taint_eviction.go, processPodOnNode, v1.34): the countdown starts when the
 * controller sees the taint and fires tolerationSeconds later; its API write and our watch add 1 s plus the
 * observation latency. [taint seen + T, taint received + T + 1 + OBSERVATION_LATENCY_SECONDS (+ late by)].
 */
export function evictionWindow(input: EvictionWindowInput): Window {
  const t = input.tolerationSeconds;
  return windowOf(input.taintSeenFromSeconds + t, input.taintReceivedToSeconds + t + 1 + OBSERVATION_LATENCY_SECONDS + (input.lateBySeconds ?? 0));
}

/** When a taint written in a monitor pass can be seen by the controllers and received by the observer; seconds since time zero. */
export interface TaintWindow {
  /** The soonest the taint eviction controller can have seen it: the taint's write, never before the transition. */
  seenFromSeconds: number;
  /** Its client receive time. */
  window: Window;
}

/**
 * The NoExecute taint the node lifecycle controller writes in the very monitor pass that marked the node Unknown,
 * when its zone has a token (doNoExecuteTaintingPass runs every 100 ms; pkg/controller/nodelifecycle, v1.34), from
 * that transition's window `detection` (lastTransitionTime, truncated to the second, as
 * {@link detectionWindowAfterHeartbeat} gives it): written at or after the transition (detection.from + 1 undoes the
 * truncation), received up to the observation latency after it (detection.to already holds it), 0.1 s early for the
 * clocks' rounding.
 */
export function inPassTaintWindow(detection: Window): TaintWindow {
  return { seenFromSeconds: round3(detection.fromSeconds + 1), window: windowOf(detection.fromSeconds + 1 - 0.1, detection.toSeconds) };
}

/**
 * The eviction of a pod tolerating the unreachable taint for `tolerationSeconds`, on a node silenced at time zero
 * whose zone has a token at its detection: {@link evictionWindow} after {@link inPassTaintWindow} of
 * {@link detectionWindowFromSilence}. What the live progress counts down to.
 */
export function evictionWindowFromSilence(settings: TimeoutSettings, tolerationSeconds: number): Window {
  const taint = inPassTaintWindow(detectionWindowFromSilence(settings));
  return evictionWindow({ taintSeenFromSeconds: taint.seenFromSeconds, taintReceivedToSeconds: taint.window.toSeconds, tolerationSeconds });
}
