// Measurement: what each traffic prober's clients saw, and `probes.<name>.<field>`.
import type { ProbeField } from '../../spec/expectation.js';
import type { Measurement } from '../measurement.js';
import { buildProbeSummaries } from '../probe-timeline.js';
import type { ProbeSummary } from '../probe-types.js';

const PROBE_VALUES: Record<ProbeField, (p: ProbeSummary) => string | number | boolean | null> = {
  sent: (p) => p.sent,
  answered: (p) => p.answered,
  errors: (p) => p.errors,
  errorRatio: (p) => p.errorRatio,
  errorRatioWhileFailing: (p) => p.errorRatioWhileFailing,
  blackholeFromSeconds: (p) => p.blackhole?.fromSeconds ?? null,
  blackholeToSeconds: (p) => p.blackhole?.toSeconds ?? null,
  blackholeErrorRatio: (p) => p.blackhole?.errorRatio ?? null,
  errorSeconds: (p) => p.errorSeconds,
  firstErrorAfterSeconds: (p) => p.firstErrorAfterSeconds,
  lastErrorAfterSeconds: (p) => p.lastErrorAfterSeconds,
  latencyP50MsDuring: (p) => p.latency.during.p50Ms,
  latencyP99MsDuring: (p) => p.latency.during.p99Ms,
  backends: (p) => p.backends.length,
};

const ms = (v: number | null): string => (v === null ? '—' : `${v} ms`);

/** Probe records (experiment `probes:`) per prober; absent from the analysis when the run had none. */
export const probesMeasurement: Measurement = {
  name: 'probes',
  describes: 'per traffic prober (HTTP or DNS): requests sent, failed (by outcome), seconds with a failure, first/last failure, latency, answering pods (probe records)',
  needs: ['nodes', 'pods'],
  provides: ['probes'],
  measure: ({ ctx, observations, warn }, measured) => {
    // Every workload lives in one namespace: its EndpointSlices are the ones the probers' Services have.
    const namespace = measured.pods?.find((p) => p.workload !== null)?.namespace;
    const probes = buildProbeSummaries(observations, ctx.faultMs, ctx.restoreMs, { endMs: ctx.endMs, faults: ctx.faults, nodes: measured.nodes ?? [], ...(namespace ? { namespace } : {}) });
    for (const p of probes) {
      if (p.lostRecords !== null && p.lostRecords !== 0) warn(`probe ${p.name}: ${p.lostRecords} requests sent have no record in the journal`);
      for (const g of p.gaps) warn(`probe ${p.name} sent nothing from ${g.fromSeconds} s to ${g.toSeconds} s: ${g.reason}`);
    }
    return probes.length > 0 ? { probes } : {};
  },
  expectations: {
    scope: 'probe',
    values(analysis, s) {
      if (s.scope !== 'probe') return 'not a probe subject';
      const p = analysis.probes?.find((x) => x.name === s.name);
      return p ? [{ label: p.name, value: PROBE_VALUES[s.field](p) }] : `no probe ${s.name} in the journal`;
    },
  },
  tables: (v) =>
    v.probes && v.probes.length > 0
      ? [{
          name: 'probes',
          title: 'Traffic probes (what clients saw)',
          headers: ['Probe', 'Sent', 'Failed', 'Failures by outcome', 'Seconds with a failure', 'First failure', 'Last failure', 'Blackhole (endpoint ready on a down node)', 'Latency p50 / p99 during', 'Pods that answered'],
          rows: v.probes.map((p) => [
            p.type === 'dns' ? `${p.name} (DNS ${p.query ?? '?'} over UDP)` : p.name, p.sent, `${p.errors} (${(p.errorRatio * 100).toFixed(1)} %${p.errorRatioWhileFailing === null ? '' : `; ${(p.errorRatioWhileFailing * 100).toFixed(1)} % while failing`})`,
            Object.entries(p.outcomes).filter(([o]) => o !== 'ok').map(([o, n]) => `${o} ${n}`).join(', ') || '—',
            p.errorSeconds, { seconds: p.firstErrorAfterSeconds }, { seconds: p.lastErrorAfterSeconds },
            p.blackhole === null ? '—' : `${p.blackhole.fromSeconds}–${p.blackhole.toSeconds} s: ${p.blackhole.failed} of ${p.blackhole.sent} failed (${(p.blackhole.errorRatio * 100).toFixed(1)} %)`,
            `${ms(p.latency.during.p50Ms)} / ${ms(p.latency.during.p99Ms)}`,
            p.type === 'dns' ? '— (a DNS answer does not name its server)' : p.backends.map((b) => `${b.pod} (${b.answered})`).join(', '),
          ]),
        }, ...(v.probes.some((p) => p.failingBackends.length > 0) ? [{
          name: 'failing-backends',
          title: 'Failing backends (failed requests joined with the EndpointSlices)',
          headers: ['Probe', 'Cause', 'Pods', 'Nodes', 'Failed', 'Outcomes', 'From', 'To', 'Why'],
          rows: v.probes.flatMap((p) => p.failingBackends.map((f) => [
            p.name, f.cause, f.pods.join(', '), f.nodes.join(', '), f.failed, Object.entries(f.outcomes).map(([o, n]) => `${o} ${n}`).join(', '),
            { seconds: f.firstAfterSeconds }, { seconds: f.lastAfterSeconds }, f.because,
          ])),
        }] : [])]
      : [],
};
