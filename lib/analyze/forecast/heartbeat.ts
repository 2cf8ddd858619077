// The last heartbeat of a node before its fault silences it: the instant its detection counts from, and what the
// forecast conditions on to bound it (the heartbeat cadence alone, or the last renewal and status post seen).
import type { TimeoutSettings } from '../../spec/settings.js';
import { msToSeconds } from '../clock.js';
import { statusPostLatestSeconds } from '../heartbeats.js';
import { heartbeatIntervalSeconds, leaseRenewIntervalSeconds, round3 } from '../windows.js';
import type { PreFaultNode } from './types.js';

/**
 * Jitter of the kubelet's Lease and status loops (wait.JitterUntil(…, 0.04, sliding): each period is 1 to 1.04 times
 * the interval, counted after the previous call returned; component-helpers/apimachinery/lease/controller.go and
 * pkg/kubelet/kubelet.go, v1.34), as a fraction.
 */
export const HEARTBEAT_JITTER = 0.04;
/** Time one heartbeat call itself may take (an API write), seconds: the sliding period starts after it. */
export const HEARTBEAT_CALL_SECONDS = 0.1;

/** Where the last heartbeat before the silence falls, seconds since time zero, and why. */
export interface HeartbeatRange {
  fromSeconds: number;
  toSeconds: number;
  /** The named assumption behind the range. */
  assumption: string;
  /** What it conditions on, when it read the pre-fault state; null otherwise. */
  condition: string | null;
}

/**
 * Whether a loop of period `periodSeconds` whose last call was at `lastSeconds` can call again inside [from, to]
 * (seconds since time zero): some k ≥ 1 with [last + k·p, last + k·p·1.04 + k·0.1] meeting it.
 */
export function mayCallIn(lastSeconds: number, periodSeconds: number, fromSeconds: number, toSeconds: number): boolean {
  if (periodSeconds <= 0) return true;
  for (let k = 1; lastSeconds + k * periodSeconds <= toSeconds; k++) {
    const earliest = lastSeconds + k * periodSeconds;
    const latest = lastSeconds + k * periodSeconds * (1 + HEARTBEAT_JITTER) + k * HEARTBEAT_CALL_SECONDS;
    if (latest >= fromSeconds && earliest <= toSeconds) return true;
  }
  return false;
}

/**
 * The last heartbeat (Lease renewal, or a status post: the Ready condition's lastHeartbeatTime, which the node
 * lifecycle controller counts too) of a node whose fault command starts at `offSeconds` and silences it within
 * `stopWithinSeconds` (seconds since time zero).
 * - No pre-fault heartbeat known (`rebootlab predict`): anywhere in one heartbeat interval (the Lease renew interval,
 *   or nodeStatusReportFrequency when shorter) × 1.04 (jitter) before the command, up to the silence:
 *   [off − 1.04 · interval, off + stop within].
 * - The last renewal L and status post P seen before the forecast (a run's frozen forecast, `leadSeconds` before time
 *   zero): at least the newer of them (shifted back by the lead, as time zero may be that much later), at most
 *   max(L, P + 1) (not shifted: time zero may be the forecast's instant). P is the Ready condition's
 *   lastHeartbeatTime, truncated to the whole second (metav1.Time; {@link statusPostLatestSeconds}): the post itself
 *   was made up to 1 s after it; L is a MicroTime. The node lifecycle controller sets probeTimestamp to its own clock
 *   at the first monitor pass that sees the changed lastHeartbeatTime (tryUpdateNodeHealth, v1.37.2; it compares the
 *   values, never their precision), so the true post time, not its stamp, is what detection counts from; the write's
 *   and informer's latency are in detectionWindowAfterHeartbeat's observation latency, as for a Lease renewal. No
 *   later heartbeat unless the Lease loop (every renew interval) or the status loop (every nodeStatusUpdateFrequency,
 *   posting on a change) can call again before the silence; then up to the silence. A staggered node silenced more
 *   than one interval after the forecast keeps the cadence-only range.
 */
export function lastHeartbeatRange(settings: TimeoutSettings, offSeconds: number, stopWithinSeconds: number, node: PreFaultNode | undefined, leadSeconds: number): HeartbeatRange {
  const interval = heartbeatIntervalSeconds(settings);
  const renew = leaseRenewIntervalSeconds(settings);
  const statusEvery = msToSeconds(settings.kubelet.nodeStatusUpdateFrequencyMs);
  const silenceTo = offSeconds + stopWithinSeconds;
  const cadence: HeartbeatRange = {
    fromSeconds: round3(offSeconds - interval * (1 + HEARTBEAT_JITTER)), toSeconds: round3(silenceTo), condition: null,
    assumption: `the last heartbeat falls anywhere in the ${round3(interval)} s heartbeat interval (× 1.04 jitter) before the fault command, or up to ${stopWithinSeconds} s after it started (the command taking effect)`,
  };
  const lease = node?.lastLeaseRenewSeconds ?? null;
  const post = node?.lastStatusPostSeconds ?? null;
  if (lease === null && post === null) return cadence;
  const seen = Math.max(lease ?? -Infinity, post ?? -Infinity) - leadSeconds;
  if (seen < cadence.fromSeconds) return cadence;
  const more = (lease !== null && mayCallIn(lease - leadSeconds, renew, seen, silenceTo)) || (post !== null && mayCallIn(post - leadSeconds, statusEvery, seen - 1, silenceTo)) || (lease === null || post === null);
  const what = [lease !== null ? `Lease renewal at ${round3(lease)} s` : null, post !== null ? `status post at ${round3(post)} s` : null].filter(Boolean).join(', ');
  // The latest the seen heartbeat can be: the renewal itself, or the post up to 1 s after its truncated stamp.
  const latest = Math.max(lease ?? -Infinity, post === null ? -Infinity : statusPostLatestSeconds(post));
  const truncation = post !== null && statusPostLatestSeconds(post) > (lease ?? -Infinity)
    ? `; the status post was made up to 1 s after its lastHeartbeatTime (whole seconds, truncated), the node lifecycle controller counting from the pass that sees it changed`
    : '';
  return {
    fromSeconds: round3(seen), toSeconds: round3(more ? Math.max(silenceTo, latest) : latest),
    condition: `${node?.name}: last ${what} seen before the fault (time zero at most ${leadSeconds} s later)`,
    assumption: more
      ? `the last heartbeat is the one seen (${what}) or a later one before the silence (the Lease loop every ${renew} s or the status loop every ${statusEvery} s may call again before the fault takes effect, ${stopWithinSeconds} s after its command started)`
      : `the last heartbeat is the one seen (${what}): neither the Lease loop (every ${renew} s) nor the status loop (every ${statusEvery} s) calls again before the fault takes effect${truncation}`,
  };
}
