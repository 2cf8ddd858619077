// Measurement: each workload's availability (clients' and API view), recovery and data probe, and `workloads.<name>.<field>`.
import type { WorkloadField } from '../../spec/expectation.js';
import { faultRecord } from '../../spec/faults.js';
import { part, type Measurement, type MeasurementTable, type MeasuredView } from '../measurement.js';
import type { WorkloadTimeline } from '../types.js';
import { buildWorkloadTimelines } from '../workload-timeline.js';

const WORKLOAD_VALUES: Record<WorkloadField, (w: WorkloadTimeline) => string | number | boolean | null> = {
  desired: (w) => w.desired,
  readyAtFault: (w) => w.readyAtFault,
  minimumReady: (w) => w.minimumReady,
  readyAtEnd: (w) => w.readyAtEnd,
  unavailableSeconds: (w) => w.unavailableSeconds,
  apiUnavailableSeconds: (w) => w.apiUnavailableSeconds,
  unavailableAfterSeconds: (w) => w.unavailableAfterSeconds,
  recoveredAfterSeconds: (w) => w.recoveredAfterSeconds,
  recovered: (w) => w.recovered,
  dataProbe: (w) => w.dataProbe,
  readyEndpointsAtFault: (w) => w.endpoints?.readyAtFault ?? null,
  minimumReadyEndpoints: (w) => w.endpoints?.minimumReady ?? null,
  noReadyEndpointSeconds: (w) => w.endpoints?.noReadyEndpointSeconds ?? null,
  noReadyEndpointAfterSeconds: (w) => w.endpoints?.noReadyEndpointAfterSeconds ?? null,
};

/** Why the clients' and the API's unavailability differ, for the fault type of the run. */
export function outageNote(faultType: string): string {
  return faultRecord(faultType)?.clientNote
    ?? 'Unavailable (clients) counts from time zero for pods on a node that is powered off, frozen, partitioned, rebooting or deleted (clients lose them at the fault); Unavailable (API) counts only while the API shows fewer Ready pods.';
}

/** One row per workload. */
function workloadsTable(v: MeasuredView): MeasurementTable {
  const s = (seconds: number | null) => ({ seconds });
  return {
    name: 'workloads',
    title: 'Workloads',
    headers: ['Workload', 'Kind', 'Desired', 'Ready at fault', 'Minimum Ready', 'Ready at end', 'Unavailable (clients)', 'Unavailable (API)', 'Unavailable from', 'Recovered after', 'Data probe'],
    rows: v.workloads.map((w) => [w.name, w.kind, w.desired, w.readyAtFault, w.minimumReady, w.readyAtEnd, s(w.unavailableSeconds), s(w.apiUnavailableSeconds), s(w.unavailableAfterSeconds), s(w.recoveredAfterSeconds), w.dataProbe ?? '—']),
    after: outageNote(v.faultType),
  };
}

/** One row per pod of a workload with a Service: its endpoint instants (EndpointSlices, client receive times); none without a Service. */
function endpointsTable(v: MeasuredView): MeasurementTable[] {
  const served = new Map(v.workloads.filter((w) => w.endpoints).map((w) => [w.name, w.endpoints!]));
  if (served.size === 0) return [];
  const services: MeasurementTable = {
    name: 'service-endpoints',
    title: 'Endpoints (what Service clients were offered)',
    note: "From the Services' EndpointSlices (client receive times).",
    headers: ['Workload', 'Service', 'Ready endpoints at fault', 'Minimum', 'No ready endpoint', 'No ready endpoint from'],
    rows: [...served].map(([name, e]) => [name, e.service, e.readyAtFault, e.minimumReady, { seconds: e.noReadyEndpointSeconds }, { seconds: e.noReadyEndpointAfterSeconds }]),
  };
  return [services, {
    name: 'endpoints',
    title: 'Endpoints per pod',
    headers: ['Pod', 'Workload', 'Ready at fault', 'Not ready', 'Terminating', 'Removed', 'Ready again (own or replacement)'],
    rows: v.pods.filter((p) => p.workload !== null && served.has(p.workload)).map((p) => {
      return [
        `${p.namespace}/${p.name}`, p.workload,
        p.endpointReadyAtFault ? 'yes' : 'no', { seconds: p.endpointNotReadyAfterSeconds ?? null }, { seconds: p.endpointTerminatingAfterSeconds ?? null },
        { seconds: p.endpointRemovedAfterSeconds ?? null }, { seconds: p.endpointReadyAgainAfterSeconds ?? null },
      ];
    }),
  }];
}

/** Workload timelines (Pod records by label rebootlab.dev/workload, or by a workload's selector) with their Service's endpoint figures; answers `workloads.<name>.<field>`. */
export const workloadsMeasurement: Measurement = {
  name: 'workloads',
  describes: 'per workload: Ready pods at the fault and at the end, minimum, unavailable seconds (clients and API), recovery, data probe, endpoints',
  needs: ['endpointsByWorkload'],
  provides: ['workloads'],
  measure: ({ ctx, options, warn }, earlier) => {
    const endpoints = part(earlier, 'endpointsByWorkload');
    const workloads = buildWorkloadTimelines(ctx, options.workloads).map((w) => ({ ...w, endpoints: endpoints.get(w.name) ?? null }));
    for (const w of workloads) {
      if (!ctx.pods.some((p) => ctx.workloadOf(p) === w.name)) warn(`workload ${w.name} has no pods in the journal`);
    }
    return { workloads };
  },
  expectations: {
    scope: 'workload',
    values(analysis, s) {
      if (s.scope !== 'workload') return 'not a workload subject';
      const w = analysis.workloads.find((x) => x.name === s.name);
      return w ? [{ label: w.name, value: WORKLOAD_VALUES[s.field](w) }] : `no workload ${s.name} in the experiment`;
    },
  },
  tables: (v) => [workloadsTable(v), ...endpointsTable(v)],
};
