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
  describes: 'node Lease renewTimes (server clock) and kube-controller-manager leader changes, for the predictions',
  needs: [],
  provides: ['leaseRenewals', 'leaderChanges'],
  measure: ({ ctx, warn }) => {
    const leaderChanges = controllerManagerLeaderChanges(ctx);
    if (leaderChanges.length > 0) warn(`kube-controller-manager leader changed at ${leaderChanges.map((s) => `${s} s`).join(', ')}: predictions counting across it are not modelled`);
    return { leaseRenewals: leaseRenewals(ctx), leaderChanges };
  },
};
