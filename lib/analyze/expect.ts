// The verdicts of a run: its `expect:` texts parsed (lib/spec/expectation.ts) and evaluated against its analysis, and
// the run's status from them.
import { parseExpectation, subjectFieldType, type Aggregate, type Comparison, type Expectation, type ExpectedValue, type RunField } from '../spec/expectation.js';
import { measurementForScope } from './measurements/index.js';
import type { ExpectationResult, MeasuredRun, RunStatus } from './types.js';

const RUN_VALUES: Record<RunField, (a: MeasuredRun) => ExpectedValue> = {
  recovered: (a) => a.recovered,
  faultRestoredAfterSeconds: (a) => a.faultRestoredAfterSeconds,
  endAfterSeconds: (a) => a.endAfterSeconds,
};

/** True when `actual` satisfies `comparison`; a null actual satisfies only `== null` and `!= <non-null>`. */
export function compare(actual: ExpectedValue, comparison: Comparison): boolean {
  if (comparison.op === 'in') return typeof actual === 'number' && actual >= comparison.from && actual <= comparison.to;
  const expected = comparison.value;
  switch (comparison.op) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
  if (typeof actual !== 'number' || typeof expected !== 'number') return false;
  switch (comparison.op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
}

/** Aggregate numbers: nearest-rank percentile, min, max, mean, median, count; null for no values (count: 0). */
export function aggregate(values: number[], agg: Aggregate): number | null {
  if (agg.fn === 'count') return values.length;
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  switch (agg.fn) {
    case 'percentile':
      return rank(agg.percentile);
    case 'median':
      return rank(50);
    case 'min':
      return sorted[0];
    case 'max':
      return sorted[sorted.length - 1];
    case 'mean':
      return Math.round((sorted.reduce((s, v) => s + v, 0) / sorted.length) * 1000) / 1000;
  }
}

/** Labeled values the subject selects, or a message when it selects nothing; each scope is answered by its measurement. */
function subjectValues(analysis: MeasuredRun, e: Expectation): { label: string; value: ExpectedValue }[] | string {
  const s = e.subject;
  if (s.scope === 'run') return [{ label: 'run', value: RUN_VALUES[s.field](analysis) }];
  const measurement = measurementForScope(s.scope);
  if (!measurement?.expectations) return `no measurement answers ${s.scope} expectations`;
  return measurement.expectations.values(analysis, s);
}

/** The expected side as written, normalized: `in [15, 25]`, `< 60`, `== evicted-replaced`, `== null`. */
export function expectedText(c: Comparison): string {
  return c.op === 'in' ? `in [${c.from}, ${c.to}]` : `${c.op} ${c.value === null ? 'null' : String(c.value)}`;
}

/** ExpectationResult.acceptedSeconds of `e`: the accepted instants when it compares instants, else null. */
function acceptedSeconds(e: Expectation): Exclude<ExpectationResult['acceptedSeconds'], undefined> {
  if (subjectFieldType(e.subject) !== 'instant' || e.aggregate?.fn === 'count') return null;
  const c = e.comparison;
  if (c.op === 'in') return { fromSeconds: c.from, toSeconds: c.to };
  if (typeof c.value !== 'number') return { fromSeconds: null, toSeconds: null };
  if (c.op === '<' || c.op === '<=') return { fromSeconds: null, toSeconds: c.value };
  if (c.op === '>' || c.op === '>=') return { fromSeconds: c.value, toSeconds: null };
  if (c.op === '==') return { fromSeconds: c.value, toSeconds: c.value };
  return { fromSeconds: null, toSeconds: null };
}

/**
 * Evaluate each expectation on one run. A `pods[...]` subject passes only if every selected pod matches;
 * an aggregate (`p95(...)`) is computed over the selected values of this run (across repeats: issue 4).
 * A subject that selects nothing fails. Results keep the order of `expectations`.
 */
export function evaluateExpectations(analysis: MeasuredRun, expectations: readonly Expectation[]): ExpectationResult[] {
  return expectations.map((e) => ({ ...verdict(analysis, e), expected: expectedText(e.comparison), acceptedSeconds: acceptedSeconds(e) }));
}

/** Whether `e` holds on `analysis`, the value compared and the one-line message. */
function verdict(analysis: MeasuredRun, e: Expectation): Omit<ExpectationResult, 'expected' | 'acceptedSeconds'> {
  const values = subjectValues(analysis, e);
  if (typeof values === 'string') return { text: e.text, passed: false, actual: null, message: values };
  if (e.aggregate?.fn === 'count') {
    const happened = values.filter((v) => v.value !== null && v.value !== false);
    const actual = happened.length;
    const passed = compare(actual, e.comparison);
    return { text: e.text, passed, actual, message: `${actual} of ${values.length} (${happened.map((v) => v.label).join(', ') || 'none'}) ${passed ? 'is' : 'is not'} ${expectedText(e.comparison)}` };
  }
  if (e.aggregate) {
    const numbers = values.map((v) => v.value).filter((v): v is number => typeof v === 'number');
    const actual = aggregate(numbers, e.aggregate);
    const passed = compare(actual, e.comparison);
    return { text: e.text, passed, actual, message: `${actual} over ${numbers.length} value(s) ${passed ? 'is' : 'is not'} ${expectedText(e.comparison)}` };
  }
  const failing = values.filter((v) => !compare(v.value, e.comparison));
  const actual = values.length === 1 ? values[0].value : values.map((v) => v.value);
  const message =
    failing.length === 0
      ? `${values.map((v) => `${v.label}: ${String(v.value)}`).join(', ')}`
      : `${failing.map((v) => `${v.label}: ${String(v.value)}`).join(', ')} (not ${expectedText(e.comparison)})`;
  return { text: e.text, passed: failing.length === 0, actual, message };
}

/**
 * Parse and evaluate expectation texts (run.json `expectations`); a text that does not parse becomes a failed result
 * carrying the parser's one-line message (validation should have caught it before the run).
 */
export function evaluateTexts(analysis: MeasuredRun, texts: readonly string[]): ExpectationResult[] {
  return texts.map((text) => {
    const parsed = parseExpectation(text);
    if (!parsed.ok) return { text: text.trim(), passed: false, actual: null, message: parsed.message, expected: text.trim(), acceptedSeconds: null };
    return evaluateExpectations(analysis, [parsed.expectation])[0]!;
  });
}

/** `interrupted` when the run was, else `passed` when every expectation passed, else `failed`. */
export function runStatus(interrupted: boolean, expectations: readonly ExpectationResult[]): RunStatus {
  if (interrupted) return 'interrupted';
  return expectations.every((e) => e.passed) ? 'passed' : 'failed';
}
