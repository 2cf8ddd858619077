// `rebootlab run`: every variant (matrix × repeat) of an experiment, each in its own run directory,
// on clusters created (or reused) for it, with every fault restored on Ctrl-C, SIGTERM, SIGHUP or a crash.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getProvider } from '../cluster/index.js';
import { ExitCode, InputError } from '../common/errors.js';
import { FaultGuard, rememberOutDir, restorePending, restoreSearchDirs, type RestoreReport } from '../faults/index.js';
import { checkBaseline, compareRuns, readBaseline, renderComparison, type Result } from '../report/index.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Variant } from '../spec/types.js';
import { DEFAULT_REPORTS_DIR, type CommandOutcome, type RunOptions } from './options.js';
import { createProgress, silentProgress, type Progress } from './progress.js';
import { ClusterSession } from './cluster-session.js';
import { SignalHandlers } from './signal-handlers.js';
import { runVariant } from './run-variant.js';

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
 *   InfraError (exit 3) when Docker, kind or the API fails. Faults are restored before it throws.
 */
export async function runExperiment(options: RunOptions): Promise<CommandOutcome> {
  const { experiment: loaded } = options;
  const first = loaded.variants[0].experiment;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const baseDir = join(options.outDir, `${first.metadata.name}-${stamp}`);
  const runDirOf = (v: Variant) => (loaded.variants.length === 1 ? baseDir : join(baseDir, `${v.variantName}-r${v.repeatIndex}`));
  const progress: Progress = options.output === 'json' || !options.progressSink ? silentProgress : createProgress(options.progressSink);

  // Bad output paths and baselines are input errors: find them before minutes are spent on a cluster.
  prepareOutDir(options.outDir);
  const baseline = options.baseline ? readBaseline(options.baseline) : null;
  for (const [flag, value] of [['--tolerance-seconds', options.toleranceSeconds], ['--tolerance-percent', options.tolerancePercent]] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) throw new InputError(`${flag}: must be a number ≥ 0, got ${String(value)}`);
  }
  await restoreLeftFaults(options.outDir, progress);
  const controller = new AbortController();
  let guard = new FaultGuard({ runDir: null });
  const handlers = new SignalHandlers(controller, progress);
  const clusters = new ClusterSession(getProvider(first.cluster.provider), options, progress);
  const results: Result[] = [];
  try {
    for (const variant of loaded.variants) {
      if (controller.signal.aborted) break;
      const runDir = runDirOf(variant);
      guard = new FaultGuard({ runDir });
      handlers.install(guard);
      const { cluster, settings } = await clusters.clusterFor(variant.experiment.cluster, controller.signal);
      progress.phase(`run ${variant.variantName} (repeat ${variant.repeatIndex}) → ${runDir}`);
      const result = await runVariant({ variant, cluster, settings, runDir, guard, progress, signal: controller.signal, rebootlabVersion: rebootlabVersion() });
      results.push(result);
      options.print?.(summaryLine(result, runDir));
    }
  } finally {
    await guard.releaseAll();
    handlers.uninstall();
    await clusters.close();
    progress.close();
  }
  if (options.output === 'json') options.print?.(JSON.stringify(results, null, 2));
  if (loaded.variants.length > 1 && results.length > 1) {
    // A matrix or repeat run: the comparison of its variants sits in the parent directory.
    const comparison = compareRuns([baseDir]);
    writeFileSync(join(baseDir, 'compare.md'), renderComparison(comparison, 'markdown'));
    writeFileSync(join(baseDir, 'compare.html'), renderComparison(comparison, 'html'));
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
  if (controller.signal.aborted || results.some((r) => r.status === 'interrupted')) return { exitCode: ExitCode.Interrupted };
  return { exitCode: !regressed && results.every((r) => r.status === 'passed') ? ExitCode.Ok : ExitCode.ExpectationFailed };
}

/**
 * Creates the parent directory of run directories and proves it writable.
 * @throws InputError naming `--out` when it is not a writable directory (or lies in /proc or /sys, where
 *   Node 20's recursive mkdir never returns).
 */
export function prepareOutDir(outDir: string): void {
  const absolute = resolve(outDir);
  if (/^\/(proc|sys)(\/|$)/.test(absolute)) throw new InputError(`--out ${outDir}: not a place for reports (kernel filesystem)`, 'Pass a writable directory, e.g. --out reports');
  try {
    mkdirSync(absolute, { recursive: true });
    const probe = join(absolute, `.rebootlab-write-test-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw new InputError(`--out ${outDir}: not a writable directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'Pass a writable directory, e.g. --out reports', { cause: error });
  }
}

/**
 * A previous run killed with -9 may have left a node paused, stopped or disconnected: restores what the
 * pending-restore.json files under `outDir`, the default reports directory and the last `--out` list (their
 * process being dead), logs each command, then remembers `outDir` as the last `--out`.
 * @throws InfraError when Docker cannot be asked who owns a container.
 */
export async function restoreLeftFaults(outDir: string, progress: Progress): Promise<RestoreReport[]> {
  const reports = await restorePending({ reportsDirs: restoreSearchDirs([outDir], DEFAULT_REPORTS_DIR) });
  for (const report of reports) {
    for (const command of report.restored) progress.log('warn', `restored a fault left by an earlier run (${report.runDir}): ${command}`);
    for (const f of report.failed) progress.log('warn', `could not restore a fault left in ${report.runDir}: ${f.command}: ${f.error}`);
  }
  rememberOutDir(outDir);
  return reports;
}

export function summaryLine(result: Result, runDir: string): string {
  const expectations = result.expectations ?? [];
  const lines = [`${result.status.toUpperCase()} ${runDir} (${expectations.filter((e) => e.passed).length}/${expectations.length} expectations met)`];
  for (const e of expectations) lines.push(`  ${e.passed ? '✓' : '✗'} ${e.text}${e.passed ? '' : ` — ${e.message}`}`);
  return lines.join('\n');
}
