// The baseline gate of `rebootlab run --baseline <result.json>`: which timing metrics got slower than a stored run allows.
import { aggregate } from '../analyze/expect.js';
import { InputError } from '../common/errors.js';
import { readInputJson } from '../common/read-input.js';
import { metricsOf, metricValue } from './compare-metrics.js';
import { checkResultShape, MAX_RESULT_BYTES } from './result-shape.js';
import type { Result } from './result-types.js';

/** How much slower than the baseline a metric may be; the larger of the two allowances applies. */
export interface BaselineTolerance {
  /** Allowed increase as a percentage of the baseline value (e.g. 10 = 10 %). */
  tolerancePercent: number;
  /** Allowed increase in seconds. */
  toleranceSeconds: number;
}

/** One metric that got slower than allowed. Every value is seconds. */
export interface Regression {
  /** Metric id (`detection`, `noExecuteTaint`, `eviction`, `replacementReady`, `unavailable:<workload>`). */
  metric: string;
  /** The metric's title, e.g. `replacement Ready`. */
  label: string;
  /** The baseline run's value, seconds. */
  baselineSeconds: number;
  /** Median of the current runs' values, seconds; null when it did not happen in any current run (never recovered). */
  currentSeconds: number | null;
  /** The largest value allowed: baseline + max(toleranceSeconds, baseline × tolerancePercent / 100), seconds. */
  allowedSeconds: number;
  /** One line for the terminal and the step summary. */
  message: string;
}

/** Metrics where "did not happen now, but did in the baseline" is a regression: the workload never came back. */
const MISSING_IS_REGRESSION = new Set(['replacementReady']);

const round = (v: number): number => Math.round(v * 1000) / 1000;

/**
 * Largest `--tolerance-seconds`, seconds: a day. No shipped run observes for more than an hour, so a larger allowance
 * could never fail the gate: it is a typo (`1e308`, an extra digit), not a tolerance.
 */
export const MAX_TOLERANCE_SECONDS = 86_400;
/** Largest `--tolerance-percent`: 1000 % lets a metric take 11 times its baseline value; more can never fail the gate either. */
export const MAX_TOLERANCE_PERCENT = 1000;

/** Largest |metric| of a baseline, seconds (a week): no run observes that long, so a larger value was edited in. */
export const MAX_BASELINE_SECONDS = 604_800;

/**
 * Check the `--tolerance-seconds` and `--tolerance-percent` flags (undefined: the flag was not given) before any work,
 * so `run` and `compare` refuse a bad one the same way, naming the flag, before a cluster or a printed table.
 * @throws InputError (exit code 2) naming the flag when a value is negative or not a finite number (yargs gives NaN
 *   for `--tolerance-seconds abc`), or above {@link MAX_TOLERANCE_SECONDS} seconds / {@link MAX_TOLERANCE_PERCENT} %.
 */
export function checkToleranceFlags(flags: { toleranceSeconds?: number; tolerancePercent?: number }): void {
  for (const [flag, value, unit, max] of [
    ['--tolerance-seconds', flags.toleranceSeconds, 'seconds', MAX_TOLERANCE_SECONDS],
    ['--tolerance-percent', flags.tolerancePercent, 'percent', MAX_TOLERANCE_PERCENT],
  ] as const) {
    const hint = `pass e.g. ${flag} ${unit === 'seconds' ? 5 : 10}`;
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
      throw new InputError(`${flag}: must be a number ≥ 0 (${unit}), got ${Number.isNaN(value) ? 'not a number' : String(value)}`, hint);
    }
    if (value !== undefined && value > max) {
      throw new InputError(`${flag}: at most ${max} (${unit}), got ${String(value)}; a larger allowance could never fail the gate`, hint);
    }
  }
}

/**
 * Compare the current run(s) against a baseline result: for every timing metric the baseline has, the median of
 * the current runs' values (seconds; the same nearest-rank median as `expect:`) may exceed the baseline value by
 * at most max(toleranceSeconds, baseline × tolerancePercent / 100). Only slower is a regression: earlier detection
 * or shorter unavailability never fails the gate. A replacement that became Ready in the baseline but in no
 * current run is a regression with currentSeconds null. Returns [] when nothing regressed.
 * @throws InputError when `current` is empty, a tolerance is negative or not a number, or a baseline metric is not
 *   finite or beyond {@link MAX_BASELINE_SECONDS} either side of time zero (exit code 2).
 */
