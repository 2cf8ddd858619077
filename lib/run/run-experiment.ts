// `rebootlab run`: every variant (matrix × repeat) of an experiment, each in its own run directory,
// on clusters created (or reused) for it, with every fault restored on Ctrl-C, SIGTERM or a crash.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getProvider, type Cluster, type ClusterProvider } from '../cluster/index.js';
import { ExitCode, InputError } from '../common/errors.js';
import { FaultGuard, restorePending } from '../faults/index.js';
import { checkBaseline, compareRuns, readBaseline, renderComparison, type Result } from '../report/index.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { TimeoutSettings } from '../spec/settings.js';
import type { ClusterSpec, Variant } from '../spec/types.js';
import type { CommandOutcome, RunOptions } from './options.js';
import { createProgress, silentProgress, type Progress } from './progress.js';
import { prepareCluster } from './prepare-cluster.js';
import { reconfigurableInPlace, reconfigureInPlace } from './reconfigure-cluster.js';
import { runVariant } from './run-variant.js';

/** How long after the faults were restored on a signal the run may take to write its reports, milliseconds. */
const EXIT_AFTER_SIGNAL_MS = 30_000;

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
  // A previous run killed with -9 may have left a node paused or stopped: restore it first.
  for (const report of await restorePending({ reportsDir: options.outDir })) {
    progress.log('warn', `restored a fault left by an earlier run: ${JSON.stringify(report)}`);
  }
  const controller = new AbortController();
  let guard = new FaultGuard({ runDir: null });
  let forcedExit: NodeJS.Timeout | undefined;
  const removeHandlers = () => uninstall();
  let uninstall = () => {};
  const installGuard = (g: FaultGuard) => {
    uninstall();
    uninstall = g.installHandlers((exitCode, trigger, errors) => {
      controller.abort();
      for (const e of errors) progress.log('warn', `restore failed: ${e instanceof Error ? e.message : String(e)}`);
      if (exitCode !== ExitCode.Interrupted) process.exit(exitCode); // a crash: faults restored, journal flushed per line
      progress.log('warn', `${trigger}: faults restored; finishing the report (Ctrl-C twice more to quit now)`);
      forcedExit = setTimeout(() => process.exit(ExitCode.Interrupted), EXIT_AFTER_SIGNAL_MS);
      forcedExit.unref();
    });
  };

  const clusters = new ClusterSession(getProvider(first.cluster.provider), options, progress);
  const results: Result[] = [];
  try {
    for (const variant of loaded.variants) {
      if (controller.signal.aborted) break;
      const runDir = runDirOf(variant);
      guard = new FaultGuard({ runDir });
      installGuard(guard);
      const { cluster, settings } = await clusters.clusterFor(variant.experiment.cluster, controller.signal);
      progress.phase(`run ${variant.variantName} (repeat ${variant.repeatIndex}) → ${runDir}`);
      const result = await runVariant({ variant, cluster, settings, runDir, guard, progress, signal: controller.signal, rebootlabVersion: rebootlabVersion() });
      results.push(result);
      options.print?.(summaryLine(result, runDir));
    }
  } finally {
    await guard.releaseAll();
    removeHandlers();
    await clusters.close();
    progress.close();
    if (forcedExit) clearTimeout(forcedExit);
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
function prepareOutDir(outDir: string): void {
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

function summaryLine(result: Result, runDir: string): string {
  const expectations = result.expectations ?? [];
  const lines = [`${result.status.toUpperCase()} ${runDir} (${expectations.filter((e) => e.passed).length}/${expectations.length} expectations met)`];
  for (const e of expectations) lines.push(`  ${e.passed ? '✓' : '✗'} ${e.text}${e.passed ? '' : ` — ${e.message}`}`);
  return lines.join('\n');
}

/**
 * The clusters of one `rebootlab run`: a variant whose cluster spec equals the previous one's reuses its
 * cluster. One that differs only in timeout flags reconfigures it in place (`--reconfigure in-place`, the
 * default: static pod manifests and kubelet configs rewritten, ≈ 40–70 s here against ≈ 100 s for a new
 * cluster); otherwise the previous cluster (if this run created it) is deleted and a new one made.
 * An attached cluster (--reuse-cluster) whose flags differ from the spec is reconfigured the same way.
 */
class ClusterSession {
  #current: { spec: ClusterSpec; cluster: Cluster; created: boolean; settings: TimeoutSettings } | null = null;

  constructor(
    readonly provider: ClusterProvider,
    readonly options: Pick<RunOptions, 'reuseCluster' | 'keepCluster' | 'reconfigure'>,
    readonly progress: Progress,
  ) {}

  /** The cluster for `spec` with its effective settings (milliseconds); creates, reconfigures or attaches as needed. @throws InputError, InfraError. */
  async clusterFor(spec: ClusterSpec, signal: AbortSignal): Promise<{ cluster: Cluster; settings: TimeoutSettings }> {
    const current = this.#current;
    if (current && JSON.stringify(current.spec) === JSON.stringify(spec)) {
      await prepareCluster(current.cluster, spec, this.progress, signal); // clean namespace, nodes Ready
      return current;
    }
    if (current && this.options.reconfigure !== 'recreate' && current.cluster.reconfigure && reconfigurableInPlace(current.spec, spec)) {
      await this.#reconfigure(current.cluster, spec, current.spec, signal);
      this.#current = { ...current, spec };
      return this.#prepare(spec, signal);
    }
    await this.#release();
    await this.provider.ensureAvailable();
    const exists = (await this.provider.list()).includes(spec.name);
    if (exists && !this.options.reuseCluster) {
      throw new InputError(`cluster ${spec.name} already exists`, `Use --reuse-cluster, or delete it: rebootlab cluster delete --name ${spec.name}`);
    }
    const startedAt = Date.now();
    const cluster = exists
      ? await this.provider.attach(spec.name)
      : await this.provider.create(spec, { step: (message) => this.progress.phase(message) });
    this.#current = { spec, cluster, created: !exists, settings: spec.settings };
    // A reused cluster may have been made with other flags: put this spec's into effect (set only: what
    // extra flags it had before is unknown).
    if (exists && cluster.reconfigure) await this.#reconfigure(cluster, spec, null, signal);
    const prepared = await this.#prepare(spec, signal);
    if (!exists) this.progress.phase(`cluster ${spec.name} created and Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return prepared;
  }

  async #reconfigure(cluster: Cluster, spec: ClusterSpec, previous: ClusterSpec | null, signal: AbortSignal): Promise<void> {
    const done = await reconfigureInPlace(cluster, spec, previous, this.progress, signal);
    if (done && done.restarted.length > 0) {
      this.progress.phase(`reconfigured ${cluster.name} in place in ${(done.durationMs / 1000).toFixed(1)} s (${done.restarted.join(', ')} restarted)`);
    }
  }

  async #prepare(spec: ClusterSpec, signal: AbortSignal): Promise<{ cluster: Cluster; settings: TimeoutSettings }> {
    const current = this.#current!;
    const prepared = await prepareCluster(current.cluster, spec, this.progress, signal);
    current.settings = prepared.settings;
    return current;
  }

  async close(): Promise<void> {
    await this.#release();
  }

  async #release(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (!current || !current.created || this.options.keepCluster) return;
    this.progress.phase(`deleting cluster ${current.cluster.name} (keep it with --keep-cluster)`);
    await this.provider.delete(current.cluster.name);
  }
}
