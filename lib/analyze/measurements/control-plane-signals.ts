// Measurement: the heartbeats and leader changes the predictions count from (node Leases, the controller-manager Lease).
import { CONTROLLER_MANAGER_LEASE, type Observation } from '../../observe/types.js';
import { secondsSince, serverSecondsSince } from '../clock.js';
import type { RunContext } from '../context.js';
import type { Measurement } from '../measurement.js';
import { leaseRenewals, statusPosts } from '../heartbeats.js';
import { renewTime } from '../objects.js';
import { type LeaderChange, leaderChangeText, OBSERVATION_LATENCY_SECONDS, round3, secondsText } from '../predict-common.js';

/** kube-controller-manager --leader-elect-retry-period default, seconds (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/). */
const DEFAULT_LEADER_RETRY_PERIOD_SECONDS = 2;
/** kube-controller-manager --leader-elect-renew-deadline default, seconds (same page): how long a leader keeps retrying a failed renewal, its controllers still running, before it exits. */
const DEFAULT_LEADER_RENEW_DEADLINE_SECONDS = 10;
/** Event times (creationTimestamp) have whole-second resolution, truncated: seconds. */
const EVENT_TIME_RESOLUTION_SECONDS = 1;

/**
 * How late the observer received updates, from every Lease update carrying a renewTime (server MicroTime, written
 * just before the update): receipt − renewTime, minus the journal's median of that difference (which absorbs a
 * constant clock offset between the client and the API server's writers). Seconds, one sample per Lease record,
 * in receive order; `atSeconds` is the receipt, seconds since time zero.
 */
function observerLag(ctx: RunContext): { atSeconds: number; lagSeconds: number }[] {
  const raw: { atMs: number; lagMs: number }[] = [];
  for (const rec of ctx.leases) {
    if (rec.verb === 'DELETED') continue;
    const renewedMs = Date.parse(renewTime(rec.object) ?? '');
    if (Number.isFinite(renewedMs)) raw.push({ atMs: rec.receivedAtMs, lagMs: rec.receivedAtMs - renewedMs });
  }
  if (raw.length === 0) return [];
  const sorted = raw.map((r) => r.lagMs).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return raw.map((r) => ({ atSeconds: secondsSince(ctx.faultMs, r.atMs), lagSeconds: Math.max(0, Math.round(r.lagMs - median) / 1000) }));
}

/**
 * The kube-controller-manager leader changes after time zero, from its leader-election Lease (kube-system) and the
 * RegisteredNode Events of the new leader's first monitor pass; empty when that Lease is not journaled.
 * Instants are seconds since time zero: renewTime / acquireTime as written (by the holder's clock: the
 * control-plane node, the same host clock as ours on kind), the Event's receipt on our clock.
 */
function controllerManagerLeaderChanges(observations: readonly Observation[], ctx: RunContext): LeaderChange[] {
  const changes: LeaderChange[] = [];
  let holder: { identity: string; lastRenewalSeconds: number | null; longestIntervalSeconds: number } | null = null;
  for (const rec of ctx.leases) {
    if (rec.namespace !== CONTROLLER_MANAGER_LEASE.namespace || rec.name !== CONTROLLER_MANAGER_LEASE.name || rec.verb === 'DELETED') continue;
    const spec = (rec.object as { spec?: { holderIdentity?: unknown; acquireTime?: unknown } }).spec;
    // A released Lease has an empty holderIdentity: no holder, not a new one.
    const identity = typeof spec?.holderIdentity === 'string' && spec.holderIdentity !== '' ? spec.holderIdentity : null;
    if (identity === null) continue;
    const renewal = serverSecondsSince(ctx.faultMs, renewTime(rec.object));
    if (holder !== null && identity !== holder.identity && rec.seq > ctx.faultSeq) {
      const acquired = serverSecondsSince(ctx.faultMs, typeof spec?.acquireTime === 'string' ? spec.acquireTime : null) ?? secondsSince(ctx.faultMs, rec.receivedAtMs);
      // The leader renews every --leader-elect-retry-period; when a renewal fails it keeps retrying, and its
      // controllers keep writing, for up to --leader-elect-renew-deadline, then exits. The longest interval seen
      // between its renewals stands for the retry period when longer (a renewal the journal missed).
      const interval = Math.max(holder.longestIntervalSeconds, DEFAULT_LEADER_RETRY_PERIOD_SECONDS);
      changes.push({
        oldLastRenewalSeconds: holder.lastRenewalSeconds,
        oldGoneBySeconds: holder.lastRenewalSeconds === null ? null : round3(Math.min(acquired, holder.lastRenewalSeconds + interval + DEFAULT_LEADER_RENEW_DEADLINE_SECONDS + OBSERVATION_LATENCY_SECONDS)),
        acquiredSeconds: acquired,
        firstPassReceivedSeconds: null,
      });
    }
    if (holder === null || identity !== holder.identity) holder = { identity, lastRenewalSeconds: renewal, longestIntervalSeconds: 0 };
    else if (renewal !== null) {
      if (holder.lastRenewalSeconds !== null && renewal > holder.lastRenewalSeconds) holder.longestIntervalSeconds = Math.max(holder.longestIntervalSeconds, renewal - holder.lastRenewalSeconds);
      holder.lastRenewalSeconds = renewal;
    }
  }
  if (changes.length === 0) return [];
  // A restarted kube-controller-manager container ends the old process before the new one starts: the old leader
  // had stopped acting by the new container's startedAt (whole seconds, truncated).
  const restarts = controllerManagerRestarts(ctx);
  for (const change of changes) {
    if (change.oldLastRenewalSeconds === null || change.oldGoneBySeconds === null) continue;
    const restartedAt = restarts.find((at) => at >= change.oldLastRenewalSeconds! - EVENT_TIME_RESOLUTION_SECONDS);
    if (restartedAt !== undefined) change.oldGoneBySeconds = round3(Math.min(change.oldGoneBySeconds, restartedAt + EVENT_TIME_RESOLUTION_SECONDS));
  }
  // Each leader's first pass: the earliest-received RegisteredNode Event created at or after its acquisition (whole
  // seconds, truncated) and before the next one's. Matched by the Event's own time, not by receipt order, because
  // the Lease and Event watches lag independently; relisted Events count too.
  for (const o of observations) {
    if (o.type !== 'object' || o.kind !== 'Event' || o.verb === 'DELETED') continue;
    if ((o.object as { reason?: unknown }).reason !== 'RegisteredNode') continue;
    const created = serverSecondsSince(ctx.faultMs, (o.object as { metadata?: { creationTimestamp?: string } }).metadata?.creationTimestamp);
    if (created === null) continue;
    let index = changes.length - 1;
    while (index >= 0 && created < changes[index].acquiredSeconds - EVENT_TIME_RESOLUTION_SECONDS) index--;
    const change = changes[index];
    if (change === undefined) continue;
    const received = secondsSince(ctx.faultMs, o.receivedAtMs);
    if (change.firstPassReceivedSeconds === null || received < change.firstPassReceivedSeconds) change.firstPassReceivedSeconds = received;
  }
  return changes;
}

