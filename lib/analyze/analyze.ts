// Entry point of the analyzer: journal records → the parts every registered measurement computes (lib/analyze/measurements).
import type { Observation } from '../observe/types.js';
import { secondsSince } from './clock.js';
import { buildContext } from './context.js';
import { evaluateTexts, runStatus } from './expect.js';
import { runInterrupted, type AnalyzeOptions, type Measured } from './measurement.js';
import { MEASUREMENTS } from './measurements/index.js';
import type { MeasuredRun, RunAnalysis } from './types.js';

export type { AnalyzeOptions } from './measurement.js';

/**
 * Analyze one run's journal. Pure: no cluster, no network, no clock; the same records give the same result.
 * Times are seconds since time zero, the first `fault-injecting` marker (the first fault command started; the first
 * `fault-injected` marker in journals without one), millisecond precision. The markers' `nodes` are the targets.
 * Each part comes from one measurement of the registry, computed in registry order; then the verdicts: every
 * `options.expectations` text evaluated (one that does not parse fails with the parser's message) and the status,
 * `interrupted` when `options.interrupted` or when the journal has no `run-finished` marker (the run was killed:
 * whatever it shows stopped early, so it is never passed or failed).
 * @throws InputError if the journal has no fault-injected marker.
 */
export function analyze(observations: readonly Observation[], options: AnalyzeOptions): RunAnalysis {
  const ctx = buildContext(observations, options.workloads);
  const warnings = [...ctx.warnings];
  const measured: Partial<Measured> = {};
  const input = { observations, ctx, options, warn: (line: string) => warnings.push(line) };
  for (const m of MEASUREMENTS) Object.assign(measured, m.measure(input, measured));
  const workloads = measured.workloads!;
  const run: MeasuredRun = {
    faultInjectedAtMs: ctx.faultMs,
    timeZero: ctx.timeZero,
    faults: measured.faults!,
    faultRestoredAfterSeconds: ctx.restoreMs === null ? null : secondsSince(ctx.faultMs, ctx.restoreMs),
    endAfterSeconds: secondsSince(ctx.faultMs, ctx.endMs),
    endAtMs: ctx.endMs,
    steps: measured.steps!,
    targets: ctx.targets,
    nodes: measured.nodes!,
    pods: measured.pods!,
    workloads,
    answers: measured.answers!,
    nodeAnswers: measured.nodeAnswers!,
    predictions: measured.predictions!,
    gaps: ctx.gaps,
    recovered: workloads.every((w) => w.recovered),
    events: measured.events!,
    warnings,
    ...(measured.marks ? { marks: measured.marks } : {}),
    ...(measured.probes ? { probes: measured.probes } : {}),
    ...(measured.forecast ? { forecast: measured.forecast } : {}),
    ...(measured.jobs ? { jobs: measured.jobs } : {}),
    ...(measured.evictions ? { evictions: measured.evictions } : {}),
    ...(measured.volumes ? { volumes: measured.volumes } : {}),
  };
  const expectations = evaluateTexts(run, options.expectations ?? []);
  return { ...run, expectations, status: runStatus(runInterrupted(observations, options), expectations) };
}
