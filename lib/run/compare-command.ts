// `rebootlab compare`: a side-by-side table of run directories (or a matrix run's parent directory).
import { checkBaseline, checkBaselineSubject, checkToleranceFlags, compareRuns, readBaseline, renderComparison } from '../report/index.js';
import { expandRunDirs, loadRun } from '../report/compare-load.js';
import { ExitCode } from '../common/errors.js';
import type { CommandOutcome, CompareOptions } from './options.js';

/**
 * Prints, per configuration, detection, NoExecute taint, eviction, replacement Ready and workload unavailable
 * seconds with median, p95, min and max across repeats and the delta against the baseline variant.
 * With `options.baseline`, every run is also gated against that result.json (exit 1 on a regression).
 * @throws InputError (exit 2) naming a directory that holds no run, an unreadable baseline, or a baseline of another
 *   experiment, fault or variant without `baselineAny`, or a `--tolerance-*` flag below 0 or not a number, before
 *   anything is printed.
 */
export async function compareCommand(options: CompareOptions): Promise<CommandOutcome> {
  // A bad baseline or tolerance is bad input: refuse it before printing a table the gate would then contradict.
  checkToleranceFlags(options);
  const baseline = options.baseline === undefined ? null : readBaseline(options.baseline);
  const comparison = compareRuns(options.runDirs, { baseline: options.baselineVariant });
  if (baseline === null || options.baseline === undefined) {
    options.print?.(renderComparison(comparison, options.output === 'json' ? 'json' : options.format));
    return { exitCode: ExitCode.Ok };
  }
  // Runs merged from several runners (run --shard) are gated together, as one run's variants are.
  const results = expandRunDirs(options.runDirs).map((dir) => loadRun(dir).result);
  for (const experiment of new Set(results.map((r) => r.metadata.experiment))) {
    const same = results.filter((r) => r.metadata.experiment === experiment);
    checkBaselineSubject(baseline, options.baseline, { experiment, faultType: same[0]!.spec.fault.type, variants: same.map((r) => r.metadata.variant) }, options.baselineAny === true);
  }
  options.print?.(renderComparison(comparison, options.output === 'json' ? 'json' : options.format));
  const regressions = checkBaseline(results, baseline, { toleranceSeconds: options.toleranceSeconds ?? 5, tolerancePercent: options.tolerancePercent ?? 10 });
  for (const r of regressions) options.print?.(`REGRESSION ${r.message}`);
  return { exitCode: regressions.length > 0 ? ExitCode.ExpectationFailed : ExitCode.Ok };
}