/**
 * When a kube-controller-manager container (the Pod labelled component=kube-controller-manager in kube-system) was
 * started again after time zero, from the record where its restartCount rose or the next one that shows it running:
 * its state.running.startedAt (the kubelet's clock, whole seconds), seconds since time zero, ascending. The caller
 * only uses a restart after the old holder's last renewal: a new container then means that process had ended.
 */
function controllerManagerRestarts(ctx: RunContext): number[] {
  const restarts: number[] = [];
  const lastCount = new Map<string, number>();
  const restarting = new Set<string>();
  for (const rec of ctx.pods) {
    if (rec.namespace !== 'kube-system' || rec.verb === 'DELETED') continue;
    const object = rec.object as { metadata?: { labels?: Record<string, string> }; status?: { containerStatuses?: { name?: string; restartCount?: number; state?: { running?: { startedAt?: string } } }[] } };
    if (object.metadata?.labels?.component !== CONTROLLER_MANAGER_LEASE.name) continue;
    const status = object.status?.containerStatuses?.find((c) => c.name === CONTROLLER_MANAGER_LEASE.name);
    if (status === undefined || typeof status.restartCount !== 'number') continue;
    const before = lastCount.get(rec.uid);
    lastCount.set(rec.uid, Math.max(before ?? 0, status.restartCount));
    if (before !== undefined && status.restartCount > before && rec.seq > ctx.faultSeq) restarting.add(rec.uid);
    const startedAt = serverSecondsSince(ctx.faultMs, status.state?.running?.startedAt);
    if (!restarting.has(rec.uid) || startedAt === null) continue;
    restarting.delete(rec.uid);
    restarts.push(startedAt);
  }
  return restarts.sort((a, b) => a - b);
}

/** Node Lease renewals and controller-manager leader changes; warns when the leader changed (countdowns restart). */
export const controlPlaneSignalsMeasurement: Measurement = {
  name: 'control-plane-signals',
  describes: 'node Lease renewTimes (server clock) and status posts (Ready lastHeartbeatTime), kube-controller-manager leader changes and the observer\'s delivery lag (Lease renewTime → receipt), for the predictions',
  needs: [],
  provides: ['leaseRenewals', 'statusPosts', 'leaderChanges', 'observerLag'],
  measure: ({ observations, ctx, warn }) => {
    const leaderChanges = controllerManagerLeaderChanges(observations, ctx);
    for (const c of leaderChanges) {
      const firstPass = c.firstPassReceivedSeconds === null ? 'its first pass was not seen (no RegisteredNode Event): countdowns across it are not modelled' : `countdowns pending across it restart from its first pass (RegisteredNode received ${secondsText(c.firstPassReceivedSeconds)})`;
      warn(`${leaderChangeText(c)}: ${firstPass}`);
    }
    return { leaseRenewals: leaseRenewals(ctx), statusPosts: statusPosts(ctx), leaderChanges, observerLag: observerLag(ctx) };
  },
};
