// Follows each workload's Ready pod count through the journal: minimum, unavailable time, recovery.
import { secondsSince, msToSeconds } from './clock.js';
import type { RunContext } from './context.js';
import { deletionTimestamp, isReady, label } from './objects.js';
import { WORKLOAD_LABEL } from './pod-timeline.js';
import type { WorkloadTimeline } from './types.js';

/** A workload of the experiment: its name (the rebootlab.dev/workload label value), kind and replicas. */
export interface WorkloadRef {
  name: string;
  /** Deployment, StatefulSet, DaemonSet, Pod or Job. */
  kind: string;
  /** Desired Ready pods; when absent (DaemonSet) the Ready count at the fault is used. */
  desiredReplicas?: number;
  /**
   * Name of the Service in front of the workload's pods (its EndpointSlices carry label
   * `kubernetes.io/service-name=<serviceName>`); absent when the workload has none (no endpoint timeline).
   */
  serviceName?: string;
}

/**
 * Count Ready pods per workload after every Pod record. A pod counts while its Ready condition is True and it
 * has no deletionTimestamp (terminating pods are not available, as for a Deployment's availableReplicas).
 * Unavailable time is the time after the fault spent below `desired`, up to the journal's last record.
 */
export function buildWorkloadTimelines(ctx: RunContext, workloads: readonly WorkloadRef[]): WorkloadTimeline[] {
  return workloads.map((w) => {
    const ready = new Map<string, boolean>();
    const count = () => [...ready.values()].filter(Boolean).length;
    let readyAtFault: number | null = null;
    const series: [number, number][] = [];
    const records = ctx.pods.filter((r) => label(r.object, WORKLOAD_LABEL) === w.name);
    for (const rec of records) {
      if (readyAtFault === null && rec.seq > ctx.faultSeq) readyAtFault = count();
      const isCounted = rec.verb !== 'DELETED' && isReady(rec.object) && deletionTimestamp(rec.object) === null;
      const previous = count();
      ready.set(rec.uid, isCounted);
      if (rec.seq > ctx.faultSeq && count() !== previous) series.push([secondsSince(ctx.faultMs, rec.receivedAtMs), count()]);
    }
    if (readyAtFault === null) readyAtFault = count();
    const desired = w.desiredReplicas ?? readyAtFault;
    // Walk the step function from the fault (count = readyAtFault) to the end.
    let unavailableMs = 0;
    let since: number | null = readyAtFault < desired ? 0 : null;
    let firstDrop: number | null = since;
    let recoveredAt: number | null = since === null ? 0 : null;
    let minimum = readyAtFault;
    const endSeconds = secondsSince(ctx.faultMs, ctx.endMs);
    for (const [at, n] of series) {
      minimum = Math.min(minimum, n);
      if (n < desired && since === null) {
        since = at;
        firstDrop ??= at;
        recoveredAt = null;
      } else if (n >= desired && since !== null) {
        unavailableMs += (at - since) * 1000;
        since = null;
        recoveredAt = at;
      }
    }
    if (since !== null) unavailableMs += (endSeconds - since) * 1000;
    const readyAtEnd = series.length > 0 ? series[series.length - 1][1] : readyAtFault;
    return {
      name: w.name,
      kind: w.kind,
      desired,
      readyAtFault,
      minimumReady: minimum,
      readyAtEnd,
      unavailableSeconds: msToSeconds(unavailableMs),
      unavailableAfterSeconds: firstDrop,
      recoveredAfterSeconds: recoveredAt,
      recovered: readyAtEnd >= desired,
      dataProbe: ctx.dataProbes.get(w.name) ?? null,
      readySeries: series,
    };
  });
}
