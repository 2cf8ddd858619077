// `rebootlab run`: every variant (matrix × repeat) of an experiment, each in its own run directory,
// on clusters created (or reused) for it, with every fault restored on Ctrl-C, SIGTERM, SIGHUP or a crash.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../common/errors.js';
import { replaceFile } from '../common/replace-file.js';
import { checkBaseline, checkBaselineSubject, checkToleranceFlags, compareRuns, readBaseline, renderComparison, selectReporters, type Result } from '../report/index.js';
import type { Variant } from '../spec/types.js';
import type { CommandOutcome, RunOptions } from './options.js';
import { planReporters } from './progress.js';
import { runVariant } from './run-variant.js';
import { checkKubernetesVersionsBuilt } from './toolchain-check.js';
import { exitCodeFor, prepareOutDir, withRunSession } from './session.js';

/** rebootlab's version from package.json. */
export function rebootlabVersion(): string {
  const file = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'package.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Runs every variant of `options.experiment` and writes one run directory each under `options.outDir`
 * (`<name>-<UTC time>/`, or `<name>-<UTC time>/<variant>-r<repeat>/` for several variants).
 * Resolves to exit code 0 (every expectation met), 1 (one failed) or 130 (interrupted; faults restored).
 * @throws InputError (exit 2) for a bad target or an existing cluster without --reuse-cluster;
 *   InfraError (exit 3) when a Kubernetes version the variants name is not built here (before any cluster is made,
 *   hint `Run: npm run toolchain -- --kubernetes <version>`), or when Docker, kind or the API fails. Faults are restored before it throws.
 */
export async function runExperiment(options: RunOptions): Promise<CommandOutcome> {
  const { experiment: loaded } = options;
  const first = loaded.variants[0].experiment;
  const reporters = selectReporters(options.reporters, { progress: options.output !== 'json' && options.progressSink !== undefined });
  const { progress, fileReporters } = planReporters(reporters, options.progressSink);

  // Bad output paths and baselines are input errors: find them before minutes are spent on a cluster.
  prepareOutDir(options.outDir);
  const baseline = options.baseline ? readBaseline(options.baseline) : null;
  if (baseline && options.baseline) {
    checkBaselineSubject(baseline, options.baseline, {
      experiment: first.metadata.name,
      faultType: first.fault.type,
      variants: loaded.variants.map((v) => (Object.keys(v.matrixValues).length > 0 ? v.variantName : null)),
    }, options.baselineAny === true);
  }
  checkToleranceFlags(options);
  // A version that is not built fails here, in one line with the command, not minutes into a matrix.
  if (!options.reuseCluster) await checkKubernetesVersionsBuilt(loaded.variants);
  const sessionOptions = { ...options, provider: first.cluster.provider, progress, fileReporters };
  const { results, baseDir, signal } = await withRunSession(sessionOptions, async (session) => {
    const baseDir = session.runDirFor(first.metadata.name);
    const runDirOf = (v: Variant) => (loaded.variants.length === 1 ? baseDir : join(baseDir, `${v.variantName}-r${v.repeatIndex}`));
    const results: Result[] = [];
    for (const variant of loaded.variants) {
      if (session.signal.aborted) break;
      const runDir = runDirOf(variant);
      session.guardRun(runDir);
      const { cluster, settings, nodeDeletions } = await session.clusterFor(variant.experiment.cluster);
      progress.phase(`run ${variant.variantName} (repeat ${variant.repeatIndex}) → ${runDir}`);
      const result = await runVariant({ variant, cluster, settings, nodeDeletions, runDir, session, rebootlabVersion: rebootlabVersion() });
      results.push(result);
      options.print?.(summaryLine(result, runDir));
    }
    return { results, baseDir, signal: session.signal };
  });
  if (options.output === 'json') options.print?.(JSON.stringify(results, null, 2));
  if (loaded.variants.length > 1 && results.length > 1) {
    // A matrix or repeat run: the comparison of its variants sits in the parent directory.
    const comparison = compareRuns([baseDir]);
    replaceFile(join(baseDir, 'compare.md'), renderComparison(comparison, 'markdown'));
    replaceFile(join(baseDir, 'compare.html'), renderComparison(comparison, 'html'));
    options.print?.(renderComparison(comparison, 'text'));
  }
  let regressed = false;
  if (baseline && results.length > 0) {
    const regressions = checkBaseline(results, baseline, {
      toleranceSeconds: options.toleranceSeconds ?? 5,
      tolerancePercent: options.tolerancePercent ?? 10,
    });
    for (const r of regressions) options.print?.(`REGRESSION ${r.message}`);
    regressed = regressions.length > 0;
  }
  return { exitCode: exitCodeFor(results.map((r) => r.status), { interrupted: signal.aborted, regressed }) };
}


export function summaryLine(result: Result, runDir: string): string {
  const expectations = result.expectations ?? [];
  const lines = [`${result.status.toUpperCase()} ${runDir} (${expectations.filter((e) => e.passed).length}/${expectations.length} expectations met)`];
  for (const e of expectations) lines.push(`  ${e.passed ? '✓' : '✗'} ${e.text}${e.passed ? '' : ` — ${e.message}`}`);
  return lines.join('\n');
}
