// What a command tells its live reporters besides the journal: its steps and warnings, each run's start (run.json)
// and records, and its end. The reporters that print (`list`, lib/report/reporters/list.ts) get them as they
// happen; the ones that write files run once each run ended, over its journal (lib/report/write-reports.ts).
import type { Observation } from '../observe/index.js';
import { Multiplexer, reporterFactory, type Reporter, type ReporterName, type RunInfo, type TerminalSink } from '../report/index.js';

/** Where progress lines go (stderr): one line at a time (plain) or a redrawn status line (TTY). */
export type ProgressSink = TerminalSink;

/** Receives the command's steps, each run's start and journal records, and its warnings. */
export interface Progress {
  /** A step of the command, e.g. `deploying workloads`. */
  phase(text: string): void;
  /** A run starts: its run.json (the settings in effect give the countdowns). */
  begin?(info: RunInfo): void;
  onObservation(record: Observation): void;
  log(level: 'info' | 'warn', message: string): void;
  /** Stop redrawing; leaves the cursor on a fresh line. */
  close(): void;
}

/** A Progress that prints nothing (`-o json`, no `list` reporter, tests). */
export const silentProgress: Progress = { phase() {}, onObservation() {}, log() {}, close() {} };

/** The calls of a Progress made to `reporter` (a phase marker also as onPhase, as in a replay). */
export function progressTo(reporter: Reporter): Progress {
  return {
    phase: (text) => reporter.onStatus?.(text),
    begin: (info) => reporter.onBegin?.(info),
    onObservation: (record) => {
      if (record.type === 'phase') reporter.onPhase?.(record);
      reporter.onObservation?.(record);
    },
    log: (level, message) => reporter.onLog?.(level, message),
    close: () => reporter.onExit?.(),
  };
}

/** The reporters of a command, split by when they run. */
export interface ReporterPlan {
  /** The printing reporters (`list`), live; silentProgress when there is none or no terminal. */
  progress: Progress;
  /** The others, in the order chosen: each run's journal is replayed to them once it ended. */
  fileReporters: ReporterName[];
}

/**
 * Splits `names` (already checked, lib/report selectReporters) into the live printing reporters on `sink` and the
 * file reporters. `nowMs` is the clock, Unix epoch milliseconds (tests).
 */
export function planReporters(names: readonly ReporterName[], sink: ProgressSink | undefined, nowMs?: () => number): ReporterPlan {
  const live: { name: string; reporter: Reporter }[] = [];
  const fileReporters: ReporterName[] = [];
  for (const name of names) {
    const reporter = reporterFactory(name)({ log: () => {}, terminal: sink, nowMs });
    if (reporter.printsToStdio?.()) live.push({ name, reporter });
    else fileReporters.push(name);
  }
  if (live.length === 0) return { progress: silentProgress, fileReporters };
  // A printing reporter that throws is reported on the terminal itself, not through the reporters (it may be the one).
  const mux = new Multiplexer(live, (level, message) => sink?.write(`${level === 'warn' ? 'warning: ' : ''}${message}\n`));
  return { progress: progressTo(mux), fileReporters };
}
