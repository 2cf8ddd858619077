// Judging a forecast against what the run shows: each item's observed instant from the analysis, held when it falls in
// one of its outcomes' windows (or it did not happen and "never" is an outcome).
import type { ProbeSummary } from '../probe-types.js';
import type { NodeTimeline, PodTimeline, RunAnalysis, WorkloadTimeline } from '../types.js';
import type { Forecast, ForecastItem, JudgedForecast, JudgedForecastItem } from './types.js';

/** The journal mark a scripted experiment writes just before its first action after its first fault (lib/script/lab.ts): the forecast's horizon. */
export const FORECAST_HORIZON_PHASE = 'forecast-horizon';

/** The parts of an analysis a forecast is judged against. */
export type ObservedRun = Pick<RunAnalysis, 'nodes' | 'pods' | 'workloads' | 'endAfterSeconds' | 'jobs'> & { probes?: ProbeSummary[] };

/** What the run shows for `item` (the instant its event names, seconds since time zero), null when it did not happen, undefined when the run cannot show it. */
export function observedFor(item: ForecastItem, run: ObservedRun): number | null | undefined {
  const node: NodeTimeline | undefined = run.nodes.find((n) => n.name === item.node);
  const pod: PodTimeline | undefined = item.pod === null ? undefined : run.pods.find((p) => `${p.namespace}/${p.name}` === item.pod);
  const workload: WorkloadTimeline | undefined = item.workload === null ? undefined : run.workloads.find((w) => w.name === item.workload);
  const taint = (effect: string) => node?.taints.find((t) => t.key === item.taintKey && t.effect === effect && t.addedReceivedAfterSeconds !== null)?.addedReceivedAfterSeconds ?? null;
  switch (item.event) {
    // Ready=Unknown, also when it followed a kubelet-reported Ready=False (a graceful shutdown, then silence).
    case 'node-not-ready': return node ? (node.notReadyStatus === 'Unknown' ? node.notReadyAfterSeconds : (node.unknownAfterSeconds ?? null)) : undefined;
    case 'node-not-ready-kubelet': return node ? (node.notReadyStatus === 'False' ? node.notReadyAfterSeconds : null) : undefined;
    case 'no-schedule-taint': return node ? taint('NoSchedule') : undefined;
    case 'no-execute-taint': return node ? taint('NoExecute') : undefined;
    case 'node-ready-again': return node ? node.readyAgainAfterSeconds : undefined;
    case 'node-deleted': return node ? node.deletedAfterSeconds : undefined;
    case 'pod-eviction': return pod ? pod.evictedAfterSeconds : undefined;
    case 'pod-deleted': return pod ? pod.deletedAfterSeconds : undefined;
    case 'pod-terminated': return pod ? pod.terminatedAfterSeconds ?? null : undefined;
    case 'replacement-created': return pod ? pod.replacement?.createdAfterSeconds ?? null : undefined;
    case 'replacement-ready': return pod ? pod.replacement?.readyAfterSeconds ?? null : undefined;
    // Followed only when the run knew the workload's Service (endpointReadyAtFault set).
    case 'endpoint-not-ready': return pod && pod.endpointReadyAtFault !== null && pod.endpointReadyAtFault !== undefined ? pod.endpointNotReadyAfterSeconds ?? null : undefined;
    case 'workload-unavailable': return workload ? workload.unavailableAfterSeconds : undefined;
    case 'workload-recovered': return workload ? workload.recoveredAfterSeconds : undefined;
    case 'workload-api-unavailable': return workload ? workload.readySeries.find(([, ready]) => ready < workload.desired)?.[0] ?? null : undefined;
    // The Failed=True condition's lastTransitionTime (server clock, whole seconds) as the jobs measurement read it
    // (JobCondition.afterSeconds, serverSecondsSince): null when the Job has none at the end of the journal.
    case 'job-failed': {
      const job = run.jobs?.find((j) => j.workload === item.workload);
      if (!job) return undefined;
      return job.conditions.find((c) => c.type === 'Failed' && c.status === 'True')?.afterSeconds ?? null;
    }
    case 'probe-last-error': {
      const probe = run.probes?.find((p) => p.name === item.workload);
      return probe ? probe.lastErrorAfterSeconds : undefined;
    }
  }
}

/**
 * The verdict of one item at the end of the run (`endSeconds`): observed inside an outcome's window → true, outside
 * every one → false; not observed → true when "never" is an outcome and every window closed before the end, false when
 * it always happens and its windows closed, else null (still open); not observable in this run → null.
 */
export function judgeForecastItem(item: ForecastItem, observed: number | null | undefined, endSeconds: number): boolean | null {
  if (observed === undefined) return null;
  const windows = item.outcomes.flatMap((o) => (o.window ? [o.window] : []));
  if (observed !== null) return windows.some((w) => observed >= w.fromSeconds && observed <= w.toSeconds);
  const closed = windows.every((w) => w.toSeconds < endSeconds);
  if (item.outcomes.some((o) => o.window === null)) return closed ? true : null;
  return closed ? false : null;
}

/**
 * `forecast` judged against `run`; `frozen` says whether it was read from the journal or recomputed from its pre-fault
 * records. `until` (a scripted experiment's forecast, `forecast.horizon`): the script's next action after its first
 * fault, seconds since time zero; each item is judged as the run stood then: an event seen after it counts as not
 * seen, and a window still open then is open (null), since the action may change what follows.
 */
export function judgeForecast(forecast: Forecast, run: ObservedRun, frozen: JudgedForecast['frozen'], until: { afterSeconds: number; action: string } | null = null): JudgedForecast {
  const endSeconds = until === null ? run.endAfterSeconds : Math.min(run.endAfterSeconds, until.afterSeconds);
  const items: JudgedForecastItem[] = forecast.items.map((i) => {
    const observed = observedFor(i, run);
    const seenByEnd = observed === undefined || observed === null || observed <= endSeconds ? observed : null;
    return { ...i, observedSeconds: observed ?? null, held: judgeForecastItem(i, seenByEnd, endSeconds) };
  });
  return {
    ...forecast, frozen, ...(forecast.horizon ? { judgedUntil: until } : {}), items,
    missed: items.filter((i) => i.held === false),
    heldCount: items.filter((i) => i.held === true).length,
    judgedCount: items.filter((i) => i.held !== null).length,
  };
}
