// Measurement: the heartbeats and leader changes the predictions count from (node Leases, the controller-manager Lease).
import { CONTROLLER_MANAGER_LEASE } from '../../observe/types.js';
import { secondsSince, serverSecondsSince } from '../clock.js';
import type { RunContext } from '../context.js';
import type { Measurement } from '../measurement.js';
import { nodeLeases } from '../node-timeline.js';
import { renewTime } from '../objects.js';

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
 * Instants after time zero at which the kube-controller-manager leader Lease (kube-system) changed holderIdentity,
 * client receive time in seconds since time zero. Empty when that Lease is not journaled.
 */
function controllerManagerLeaderChanges(ctx: RunContext): number[] {
  const changes: number[] = [];
  let holder: string | null = null;
  for (const rec of ctx.leases) {
    if (rec.namespace !== CONTROLLER_MANAGER_LEASE.namespace || rec.name !== CONTROLLER_MANAGER_LEASE.name || rec.verb === 'DELETED') continue;
    const spec = (rec.object as { spec?: { holderIdentity?: unknown } }).spec;
    const current = typeof spec?.holderIdentity === 'string' ? spec.holderIdentity : null;
    if (holder !== null && current !== null && current !== holder && rec.seq > ctx.faultSeq) changes.push(secondsSince(ctx.faultMs, rec.receivedAtMs));
    if (current !== null) holder = current;
  }
  return changes;
}

/** Node Lease renewals and controller-manager leader changes; warns when the leader changed (countdowns restart). */
export const controlPlaneSignalsMeasurement: Measurement = {
  name: 'control-plane-signals',
  describes: 'node Lease renewTimes (server clock), kube-controller-manager leader changes and the observer\'s delivery lag (Lease renewTime → receipt), for the predictions',
  needs: [],
  provides: ['leaseRenewals', 'leaderChanges', 'observerLag'],
  measure: ({ ctx, warn }) => {
    const leaderChanges = controllerManagerLeaderChanges(ctx);
    if (leaderChanges.length > 0) warn(`kube-controller-manager leader changed at ${leaderChanges.map((s) => `${s} s`).join(', ')}: predictions counting across it are not modelled`);
    return { leaseRenewals: leaseRenewals(ctx), leaderChanges, observerLag: observerLag(ctx) };
  },
};
