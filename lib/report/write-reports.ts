// Entry points that turn an analysed run into its files, and rebuild them from a run directory alone.
import { join } from 'node:path';
import { analyze, type AnalyzeOptions } from '../analyze/analyze.js';
import type { RunAnalysis } from '../analyze/types.js';
import { InfraError, InputError } from '../common/errors.js';
import { readInputJson } from '../common/read-input.js';
import { replaceFile } from '../common/replace-file.js';
import { readJournal, type LogFn, type SkippedJournalLine } from '../observe/journal.js';
import type { Observation, PhaseObservation } from '../observe/types.js';
import { Multiplexer } from './multiplexer.js';
import { DEFAULT_REPORTERS, reporterFactory } from './registry.js';
import { buildResult } from './result.js';
import { checkRunInfoShape } from './result-shape.js';
import type { ReporterOptions } from './reporter.js';
import type { Result, RunInfo } from './result-types.js';

/** File names inside a run directory. */
export const RUN_FILES = { journal: 'observations.jsonl', runInfo: 'run.json' } as const;

/** Options of `writeReports`. */
export interface WriteReportsOptions extends Pick<ReporterOptions, 'terminal' | 'nowMs' | 'env'> {
  /** Reporter names (registry.ts); default DEFAULT_REPORTERS (json, markdown, html, junit). */
  reporters?: readonly string[];
  /** Receives reporter warnings. */
  log?: LogFn;
  /** Journal records, replayed to the reporters' onPhase/onObservation in order; omit to skip replay. */
  observations?: readonly Observation[];
}

/**
 * Write a run's reports (result.json, summary.md, …) into `runDir` and return the Result.
 * `startedAtMs` is taken from the first replayed observation when given, else the fault instant.
 * A reporter that throws is logged through `log`, the others still write.
 * @throws InputError for an unknown reporter name.
 */
export async function writeReports(runDir: string, analysis: RunAnalysis, runInfo: RunInfo, options: WriteReportsOptions = {}): Promise<Result> {
  const { mux, startedAtMs } = replay(analysis, runInfo, options);
  return finishReports(runDir, analysis, runInfo, mux, startedAtMs);
}

/** The reporters of `options`, begun and fed every journal record; `startedAtMs` as writeReports documents it. */
function replay(analysis: RunAnalysis, runInfo: RunInfo, options: WriteReportsOptions): { mux: Multiplexer; startedAtMs: number } {
  const log = options.log ?? (() => {});
  const names = options.reporters ?? DEFAULT_REPORTERS;
  const reporterOptions = { log, terminal: options.terminal, nowMs: options.nowMs, env: options.env };
  const mux = new Multiplexer(names.map((name) => ({ name, reporter: reporterFactory(name)(reporterOptions) })), log);
  const observations = options.observations ?? [];
  let startedAtMs = analysis.faultInjectedAtMs;
  for (const o of observations) startedAtMs = Math.min(startedAtMs, o.receivedAtMs);
  mux.onBegin(runInfo);
  for (const obs of observations) {
    if (obs.type === 'phase') mux.onPhase(obs as PhaseObservation);
    mux.onObservation(obs);
  }
  return { mux, startedAtMs };
}

async function finishReports(runDir: string, analysis: RunAnalysis, runInfo: RunInfo, mux: Multiplexer, startedAtMs: number): Promise<Result> {
  const result = buildResult(analysis, runInfo, startedAtMs);
  await mux.onEnd({ runDir, result, analysis });
  mux.onExit();
  return result;
}

/** Largest run.json read, bytes: its workloads list, not the journal; 16 MiB is thousands of workloads. */
const MAX_RUN_INFO_BYTES = 16 * 1024 ** 2;

/** Write run.json (run metadata) into `runDir`, replacing any file or link there. @throws InfraError if it cannot be written. */
export function writeRunInfo(runDir: string, info: RunInfo): void {
  const path = join(runDir, RUN_FILES.runInfo);
  try {
    replaceFile(path, JSON.stringify(info, null, 2) + '\n');
  } catch (err) {
    throw new InfraError(`cannot write ${path}: ${(err as Error).message}`, 'check that the run directory is writable', { cause: err });
  }
}

/**
 * Read run.json from `runDir`, checked against schema/run-info.schema.json.
 * @throws InputError (one line naming the file and the field) if it is missing, not a regular file, not JSON or
 *   not the shape rebootlab writes.
 */
export function readRunInfo(runDir: string): RunInfo {
  const path = join(runDir, RUN_FILES.runInfo);
  const hint = 'pass a run directory written by rebootlab run';
  return checkRunInfoShape(readInputJson(path, { maxBytes: MAX_RUN_INFO_BYTES, hint }), path, hint);
}

/**
 * What analyze() needs of a run's run.json: settings, workloads, expectation texts, whether it was interrupted, and,
 * when recorded, the resolved experiment and the Kubernetes version (for a forecast the journal lacks).
 */
