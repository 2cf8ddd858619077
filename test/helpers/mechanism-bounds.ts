// Windows the tests assert, derived from the mechanism and the run's own settings and fault command duration, never
// fitted to a run. Times are seconds since time zero (the start of the first fault command).
import type { Result } from '../../lib/report/index.js';

/**
 * When the node lifecycle controller can mark a silenced node Unknown, seconds since time zero. The kubelet's last
 * Lease renewal R is at most one renew interval (0.25 × nodeLeaseDurationSeconds, KEP-589) before the command
 * started, or during the command (the kubelet runs until the command took effect): R ∈ [−renew, command]. The
 * controller probes it at its next --node-monitor-period pass (0…M later) and declares Unknown at the first pass more
 * than --node-monitor-grace-period G after that probe (0…M later); lastTransitionTime has 1 s resolution.
 * → [G − renew − 1, G + 2M + 1 + command].
 */
export function detectionBounds(result: Result): [number, number] {
  const s = result.spec.settings;
  const grace = s.controllerManager.nodeMonitorGracePeriodMs / 1000;
  const monitor = s.controllerManager.nodeMonitorPeriodMs / 1000;
  const renew = 0.25 * s.kubelet.nodeLeaseDurationSeconds;
  const command = result.summary.faults[0]?.commandSeconds ?? 0;
  return [grace - renew - 1, grace + 2 * monitor + 1 + command];
}

/**
 * Eviction after the NoExecute taint, seconds: the taint eviction controller deletes a pod `tolerationSeconds` after it
 * saw the taint (client watch latency below 1 s); the taint's timeAdded has 1 s resolution (truncated), so measured
 * from it the delay is in [toleration, toleration + 2].
 */
export function evictionDelayBounds(tolerationSeconds: number): [number, number] {
  return [tolerationSeconds, tolerationSeconds + 2];
}
