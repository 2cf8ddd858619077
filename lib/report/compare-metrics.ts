// The timing metrics compare and the baseline gate read from one result.json: one value per run, seconds.
import type { PodTimeline } from '../analyze/types.js';
import type { Result } from './result-types.js';

/**
 * A metric of a run: seconds (instants: seconds since the fault; spans: seconds), or a ratio 0…1 when `unit` is
 * `ratio` (a probe's errorRatio; the stats fields named ...Seconds then hold the ratio).
 */
export interface MetricDef {
  /**
   * Stable id: `detection`, `noExecuteTaint`, `eviction`, `replacementReady`, `unavailable:<workload>`, or for each
   * traffic probe `probeErrorSeconds:<probe>`, `probeErrorRatio:<probe>`, `probeFirstError:<probe>`, `probeLastError:<probe>`.
   */
  id: string;
  /** `s` (the default when absent) or `ratio`. */
  unit?: 's' | 'ratio';
  /** Column / row title, e.g. `detection (NotReady)`. */
  label: string;
  /** How the run's value is taken from result.json. */
  description: string;
}

/** The fixed metrics, in display order; `unavailable:<workload>` metrics follow, one per workload. */
export const FIXED_METRICS: readonly MetricDef[] = [
  { id: 'detection', label: 'detection (NotReady)', description: 'first fault target: nodes[].notReadyAfterSeconds, seconds since the fault' },
  { id: 'noExecuteTaint', label: 'NoExecute taint', description: 'first fault target: nodes[].noExecuteTaintAfterSeconds, seconds since the fault' },
  { id: 'eviction', label: 'eviction', description: 'last evictedAfterSeconds among pods on fault targets, seconds since the fault' },
  { id: 'replacementReady', label: 'replacement Ready', description: 'last replacement.readyAfterSeconds among pods on fault targets, seconds since the fault' },
];

/** The metric of workload `name`'s unavailableSeconds (a span, seconds). */
export function unavailableMetric(name: string): MetricDef {
  return { id: `unavailable:${name}`, label: `${name} unavailable`, description: `workloads[name=${name}].unavailableSeconds, seconds` };
}

/** The four metrics of traffic probe `name` (result.json probes[name=…]). */
export function probeMetrics(name: string): MetricDef[] {
  return [
    { id: `probeErrorSeconds:${name}`, label: `probe ${name} seconds with errors`, description: `probes[name=${name}].errorSeconds, seconds` },
    { id: `probeErrorRatio:${name}`, label: `probe ${name} error ratio`, unit: 'ratio', description: `probes[name=${name}].errorRatio, failed / sent` },
    { id: `probeFirstError:${name}`, label: `probe ${name} first error`, description: `probes[name=${name}].firstErrorAfterSeconds, seconds since the fault` },
    { id: `probeLastError:${name}`, label: `probe ${name} last error`, description: `probes[name=${name}].lastErrorAfterSeconds, seconds since the fault` },
  ];
}

/** Metric definitions for a set of runs: the fixed ones, one per workload name, then four per probe name (first-seen order). */
export function metricsOf(results: readonly Result[]): MetricDef[] {
  const names: string[] = [];
  const probes: string[] = [];
  for (const r of results) for (const w of r.workloads) if (!names.includes(w.name)) names.push(w.name);
  for (const r of results) for (const p of r.probes ?? []) if (!probes.includes(p.name)) probes.push(p.name);
  return [...FIXED_METRICS, ...names.map(unavailableMetric), ...probes.flatMap(probeMetrics)];
}

function lastOf(values: (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === 'number');
  return present.length === 0 ? null : Math.max(...present);
}

function podsOnTargets(r: Result): PodTimeline[] {
  const targets = new Set(r.spec.fault.nodes);
  return r.pods.filter((p) => p.nodeBefore !== null && targets.has(p.nodeBefore));
}

/**
 * The value of `metricId` in one run, seconds; null when the event did not happen (or the workload is absent).
 * Node metrics use the first fault target, like the `node.<field>` expectation subject; pod metrics take the last
 * pod (the time by which every affected pod had been evicted / replaced).
 */
export function metricValue(r: Result, metricId: string): number | null {
  const target = r.nodes.find((n) => n.name === r.spec.fault.nodes[0]) ?? r.nodes.find((n) => n.faultTarget);
  switch (metricId) {
    case 'detection':
      return target?.notReadyAfterSeconds ?? null;
    case 'noExecuteTaint':
      return target?.noExecuteTaintAfterSeconds ?? null;
    case 'eviction':
      return lastOf(podsOnTargets(r).map((p) => p.evictedAfterSeconds));
    case 'replacementReady':
      return lastOf(podsOnTargets(r).map((p) => p.replacement?.readyAfterSeconds));
  }
  const probe = /^probe(ErrorSeconds|ErrorRatio|FirstError|LastError):(.+)$/.exec(metricId);
  if (probe) {
    const p = r.probes?.find((x) => x.name === probe[2]);
    if (!p) return null;
    return { ErrorSeconds: p.errorSeconds, ErrorRatio: p.errorRatio, FirstError: p.firstErrorAfterSeconds, LastError: p.lastErrorAfterSeconds }[probe[1] as 'ErrorSeconds'];
  }
  if (metricId.startsWith('unavailable:')) return r.workloads.find((w) => w.name === metricId.slice('unavailable:'.length))?.unavailableSeconds ?? null;
  return null;
}
