// Measurement: what the Eviction API answered each pod an evict-pods or drain step (or a script) asked for, from the
// `eviction` journal records (lib/faults/steps.ts evictionDetail): evicted, refused by a PodDisruptionBudget, gone.
import type { PhaseObservation } from '../../observe/types.js';
import { secondsSince } from '../clock.js';
import type { Measurement } from '../measurement.js';
import type { EvictionApiRecord } from '../types.js';

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * One record per pod and asking step: the last `eviction` phase of each (the final one, else the first refusal, whose
 * outcome is then `pending`), in the order their first record was journaled. Times from `faultMs` (Unix epoch ms).
 */
export function evictionRecords(observations: readonly { type: string }[], faultMs: number): EvictionApiRecord[] {
  const byKey = new Map<string, EvictionApiRecord>();
  const phases = observations
    .filter((o): o is PhaseObservation => o.type === 'phase' && (o as PhaseObservation).phase === 'eviction')
    .sort((a, b) => a.seq - b.seq);
  for (const o of phases) {
    const d = o.detail ?? {};
    const step = typeof d.step === 'number' ? d.step : null;
    const pod = `${text(d.namespace) ?? ''}/${text(d.pod) ?? ''}`;
    const outcome = d.final === true && (d.outcome === 'evicted' || d.outcome === 'refused' || d.outcome === 'gone') ? d.outcome : 'pending';
    byKey.set(`${pod}\u0000${text(d.uid) ?? ''}\u0000${step}`, {
      pod, uid: text(d.uid) ?? '', node: text(d.node) ?? o.nodes?.[0] ?? '', step, outcome,
      attempts: num(d.attempts), refusals: num(d.refusals),
      firstAttemptAfterSeconds: secondsSince(faultMs, num(d.firstAttemptAtMs)),
      lastAttemptAfterSeconds: secondsSince(faultMs, num(d.lastAttemptAtMs)),
      message: text(d.message),
    });
  }
  return [...byKey.values()];
}

/** Eviction API answers; absent from the analysis when no step or script asked. Registered before `pods`, which attaches each pod's. */
export const evictionsMeasurement: Measurement = {
  name: 'evictions',
  describes: 'per pod an evict-pods or drain step asked for: evicted, refused by a PodDisruptionBudget (HTTP 429) or gone, attempts and times (eviction records)',
  needs: [],
  provides: ['evictions'],
  measure: ({ ctx, observations }) => {
    const evictions = evictionRecords(observations, ctx.faultMs);
    return evictions.length > 0 ? { evictions } : {};
  },
  tables: (v) =>
    v.evictions && v.evictions.length > 0
      ? [{
          name: 'evictions',
          title: 'Eviction API requests',
          note: 'Each pod an evict-pods or drain step asked the Eviction API to evict; a refusal (HTTP 429) is a PodDisruptionBudget that allowed no disruption then.',
          headers: ['Pod', 'Node', 'Step', 'Outcome', 'Attempts', 'Refusals (429)', 'First attempt', 'Last attempt', 'Message'],
          rows: v.evictions.map((e) => [
            e.pod, e.node, e.step === null ? 'script' : e.step, e.outcome, e.attempts, e.refusals,
            { seconds: e.firstAttemptAfterSeconds }, { seconds: e.lastAttemptAfterSeconds }, e.message,
          ]),
        }]
      : [],
};
