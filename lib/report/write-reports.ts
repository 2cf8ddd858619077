// Entry points that turn an analysed run into its files, and rebuild them from a run directory alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../analyze/analyze.js';
import type { RunAnalysis } from '../analyze/types.js';
import { InfraError, InputError } from '../common/errors.js';
import { readJournal, type LogFn } from '../observe/journal.js';
import type { Observation, PhaseObservation } from '../observe/types.js';
import { Multiplexer } from './multiplexer.js';
import { DEFAULT_REPORTERS, reporterFactory } from './registry.js';
import { buildResult } from './result.js';
import type { Result, RunInfo } from './result-types.js';

/** File names inside a run directory. */
export const RUN_FILES = { journal: 'observations.jsonl', runInfo: 'run.json' } as const;

/** Options of `writeReports`. */
export interface WriteReportsOptions {
  /** Reporter names (registry.ts); default json + markdown. */
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
  const mux = new Multiplexer(names.map((name) => ({ name, reporter: reporterFactory(name)({ log }) })), log);
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
  return result;
}

/** Write run.json (run metadata) into `runDir`. @throws InfraError if it cannot be written. */
export function writeRunInfo(runDir: string, info: RunInfo): void {
  const path = join(runDir, RUN_FILES.runInfo);
  try {
    writeFileSync(path, JSON.stringify(info, null, 2) + '\n');
  } catch (err) {
    throw new InfraError(`cannot write ${path}: ${(err as Error).message}`, 'check that the run directory is writable', { cause: err });
  }
}

/** Read run.json from `runDir`. @throws InputError if it is missing or not JSON. */
export function readRunInfo(runDir: string): RunInfo {
  const path = join(runDir, RUN_FILES.runInfo);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunInfo;
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${(err as Error).message}`, 'pass a run directory written by rebootlab run', { cause: err });
  }
}

/**
 * Rebuild every report of a run from `<runDir>/observations.jsonl` and `<runDir>/run.json` alone
 * (`rebootlab report <run-dir>`); the same files give a byte-identical result.json. A journal without a
 * `run-finished` marker (the run was killed) gives status `interrupted`.
 * @throws InputError if run.json is unreadable or the journal has no fault-injected marker; InfraError if the journal is unreadable.
 */
export async function rebuildReports(runDir: string, options: Omit<WriteReportsOptions, 'observations'> = {}): Promise<Result> {
  const recorded = readRunInfo(runDir);
  let observations: Observation[] | null = readJournal(join(runDir, RUN_FILES.journal), options.log);
  // A journal without run-finished belongs to a run that was killed (kill -9, power loss): whatever it
  // shows stopped early, so it is reported as interrupted, never as passed or failed.
  const finished = observations.some((r) => r.type === 'phase' && r.phase === 'run-finished');
  const info = finished ? recorded : { ...recorded, interrupted: true };
  const analysis = analyze(observations, { settings: info.settings, workloads: info.workloads });
  const { mux, startedAtMs } = replay(analysis, info, { ...options, observations });
  // The records are a few hundred MB of objects at 10,000 pods and no reporter needs them past the replay: let
  // them go before rendering, or every collection while the reports are built walks them (half of summary.md's
  // and report.html's CPU on the bench journal).
  observations = null;
  return finishReports(runDir, analysis, info, mux, startedAtMs);
}
