// One run session, shared by `rebootlab run` on an experiment file and by scripted experiments: open it
// (faults left by a killed run restored, signal handlers and fault guard, clusters), hand each run's body a
// context (journal, observer, cluster), and always restore, finalize the journal, write the reports and map
// the outcome to an exit code. Each step of that skeleton exists here only.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getProvider, loadKubeConfig, type Cluster } from '../cluster/index.js';
import type * as k8s from '@kubernetes/client-node';
import { ExitCode, InfraError, InputError } from '../common/errors.js';
import { FaultGuard, rememberOutDir, restorePending, restoreSearchDirs, type RestoreReport } from '../faults/index.js';
import { openJournal, startObserver, type Journal, type Observation } from '../observe/index.js';
import { rebuildReports, writeRunInfo, type Result, type RunInfo } from '../report/index.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { ClusterSpec } from '../spec/types.js';
import { WORKLOAD_NAMESPACE } from '../workloads/index.js';
import { ClusterSession, type ClusterForRun } from './cluster-session.js';
import { DEFAULT_REPORTS_DIR, type RunOptions } from './options.js';
import type { Progress } from './progress.js';
import { SignalHandlers } from './signal-handlers.js';

/** What {@link withRunSession} needs to open a session. */
export interface RunSessionOptions extends Pick<RunOptions, 'reuseCluster' | 'keepCluster' | 'reconfigure'> {
  /** Parent directory of the run directories (`--out`); created and proven writable. */
  outDir: string;
  /** Provider of every cluster of the session (the first variant's, as a matrix cannot change it). */
  provider: ClusterSpec['provider'];
  /** Where phases and warnings go (the live reporters); closed when the session ends. */
  progress: Progress;
  /** Reporters replayed over each run's journal once it ended (registry names); default json, markdown, html, junit. */
  fileReporters?: readonly string[];
}

/** What one observed run hands its body. */
export interface ObservedRun {
  journal: Journal;
  cluster: Cluster;
  kc: k8s.KubeConfig;
  /** The settings in effect on the cluster (durations in milliseconds). */
  settings: TimeoutSettings;
  runDir: string;
  guard: FaultGuard;
  progress: Progress;
  /** Aborted on SIGINT, SIGTERM or SIGHUP once the guard restored every fault. */
  signal: AbortSignal;
  /**
   * Adds a restore that runs when the body ends (also when interrupted), before the guard's own final pass;
   * it resolves to the errors it met (empty when all succeeded). Restores run in the order added.
   */
  onRestore(restore: () => Promise<unknown[]>): void;
  /** Adds a stop (probers, ...) that runs after every restore and before the observer stops. */
  onStop(stop: () => Promise<void>): void;
  /** Sets what run.json says once the run ended (e.g. the fault types a script applied). */
  finalInfo(describe: () => Partial<RunInfo>): void;
}

/** Inputs of {@link RunSession.observe}. */
export interface ObservedRunInput {
  /** Directory of this run; it must exist (observations.jsonl, run.json and the reports go there). */
  runDir: string;
  cluster: Cluster;
  settings: TimeoutSettings;
  /** run.json as written at the start (interrupted: false). */
  info: RunInfo;
  /** Detail of the `run-started` mark. */
  startedDetail: Record<string, unknown>;
  /** Fed every journal record once, in seq order, from the first one on (before the observer starts). */
  onRecord?: (record: Observation) => void;
  /**
   * Whether an interrupt at this point still makes a run worth reporting (default: always). When it returns
   * false, the body's error is rethrown (e.g. interrupted before the fault: nothing to measure, exit 130).
   */
  reportsInterrupt?: () => boolean;
}

/**
 * The state shared by the runs of one command: abort controller, signal handlers, the current fault guard
 * and the clusters. Create it through {@link withRunSession}.
 */
export class RunSession {
  readonly controller = new AbortController();
  readonly progress: Progress;
  readonly #fileReporters: readonly string[] | undefined;
  readonly #outDir: string;
  readonly #stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  readonly #handlers: SignalHandlers;
  readonly #clusters: ClusterSession;
  #guard = new FaultGuard({ runDir: null });

  constructor(options: RunSessionOptions) {
    this.progress = options.progress;
    this.#fileReporters = options.fileReporters;
    this.#outDir = options.outDir;
    this.#handlers = new SignalHandlers(this.controller, options.progress);
    this.#clusters = new ClusterSession(getProvider(options.provider), options, options.progress);
  }

