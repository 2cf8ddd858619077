// Follows each workload's Ready pod count through the journal, as the API shows it and as a client sees it.
import { msToSeconds, secondsSince } from './clock.js';
import type { FaultMarkers, RunContext } from './context.js';
import { condition, deletionTimestamp, isReady, nodeName, ownerKind, phase } from './objects.js';
import type { WorkloadRef, WorkloadTimeline } from './types.js';
import type { ObjectObservation } from '../observe/types.js';
import { clientImpactOf, type ClientImpact, type PartitionScope } from '../spec/faults.js';

/**
 * How a fault type silences the pods of its node for clients (its record's `clients`, lib/spec/faults.ts, or its
 * scope's):
 * - `stopped` (power-off, reboot, node-delete): the containers die at the command; a pod serves again only once
 *   the API shows it Ready with a Ready lastTransitionTime after the fault started (the kubelet restarted it);
 * - `paused` (freeze, network-partition): the containers keep their state but nobody reaches them until the
 *   fault is undone; they serve again at the restore if the API still shows them Ready, else when it does;
 * - `serving` (kubelet-stop, kubelet-restart, runtime-stop, a network-partition of scope `control-plane`, which cuts
 *   only the API server's traffic, and types no record names, e.g. a script's node action): the containers keep
 *   serving; the client view is the API view.
 */
export function clientImpact(type: string | null, scope: PartitionScope | null = null): ClientImpact {
  return clientImpactOf(type, scope);
}

/**
 * Whether a pod record counts toward its workload's available pods (the API view): Ready and not terminating, or a
 * Job's pod that Succeeded (it finished its work: it is not missing, will not run again and need not). Any other
 * owner's Succeeded pod is gone for good, as its controller counts it (a ReplicaSet or StatefulSet pod that exited 0
 * when a graceful node shutdown killed it: k8s.io/kubernetes v1.37.2 pkg/controller/controller_utils.go
 * FilterActivePods drops it, and the controller creates a replacement).
 */
export function countsAsAvailable(rec: Pick<ObjectObservation, 'verb' | 'object'>): boolean {
  if (rec.verb === 'DELETED' || deletionTimestamp(rec.object) !== null) return false;
  return isReady(rec.object) || (phase(rec.object) === 'Succeeded' && ownerKind(rec.object) === 'Job');
}

/** Time below `desired` in a step function starting at `initial` (at 0 s) through `series` until `endSeconds`, seconds. */
function spanBelow(series: readonly [number, number][], initial: number, desired: number, endSeconds: number): { ms: number; firstDrop: number | null; recoveredAt: number | null; minimum: number } {
  let ms = 0;
  let since: number | null = initial < desired ? 0 : null;
  let firstDrop: number | null = since;
  let recoveredAt: number | null = since === null ? 0 : null;
  let minimum = initial;
  for (const [at, n] of series) {
    minimum = Math.min(minimum, n);
    if (n < desired && since === null) {
      since = at;
      firstDrop ??= at;
      recoveredAt = null;
    } else if (n >= desired && since !== null) {
      ms += (at - since) * 1000;
      since = null;
      recoveredAt = at;
    }
  }
  if (since !== null) ms += (endSeconds - since) * 1000;
  return { ms, firstDrop, recoveredAt, minimum };
}

/**
 * uid → whether the pod counts, with the number that count kept as they change: counting the map after every
 * Pod record made a 10,000-pod journal quadratic.
 */
class Tally {
  private readonly counted = new Map<string, boolean>();
  /** How many uids are set to true. */
  size = 0;
  get(uid: string): boolean | undefined {
    return this.counted.get(uid);
  }
  has(uid: string): boolean {
    return this.counted.has(uid);
  }
  set(uid: string, value: boolean): void {
    if ((this.counted.get(uid) ?? false) !== value) this.size += value ? 1 : -1;
    this.counted.set(uid, value);
  }
}

/**
 * Count Ready pods per workload after every Pod record. A pod counts for the API while its Ready condition is True
 * and it has no deletionTimestamp (terminating pods are not available, as for a Deployment's availableReplicas), or
 * once it Succeeded (countsAsAvailable).
 * For clients, a pod that ran on a fault target at time zero stops counting at its node's fault command start,
 * per {@link clientImpact}. Unavailable time is the time after time zero spent below `desired`, up to the last record.
 */
