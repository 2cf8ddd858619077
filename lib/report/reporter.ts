// The Reporter interface (after Playwright's): receives one run's events, live or replayed, and writes outputs.
import type { RunAnalysis } from '../analyze/types.js';
import type { LogFn } from '../observe/journal.js';
import type { Observation, PhaseObservation } from '../observe/types.js';
import type { Result, RunInfo } from './result-types.js';

/** What `onEnd` receives: the finished run. */
export interface RunResult {
  /** Run directory every file reporter writes into. */
  runDir: string;
  result: Result;
  analysis: RunAnalysis;
}

/**
 * Receives one run's events in journal order, live during a run or replayed from observations.jsonl.
 * Every method is optional; a reporter must produce the same output either way.
 */
export interface Reporter {
  /** Run metadata, before any observation. */
  onBegin?(run: RunInfo): void;
  /** A phase marker: cluster-ready, workloads-ready, fault-injected, fault-restored, settled, … */
  onPhase?(event: PhaseObservation): void;
  /** Any journal record (phase markers included); `receivedAtMs` is the client clock, Unix epoch milliseconds. */
  onObservation?(obs: Observation): void;
  /** The analysed run; file reporters write here. */
  onEnd?(result: RunResult): Promise<void> | void;
  /** False (the default) when the reporter only writes files; the CLI then adds a terminal reporter. */
  printsToStdio?(): boolean;
}

/** Options every reporter factory receives. */
export interface ReporterOptions {
  /** Receives warnings; reporters never print unless `printsToStdio()`. */
  log: LogFn;
}

/** Builds a reporter; registered by name in registry.ts. */
export type ReporterFactory = (options: ReporterOptions) => Reporter;
