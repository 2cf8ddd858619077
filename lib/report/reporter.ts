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
  /** A step of the command outside any journal (creating the cluster, deploying workloads); live only. */
  onStatus?(text: string): void;
  /** A notice or warning of the command or of another reporter, live or during a replay. */
  onLog?(level: 'info' | 'warn', message: string): void;
  /** The analysed run; file reporters write here. */
  onEnd?(result: RunResult): Promise<void> | void;
  /** The command is done with every run: stop redrawing, leave the terminal on a fresh line. */
  onExit?(): void;
  /** True when the reporter prints to the terminal (`list`); false (the default) when it only writes files. */
  printsToStdio?(): boolean;
}

/** Where a printing reporter writes (stderr): one line at a time, or a redrawn status line on a TTY. */
export interface TerminalSink {
  isTTY: boolean;
  write(text: string): void;
}

/** Options every reporter factory receives. */
export interface ReporterOptions {
  /** Receives warnings; reporters never print unless `printsToStdio()`. */
  log: LogFn;
  /** The terminal a printing reporter writes to; without it, `list` prints nothing. */
  terminal?: TerminalSink;
  /** The clock, Unix epoch milliseconds; default Date.now (tests inject one). */
  nowMs?: () => number;
  /** The environment (`github` reads GITHUB_STEP_SUMMARY); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Builds a reporter; registered by name in registry.ts. */
export type ReporterFactory = (options: ReporterOptions) => Reporter;