export function buildWorkloadTimelines(ctx: RunContext, workloads: readonly WorkloadRef[]): WorkloadTimeline[] {
  const faults = new Map(ctx.faults.map((f) => [f.node, f]));
  return workloads.map((w) => {
    const records = ctx.pods.filter((r) => ctx.workloadOf(r) === w.name);
    const api = new Tally();
    const client = new Tally();
    // Per pod that ran on a fault target at time zero: its fault, and whether it serves again already.
    const silenced = new Map<string, { fault: FaultMarkers; back: boolean }>();
    const count = (m: Tally) => m.size;
    let readyAtFault: number | null = null;
    const apiSeries: [number, number][] = [];
    const clientSeries: [number, number][] = [];
    // Instants when a fault starts or is undone change the client count without a Pod record. Each instant once:
    // a zone outage hits hundreds of nodes at the same instant, and every visit of an instant goes over all the
    // pods its faults silenced (500 copies of one instant made a 10,000-pod report spend a second here).
    const ticks = [...new Set(ctx.faults.flatMap((f) => [f.issuedAtMs, ...(f.restoredAtMs === null ? [] : [f.restoredAtMs])]))].sort((a, b) => a - b);
    const clientCounts = (uid: string, rec: ObjectObservation | null, atMs: number): boolean => {
      const s = silenced.get(uid);
      const counted = api.get(uid) ?? false;
      if (!s || atMs < s.fault.issuedAtMs) return counted;
      const impact = clientImpact(s.fault.type, s.fault.scope);
      if (impact === 'serving') return counted;
      const restored = s.fault.restoredAtMs !== null && atMs >= s.fault.restoredAtMs;
      if (!restored) return false;
      if (impact === 'paused') return counted;
      if (!s.back && rec && counted) {
        const ltt = Date.parse(condition(rec.object, 'Ready')?.lastTransitionTime ?? '');
        // lastTransitionTime has 1 s resolution: a transition in the fault's own second counts as after it.
        if (!Number.isNaN(ltt) && ltt >= Math.floor(s.fault.issuedAtMs / 1000) * 1000) s.back = true;
      }
      return s.back && counted;
    };
    const record = (atMs: number) => {
      const at = secondsSince(ctx.faultMs, atMs);
      if (apiSeries.at(-1)?.[1] !== count(api)) apiSeries.push([at, count(api)]);
      if (clientSeries.at(-1)?.[1] !== count(client)) clientSeries.push([at, count(client)]);
    };
    let tick = 0;
    let byTick: Map<number, string[]> | undefined;
    const indexByTick = () => {
      const index = new Map<number, string[]>();
      const add = (t: number, uid: string) => {
        const uids = index.get(t);
        if (uids) uids.push(uid);
        else index.set(t, [uid]);
      };
      for (const [uid, { fault }] of silenced) {
        add(fault.issuedAtMs, uid);
        if (fault.restoredAtMs !== null && fault.restoredAtMs !== fault.issuedAtMs) add(fault.restoredAtMs, uid);
      }
      return index;
    };
    const applyTicks = (untilMs: number) => {
      while (tick < ticks.length && ticks[tick] <= untilMs) {
        const t = ticks[tick++];
        if (t < ctx.faultMs) continue;
        // Only a pod silenced by a fault can count differently for clients than for the API, and without a record of
        // its own only when the tick is its fault's start or undo (clientCounts). silenced no longer changes once
        // ticks are applied (it is set from records before the fault), so the index is built once.
        byTick ??= indexByTick();
        for (const uid of byTick.get(t) ?? []) if (client.has(uid)) client.set(uid, clientCounts(uid, null, t));
        record(t);
      }
    };
    for (const rec of records) {
      const afterFault = rec.seq > ctx.faultSeq;
      if (afterFault && readyAtFault === null) {
        readyAtFault = count(api);
        apiSeries.push([0, readyAtFault]);
        clientSeries.push([0, count(client)]);
      }
      if (afterFault) applyTicks(rec.receivedAtMs);
      if (!afterFault) {
        const node = nodeName(rec.object);
        const fault = node === null ? undefined : faults.get(node);
        if (fault && rec.verb !== 'DELETED') silenced.set(rec.uid, { fault, back: false });
        else silenced.delete(rec.uid);
      }
      api.set(rec.uid, countsAsAvailable(rec));
      client.set(rec.uid, clientCounts(rec.uid, rec, rec.receivedAtMs));
      if (afterFault) record(rec.receivedAtMs);
    }
    if (readyAtFault === null) {
      readyAtFault = count(api);
      apiSeries.push([0, readyAtFault]);
      clientSeries.push([0, count(client)]);
    }
    applyTicks(ctx.endMs);
    const desired = w.desiredReplicas ?? readyAtFault;
    const endSeconds = secondsSince(ctx.faultMs, ctx.endMs);
    // The series start with the count at time zero; spanBelow takes it as the initial value.
    const [, apiInitial] = apiSeries[0];
    const apiSpan = spanBelow(apiSeries.slice(1), apiInitial, desired, endSeconds);
    const [, clientInitial] = clientSeries[0];
    const clientSpan = spanBelow(clientSeries.slice(1), clientInitial, desired, endSeconds);
    const readyAtEnd = apiSeries[apiSeries.length - 1][1];
    return {
      name: w.name,
      kind: w.kind,
      desired,
      readyAtFault,
      minimumReady: Math.min(clientSpan.minimum, apiSpan.minimum),
      readyAtEnd,
      unavailableSeconds: msToSeconds(clientSpan.ms),
      apiUnavailableSeconds: msToSeconds(apiSpan.ms),
      unavailableAfterSeconds: clientSpan.firstDrop,
      recoveredAfterSeconds: clientSpan.recoveredAt,
      recovered: readyAtEnd >= desired,
      dataProbe: ctx.dataProbes.get(w.name)?.outcome ?? null,
      readySeries: apiSeries.slice(1),
      servingSeries: clientSeries.slice(1),
    };
  });
}
