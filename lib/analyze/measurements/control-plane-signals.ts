// Measurement: the heartbeats and leader changes the predictions count from (node Leases, the controller-manager Lease).
import { CONTROLLER_MANAGER_LEASE, type Observation } from '../../observe/types.js';
import { secondsSince, serverSecondsSince } from '../clock.js';
import type { RunContext } from '../context.js';
import type { Measurement } from '../measurement.js';
import { nodeLeases } from '../node-timeline.js';
import { renewTime } from '../objects.js';
import { type LeaderChange, leaderChangeText, OBSERVATION_LATENCY_SECONDS, round3, secondsText } from '../predict-common.js';

/** kube-controller-manager --leader-elect-retry-period default, seconds (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/). */
const DEFAULT_LEADER_RETRY_PERIOD_SECONDS = 2;

/** Per node, its journaled Lease renewTimes (server clock), seconds since time zero, ascending and distinct. */
function leaseRenewals(ctx: RunContext): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  for (const rec of nodeLeases(ctx)) {
    const at = serverSecondsSince(ctx.faultMs, renewTime(rec.object));
    if (at === null) continue;
    const list = byNode.get(rec.name) ?? [];
    list.push(at);
    byNode.set(rec.name, list);
  }
  for (const [name, list] of byNode) byNode.set(name, [...new Set(list)].sort((a, b) => a - b));
  return byNode;
}

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
 * Instants are seconds since time zero (server clock for renewTime / acquireTime, receipt for the Event).
 */
function controllerManagerLeaderChanges(observations: readonly Observation[], ctx: RunContext): LeaderChange[] {
  const changes: (LeaderChange & { acquiredReceivedMs: number })[] = [];
  let holder: { identity: string; lastRenewalSeconds: number | null; longestIntervalSeconds: number } | null = null;
  for (const rec of ctx.leases) {
    if (rec.namespace !== CONTROLLER_MANAGER_LEASE.namespace || rec.name !== CONTROLLER_MANAGER_LEASE.name || rec.verb === 'DELETED') continue;
    const spec = (rec.object as { spec?: { holderIdentity?: unknown; acquireTime?: unknown } }).spec;
    const identity = typeof spec?.holderIdentity === 'string' ? spec.holderIdentity : null;
    if (identity === null) continue;
    const renewal = serverSecondsSince(ctx.faultMs, renewTime(rec.object));
    if (holder !== null && identity !== holder.identity && rec.seq > ctx.faultSeq) {
      const acquired = serverSecondsSince(ctx.faultMs, typeof spec?.acquireTime === 'string' ? spec.acquireTime : null) ?? secondsSince(ctx.faultMs, rec.receivedAtMs);
      // The leader renews every --leader-elect-retry-period (2 s by default): the longest interval seen is how long it can have gone on acting unseen.
      const interval = Math.max(holder.longestIntervalSeconds, DEFAULT_LEADER_RETRY_PERIOD_SECONDS);
      changes.push({
        oldLastRenewalSeconds: holder.lastRenewalSeconds,
        oldGoneBySeconds: holder.lastRenewalSeconds === null ? null : round3(holder.lastRenewalSeconds + interval + OBSERVATION_LATENCY_SECONDS),
        acquiredSeconds: acquired,
        firstPassReceivedSeconds: null,
        acquiredReceivedMs: rec.receivedAtMs,
      });
    }
    if (holder === null || identity !== holder.identity) holder = { identity, lastRenewalSeconds: renewal, longestIntervalSeconds: 0 };
    else if (renewal !== null) {
      if (holder.lastRenewalSeconds !== null && renewal > holder.lastRenewalSeconds) holder.longestIntervalSeconds = Math.max(holder.longestIntervalSeconds, renewal - holder.lastRenewalSeconds);
      holder.lastRenewalSeconds = renewal;
    }
  }
  if (changes.length === 0) return [];
  // The first RegisteredNode Event received after each acquisition (and before the next one): that leader's first pass.
  for (const o of observations) {
    if (o.type !== 'object' || o.kind !== 'Event' || o.verb === 'LISTED' || o.verb === 'DELETED') continue;
    if ((o.object as { reason?: unknown }).reason !== 'RegisteredNode') continue;
    const change = [...changes].reverse().find((c) => c.acquiredReceivedMs <= o.receivedAtMs);
    if (change && change.firstPassReceivedSeconds === null) change.firstPassReceivedSeconds = secondsSince(ctx.faultMs, o.receivedAtMs);
  }
  return changes.map(({ acquiredReceivedMs: _, ...c }) => c);
}

/** Node Lease renewals and controller-manager leader changes; warns when the leader changed (countdowns restart). */
export const controlPlaneSignalsMeasurement: Measurement = {
  name: 'control-plane-signals',
  describes: 'node Lease renewTimes (server clock), kube-controller-manager leader changes and the observer\'s delivery lag (Lease renewTime → receipt), for the predictions',
  needs: [],
  provides: ['leaseRenewals', 'leaderChanges', 'observerLag'],
  measure: ({ observations, ctx, warn }) => {
    const leaderChanges = controllerManagerLeaderChanges(observations, ctx);
    for (const c of leaderChanges) {
      const firstPass = c.firstPassReceivedSeconds === null ? 'its first pass was not seen (no RegisteredNode Event): countdowns across it are not modelled' : `countdowns pending across it restart from its first pass (RegisteredNode received ${secondsText(c.firstPassReceivedSeconds)})`;
      warn(`${leaderChangeText(c)}: ${firstPass}`);
    }
    return { leaseRenewals: leaseRenewals(ctx), leaderChanges, observerLag: observerLag(ctx) };
  },
};