  /** Aborted on SIGINT, SIGTERM or SIGHUP after the guard restored every fault. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `<out>/<name>-<UTC time of the session>`, e.g. `reports/reboot-quick-20261201T041106Z`. */
  runDirFor(name: string): string {
    return join(this.#outDir, `${name}-${this.#stamp}`);
  }

  /**
   * A new fault guard for `runDir` (its pending-restore.json lives there), with the signal handlers moved
   * over from the previous run's guard.
   */
  guardRun(runDir: string): FaultGuard {
    this.#guard = new FaultGuard({ runDir });
    this.#handlers.install(this.#guard);
    return this.#guard;
  }

  /** The cluster for `spec` and its effective settings (ClusterSession.clusterFor). @throws InputError, InfraError. */
  clusterFor(spec: ClusterSpec): Promise<ClusterForRun> {
    return this.#clusters.clusterFor(spec, this.signal);
  }

  /**
   * Observes one run: opens observations.jsonl, writes run.json, marks `run-started` and `cluster-ready`,
   * starts the observer (namespaces rebootlab, kube-system and those of selected pods) and, once it synced, calls `body`. Whatever
   * happens then, every restore added and the guard's are run, the stops run, the observer stops, the journal
   * gets `interrupted` (if aborted) and `run-finished` and is closed. An error of the body after an interrupt
   * is logged, not thrown (unless `reportsInterrupt()` says otherwise). Resolves to the result rebuilt from
   * the journal, written by the session's file reporters (by default result.json, summary.md, report.html, junit.xml).
   * @throws InfraError when a restore failed (after everything else was restored); the body's error.
   */
  async observe(input: ObservedRunInput, body: (run: ObservedRun) => Promise<void>): Promise<Result> {
    const { runDir, cluster, settings, info } = input;
    const { progress, signal } = this;
    const guard = this.#guard;
    const journal = openJournal(join(runDir, 'observations.jsonl'));
    // Separate listeners: the journal drops a listener that throws, and one must not take the other with it.
    if (input.onRecord) journal.subscribe(input.onRecord);
    journal.subscribe((record) => progress.onObservation(record));
    writeRunInfo(runDir, info);
    progress.begin?.(info);
    journal.mark('run-started', { detail: input.startedDetail });
    journal.mark('cluster-ready', { detail: { cluster: cluster.name, provider: cluster.provider, settings } });
    const observer = await startObserver({
      kubeconfigPath: cluster.kubeconfigPath, journal, namespaces: [WORKLOAD_NAMESPACE, 'kube-system', ...info.workloads.flatMap((w) => (w.selector ? [w.selector.namespace] : []))],
      volumes: info.resolved?.workloads.some((w) => w.volume?.type === 'attachable') ?? false, log: (level, message) => progress.log(level, message),
    });
    const restores: (() => Promise<unknown[]>)[] = [];
    const stops: (() => Promise<void>)[] = [];
    let describe: () => Partial<RunInfo> = () => ({});
    const run: ObservedRun = {
      journal, cluster, kc: loadKubeConfig(cluster.kubeconfigPath), settings, runDir, guard, progress, signal,
      onRestore: (restore) => void restores.push(restore),
      onStop: (stop) => void stops.push(stop),
      finalInfo: (d) => void (describe = d),
    };
    try {
      await observer.synced;
      await body(run);
    } catch (error) {
      // Interrupted: waits throw once the guard restored everything; report what was seen.
      if (!signal.aborted || !(input.reportsInterrupt?.() ?? true)) throw error;
      progress.log('warn', `interrupted: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      // Restore before anything else can fail: a fault must never be left behind. The body's own restores
      // (with their fault-restored marks) first, then anything else the guard holds.
      const restoreErrors: unknown[] = [];
      for (const restore of restores) restoreErrors.push(...(await restore()));
      restoreErrors.push(...(await guard.releaseAll()));
      await Promise.all(stops.map((stop) => stop()));
      await observer.stop();
      if (signal.aborted) journal.mark('interrupted');
      journal.mark('run-finished');
      journal.close();
      if (restoreErrors.length > 0) {
        const first = restoreErrors[0];
        throw new InfraError(`restoring a node failed: ${first instanceof Error ? first.message.split('\n')[0] : String(first)}`, 'Run: rebootlab doctor --restore');
      }
    }
    writeRunInfo(runDir, { ...info, ...describe(), interrupted: signal.aborted });
    progress.phase('writing reports');
    return rebuildReports(runDir, { reporters: this.#fileReporters, log: (level, message) => progress.log(level, message) });
  }

  /** Restores what the last guard holds, removes the signal handlers, deletes the clusters it created, closes progress. */
  async close(): Promise<void> {
    await this.#guard.releaseAll();
    this.#handlers.uninstall();
    await this.#clusters.close();
    this.progress.close();
  }
}

/**
 * Opens a run session (creates `outDir` and proves it writable, restores faults a killed run left under it,
 * the default reports directory and the last `--out`), runs `body` with it and always closes it: every fault
 * restored, handlers removed, clusters this session created deleted unless --keep-cluster, `progress` closed
 * (also when opening fails).
 * @throws InputError for a bad `outDir`; InfraError when Docker cannot say who owns a left fault's container;
 *   whatever `body` throws (after closing).
 */
export async function withRunSession<T>(options: RunSessionOptions, body: (session: RunSession) => Promise<T>): Promise<T> {
  try {
    prepareOutDir(options.outDir);
    await restoreLeftFaults(options.outDir, options.progress);
  } catch (error) {
    options.progress.close();
    throw error;
  }
  const session = new RunSession(options);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
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

/**
 * The exit code of runs that ended with `statuses`: 130 when interrupted (the session aborted or a run
 * reported interrupted), 0 when every run passed and no baseline regressed, 1 otherwise.
 */
export function exitCodeFor(statuses: readonly Result['status'][], options: { interrupted?: boolean; regressed?: boolean } = {}): 0 | 1 | 130 {
  if (options.interrupted || statuses.includes('interrupted')) return ExitCode.Interrupted;
  return !options.regressed && statuses.every((s) => s === 'passed') ? ExitCode.Ok : ExitCode.ExpectationFailed;
}