export function analyzeOptionsOf(info: RunInfo): AnalyzeOptions {
  return {
    settings: info.settings, workloads: info.workloads, expectations: info.expectations, interrupted: info.interrupted,
    ...(info.resolved ? { experiment: info.resolved } : {}), ...(info.cluster.kubernetesVersion ? { kubernetesVersion: info.cluster.kubernetesVersion } : {}),
  };
}

/** Options of {@link rebuildReports} besides those of writeReports. */
export interface RebuildReportsOptions {
  /**
   * Called (before the reports are written) with the journal's skipped lines other than a torn last one, when there
   * are any: the journal is damaged and the reports lack what those lines recorded (they say so in their warnings).
   */
  onDamagedJournal?: (lines: readonly SkippedJournalLine[]) => void;
  /** Called after the reports, when any reporter threw in onEnd (each was logged; its output was not written). */
  onReportersFailed?: (failures: readonly { name: string; error: Error }[]) => void;
}

/**
 * The result.json warning of a journal with lines skipped before its end, naming the first (`line:column`, relative to
 * the run directory's observations.jsonl so the same files give the same result.json wherever they are).
 */
export function journalDamageWarning(damaged: readonly SkippedJournalLine[]): string {
  const first = damaged[0]!;
  const where = `${first.line}:${first.column}`;
  return damaged.length === 1
    ? `${RUN_FILES.journal} is damaged: line ${where} was skipped (${first.problem}); what it recorded is missing from these results`
    : `${RUN_FILES.journal} is damaged: ${damaged.length} lines were skipped, the first at ${where} (${first.problem}); what they recorded is missing from these results`;
}

/**
 * Rebuild every report of a run from `<runDir>/observations.jsonl` and `<runDir>/run.json` alone
 * (`rebootlab report <run-dir>`); the same files give a byte-identical result.json. A journal without a
 * `run-finished` marker (the run was killed) gives status `interrupted`. Lines of the journal that are not records
 * are skipped with a warning each through `log`; any but a torn last line also puts a first warning in the result
 * ({@link journalDamageWarning}) and is passed to `onDamagedJournal`.
 * @throws InputError if run.json is unreadable or the journal has no fault-injected marker (naming
 *   `<runDir>/observations.jsonl`, and its first damaged line when lines were skipped: the marker may be on it); InfraError if the journal is unreadable.
 */
export async function rebuildReports(runDir: string, options: Omit<WriteReportsOptions, 'observations'> & RebuildReportsOptions = {}): Promise<Result> {
  const info = readRunInfo(runDir);
  const journalPath = join(runDir, RUN_FILES.journal);
  const skipped: SkippedJournalLine[] = [];
  let observations: Observation[] | null = readJournal(journalPath, options.log, skipped);
  // A journal without run-finished (a killed run) is status interrupted: analyze() says so.
  let analysis: RunAnalysis;
  try {
    analysis = analyze(observations, analyzeOptionsOf(info));
  } catch (error) {
    // The analysis knows records, not files: name the journal the user passed (one line, file first).
    if (error instanceof InputError && error.issues.length === 0) {
      // A marker on a skipped line is missing from the records: name that line rather than "rerun the experiment".
      const damaged = skipped.filter((line) => !line.tornLast);
      if (damaged.length > 0) {
        const first = damaged[0]!;
        throw new InputError(
          `${journalPath}: ${error.message.split(';')[0]}, and ${damaged.length === 1 ? `line ${first.line}:${first.column} was skipped` : `${damaged.length} lines were skipped, the first at ${first.line}:${first.column}`} (${first.problem})`,
          'repair the skipped line (it may have held the marker) and run rebootlab report again',
          { cause: error },
        );
      }
      throw new InputError(`${journalPath}: ${error.message}`, error.hint, { cause: error });
    }
    throw error;
  }
  // A torn last line is what a killed run leaves; a line skipped before it means records are missing from the middle:
  // the reports are still written from every readable record, and say that they lack some (result.json warnings,
  // shown by summary.md and report.html).
  const damaged = skipped.filter((line) => !line.tornLast);
  if (damaged.length > 0) {
    analysis = { ...analysis, warnings: [journalDamageWarning(damaged), ...analysis.warnings] };
    options.onDamagedJournal?.(damaged);
  }
  const { mux, startedAtMs } = replay(analysis, info, { ...options, observations });
  // The records are a few hundred MB of objects at 10,000 pods and no reporter needs them past the replay: let
  // them go before rendering, or every collection while the reports are built walks them (half of summary.md's
  // and report.html's CPU on the bench journal).
  observations = null;
  const result = await finishReports(runDir, analysis, info, mux, startedAtMs);
  if (mux.endFailures.length > 0) options.onReportersFailed?.(mux.endFailures);
  return result;
}
