// `rebootlab compare`: a side-by-side table of run directories (or a matrix run's parent directory).
import { compareRuns, renderComparison } from '../report/index.js';
import { ExitCode } from '../common/errors.js';
import type { CommandOutcome, CompareOptions } from './options.js';

/**
 * Prints, per configuration, detection, NoExecute taint, eviction, replacement Ready and workload unavailable
 * seconds with median, p95, min and max across repeats and the delta against the baseline variant.
 * @throws InputError (exit 2) naming a directory that holds no run.
 */
export async function compareCommand(options: CompareOptions): Promise<CommandOutcome> {
  const comparison = compareRuns(options.runDirs, { baseline: options.baselineVariant });
  options.print?.(renderComparison(comparison, options.output === 'json' ? 'json' : options.format));
  return { exitCode: ExitCode.Ok };
}