export function checkBaseline(current: readonly Result[], baseline: Result, tolerance: BaselineTolerance): Regression[] {
  if (current.length === 0) throw new InputError('checkBaseline needs at least one current result');
  for (const [name, value] of Object.entries(tolerance)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InputError(`baseline ${name}: must be a number ≥ 0, got ${String(value)}`);
  }
  const regressions: Regression[] = [];
  // Tolerances are seconds: ratio metrics (a probe's errorRatio) are compared, not gated.
  for (const m of metricsOf([baseline]).filter((x) => x.unit !== 'ratio')) {
    const base = metricValue(baseline, m.id);
    if (base === null) continue;
    // An edited baseline (-1e308 s) made the allowance NaN, and `now > NaN` never fails: a gate that gates nothing.
    if (!Number.isFinite(base) || Math.abs(base) > MAX_BASELINE_SECONDS) {
      throw new InputError(`baseline ${m.label}: ${String(base)} s is not a time a run observes (at most ${MAX_BASELINE_SECONDS} s either side of time zero)`, 'gate against a result.json that rebootlab wrote');
    }
    const values = current.map((r) => metricValue(r, m.id)).filter((v): v is number => v !== null);
    const now = aggregate(values, { fn: 'median' });
    const allowed = round(base + Math.max(tolerance.toleranceSeconds, (Math.abs(base) * tolerance.tolerancePercent) / 100));
    if (now === null) {
      if (MISSING_IS_REGRESSION.has(m.id)) regressions.push({ metric: m.id, label: m.label, baselineSeconds: base, currentSeconds: null, allowedSeconds: allowed, message: `${m.label}: ${base.toFixed(3)} s in the baseline, did not happen now` });
      continue;
    }
    if (now > allowed) {
      regressions.push({ metric: m.id, label: m.label, baselineSeconds: base, currentSeconds: now, allowedSeconds: allowed, message: `${m.label}: ${now.toFixed(3)} s, baseline ${base.toFixed(3)} s, allowed up to ${allowed.toFixed(3)} s (+${round(now - base).toFixed(3)} s)` });
    }
  }
  return regressions;
}

/**
 * Read a baseline result.json for `--baseline <file>`, checked against schema/result.schema.json.
 * @throws InputError naming the file when it is missing, not a regular file, not JSON, or not a rebootlab Result
 *   (the first wrong field) (exit code 2).
 */
export function readBaseline(path: string): Result {
  const hint = 'pass the result.json of an earlier run';
  return checkResultShape(readInputJson(path, { label: `--baseline ${path}`, maxBytes: MAX_RESULT_BYTES, hint }), `--baseline ${path}`, hint);
}

/** What a baseline is compared with: the experiment, fault type and variants of the current runs. */
export interface BaselineSubject {
  experiment: string;
  faultType: string;
  /** Variant names of the current runs (null: a plain experiment without matrix). */
  variants: readonly (string | null)[];
}

/**
 * How `baseline` differs from the runs it would gate: its experiment, fault type or variant, one phrase each
 * (`experiment "reboot-quick", not "outage-tuned"`); [] when it is a result of the same experiment, fault and
 * variant. A baseline of another experiment gates timings that were never comparable, so the gate refuses it
 * unless asked (`--baseline-any`).
 */
export function baselineDifferences(baseline: Result, current: BaselineSubject): string[] {
  const differences: string[] = [];
  if (baseline.metadata.experiment !== current.experiment) differences.push(`experiment "${baseline.metadata.experiment}", not "${current.experiment}"`);
  if (baseline.spec.fault.type !== current.faultType) differences.push(`fault ${baseline.spec.fault.type}, not ${current.faultType}`);
  const others = [...new Set(current.variants)].filter((v) => v !== baseline.metadata.variant);
  if (others.length > 0) {
    const name = (v: string | null) => (v === null ? 'none (no matrix)' : `"${v}"`);
    differences.push(`variant ${name(baseline.metadata.variant)}, not ${others.slice(0, 3).map(name).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}`);
  }
  return differences;
}

/**
 * Refuses a baseline from another experiment, fault or variant ({@link baselineDifferences}) unless `any`.
 * @throws InputError (exit 2) naming the baseline and what differs, with the flag that accepts it.
 */
export function checkBaselineSubject(baseline: Result, baselinePath: string, current: BaselineSubject, any: boolean): void {
  const differences = baselineDifferences(baseline, current);
  if (differences.length > 0 && !any) {
    throw new InputError(`--baseline ${baselinePath} is a result of ${differences.join('; ')}; its timings do not gate these runs`, 'pass a result.json of the same experiment, fault and variant, or add --baseline-any to gate against it anyway');
  }
}
