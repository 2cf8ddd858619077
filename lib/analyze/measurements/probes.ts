// Measurement: what each traffic prober's clients saw, and `probes.<name>.<field>`.
import type { ProbeField } from '../../spec/expectation.js';
import type { Measurement } from '../measurement.js';
import { buildProbeSummaries, type ProbeSummary } from '../probe-timeline.js';

const PROBE_VALUES: Record<ProbeField, (p: ProbeSummary) => string | number | boolean | null> = {
  sent: (p) => p.sent,
  answered: (p) => p.answered,
  errors: (p) => p.errors,
  errorRatio: (p) => p.errorRatio,
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
  describes: 'per traffic prober: requests sent, failed (by outcome), seconds with a failure, first/last failure, latency, answering pods (probe records)',
  needs: [],
  provides: ['probes'],
  measure: ({ ctx, observations }) => {
    const probes = buildProbeSummaries(observations, ctx.faultMs, ctx.restoreMs);
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
          headers: ['Probe', 'Sent', 'Failed', 'Failures by outcome', 'Seconds with a failure', 'First failure', 'Last failure', 'Latency p50 / p99 during', 'Pods that answered'],
          rows: v.probes.map((p) => [
            p.name, p.sent, `${p.errors} (${(p.errorRatio * 100).toFixed(1)} %)`,
            Object.entries(p.outcomes).filter(([o]) => o !== 'ok').map(([o, n]) => `${o} ${n}`).join(', ') || '—',
            p.errorSeconds, { seconds: p.firstErrorAfterSeconds }, { seconds: p.lastErrorAfterSeconds },
            `${ms(p.latency.during.p50Ms)} / ${ms(p.latency.during.p99Ms)}`, p.backends.map((b) => `${b.pod} (${b.answered})`).join(', '),
          ]),
        }]
      : [],
};
