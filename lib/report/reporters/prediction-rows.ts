// Text of the predictions table shared by summary.md and report.html: one row per predicted event with its cause.
import type { FaultInstant, PredictionItem, Predictions } from '../../analyze/types.js';
import type { Result } from '../result-types.js';

/**
 * How many node sentences "What happened" lists in summary.md and report.html (a 100-node kwok zone would bury the
 * workloads'); result.json keeps each.
 */
export const MAX_NODE_ANSWERS = 12;

/** Headers of the predictions table. */
export const PREDICTION_HEADERS = ['', 'Event', 'Subject', 'Predicted', 'Observed', 'Why (mechanism)', 'Cause'];

const sec = (v: number | null): string => (v === null ? '—' : `${v.toFixed(3)} s`);

/** `node-not-ready`, or `no-execute-taint (node.kubernetes.io/out-of-service)` when a taint key is set. */
export function eventLabel(i: PredictionItem): string {
  return i.taintKey ? `${i.event} (${i.taintKey})` : i.event;
}

/** ✓ held, ✗ missed, `?` undecided or not modelled. */
export function heldMark(i: PredictionItem): string {
  return i.held === true ? '✓' : i.held === false ? '✗ missed' : i.notModelled ? 'not modelled' : '? open';
}

/** The predicted value as text: a window `[a, b] s`, `must not happen`, or the not-modelled reason. */
export function predictedText(i: PredictionItem): string {
  if (i.notModelled) return i.notModelled;
  if (!i.expected) return 'must not happen';
  return i.window ? `[${i.window.fromSeconds.toFixed(3)}, ${i.window.toSeconds.toFixed(3)}] s` : '—';
}

/** The cause as text: `last Lease renewal of w1 (server renewTime) at -3.240 s`, or `—`. */
export function causeText(i: PredictionItem): string {
  return i.cause ? `${i.cause.event} at ${sec(i.cause.atSeconds)}` : '—';
}

/** One row of the predictions table (cells as text, in PREDICTION_HEADERS order). */
export function predictionRow(i: PredictionItem): string[] {
  return [heldMark(i), eventLabel(i), i.pod ?? i.node, predictedText(i), sec(i.observedSeconds), `${i.because}${explainedText(i)}`, causeText(i)];
}

/** For an item whose window was chosen by reading the run: what the model alone gave, and its verdict. */
export function explainedText(i: PredictionItem): string {
  const o = i.otherwise;
  if (i.chosenBy !== 'observation' || !o) return '';
  const alone = o.notModelled ?? (o.expected ? (o.window ? `[${o.window.fromSeconds.toFixed(3)}, ${o.window.toSeconds.toFixed(3)}] s` : '—') : 'must not happen');
  return ` — explained: chosen by reading the run (the model alone: ${alone}, ${o.held === true ? 'held' : o.held === false ? 'missed' : 'open'})`;
}

/** "27 of 28 predictions held (20 of 20 predicted from their causes, 7 of 8 explained by reading the run), 1 missed". */
export function predictionTotals(p: Pick<Predictions, 'heldCount' | 'predictedCount' | 'explainedCount' | 'explainedHeldCount' | 'missed'>): string {
  const [explained, explainedHeld] = [p.explainedCount ?? 0, p.explainedHeldCount ?? 0];
  return `${p.heldCount} of ${p.predictedCount} predictions held (${p.heldCount - explainedHeld} of ${p.predictedCount - explained} predicted from their causes, ${explainedHeld} of ${explained} explained by reading the run), ${p.missed.length} missed`;
}

/**
 * The mechanisms the model used and the versions each holds for: "Mechanisms of Kubernetes v1.37.2: node-health
 * (v1.37+), pod-gc (v1.28+), ...; kubelet-runtime-health on kubelet v1.35.4 (v1.27+)". Empty for results written
 * before the model named them.
 */
export function mechanismsText(p: Pick<Predictions, 'kubernetesVersion' | 'mechanisms'>): string {
  if (p.mechanisms === undefined) return '';
  const entries = Object.entries(p.mechanisms);
  const named = (key: string, versions: string) => (key.includes('@') ? `${key.split('@')[0]} on kubelet ${key.split('@')[1]} (${versions})` : `${key} (${versions})`);
  return `Mechanisms of Kubernetes ${p.kubernetesVersion ?? 'unknown (the default version\'s)'}: ${entries.length === 0 ? 'none used' : entries.map(([key, m]) => named(key, m.versions)).join(', ')}.`;
}

/** One line per fault command: `w1: power-off issued 0.000 s, returned 2.608 s (command 2.608 s); last Lease renewal -1.2 s`. */
export function faultLine(f: FaultInstant): string {
  const renew = f.lastLeaseRenewBeforeFault ? `; last Lease renewal before it ${sec(f.lastLeaseRenewBeforeFault.afterSeconds)} (${f.lastLeaseRenewBeforeFault.renewTime})` : '';
  const back = f.restoredAfterSeconds === null ? '' : `; restored ${sec(f.restoredAfterSeconds)}`;
  return `${f.node}: ${f.type ?? 'fault'} command started ${sec(f.issuedAfterSeconds)}, returned ${sec(f.effectiveAfterSeconds)} (took ${sec(f.commandSeconds)})${back}${renew}`;
}

/**
 * The workloads' state in the headline, without markup: `recovered` or `did not all recover`; for an interrupted run
 * `not known: the run was interrupted at 3.5 s` (what its journal shows stopped early, so it is no recovery).
 * @param emphasis wraps the `not` of a failure (markdown `**not**`); identity by default.
 */
export function workloadsState(r: Pick<Result, 'status' | 'summary'>, emphasis: (word: string) => string = (w) => w): string {
  if (r.status === 'interrupted') return `not known: the run was interrupted at ${r.summary.endAfterSeconds.toFixed(1)} s`;
  return r.summary.recovered ? 'recovered' : `did ${emphasis('not')} all recover`;
}

/** The sentence saying what time zero is. */
export function timeZeroSentence(timeZero: 'fault-injecting' | 'fault-injected'): string {
  return timeZero === 'fault-injecting'
    ? 'Time zero is the start of the first fault command (journal marker fault-injecting); all times are seconds since then.'
    : 'Time zero is when the first fault command returned (journal marker fault-injected: this journal predates the fault-injecting marker); all times are seconds since then.';
}


