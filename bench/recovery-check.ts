// The in-run "until recovered" check: the incremental RecoveryTracker (each record once) against the full
// re-analysis it replaced (analyze() over the whole journal at every check), on the largest recorded journal.
// Usage: node dist/bench/recovery-check.js [run directory]   (default: test/fixtures/runs/kind-service-probes-recorded)
import { fileURLToPath } from 'node:url';
import { analyze, RecoveryTracker, recoveryOfAnalysis } from '../lib/analyze/index.js';
import { readJournal, type Observation } from '../lib/observe/index.js';
import { readRunInfo } from '../lib/report/index.js';

/** Figures of {@link benchRecoveryCheck}; rates in journal records per second, times in milliseconds. */
export interface RecoveryCheckFigures {
  runDir: string;
  records: number;
  /** Records replayed per second with the decision asked after every record: tracker. */
  trackerRecordsPerSecond: number;
  /** The same through the full re-analysis. */
  reanalysisRecordsPerSecond: number;
  /** Wall time of the whole replay, milliseconds: tracker, re-analysis. */
  trackerReplayMs: number;
  reanalysisReplayMs: number;
  /** One check at the end of the journal (the in-run cost every 2 s), milliseconds: tracker state(), analyze(). */
  trackerCheckAtEndMs: number;
  reanalysisCheckAtEndMs: number;
  /** Whether both replays reached the same decision after every record. */
  sameDecisions: boolean;
}

export const DEFAULT_RECOVERY_BENCH_RUN = fileURLToPath(new URL('../../test/fixtures/runs/kind-service-probes-recorded', import.meta.url));

/**
 * Replays the journal of `runDir` (observations.jsonl + run.json) twice, asking "recovered?" after every record
 * from the first fault-injected marker on: once through a RecoveryTracker, once through analyze() of the records
 * so far (what run-variant did every 2 s). Pure CPU, no cluster.
 * @throws InputError when the directory holds no journal or run.json.
 */
export function benchRecoveryCheck(runDir: string = DEFAULT_RECOVERY_BENCH_RUN): RecoveryCheckFigures {
  const records: Observation[] = readJournal(`${runDir}/observations.jsonl`, () => {}).sort((a, b) => a.seq - b.seq);
  const info = readRunInfo(runDir);
  const options = { settings: info.settings, workloads: info.workloads };
  const firstInjected = records.findIndex((r) => r.type === 'phase' && r.phase === 'fault-injected');

  // The tracker replay is short: the median of 9 replays (the first ones include JIT warm-up).
  let trackerDecisions: string[] = [];
  let tracker = new RecoveryTracker(info.workloads);
  const replays: number[] = [];
  for (let replay = 0; replay < 9; replay++) {
    trackerDecisions = [];
    const replayStarted = performance.now();
    tracker = new RecoveryTracker(info.workloads);
    for (const record of records) {
      tracker.add(record);
      const state = tracker.state();
      if (state) trackerDecisions.push(`${state.nodesBack}${state.effectsSeen}${state.workloadsSettled}`);
    }
    replays.push(performance.now() - replayStarted);
  }
  const trackerReplayMs = replays.sort((a, b) => a - b)[4];
  let started: number;

  const reanalysisDecisions: string[] = [];
  started = performance.now();
  for (let i = Math.max(0, firstInjected); i < records.length; i++) {
    const state = recoveryOfAnalysis(analyze(records.slice(0, i + 1), options));
    reanalysisDecisions.push(`${state.nodesBack}${state.effectsSeen}${state.workloadsSettled}`);
  }
  const reanalysisReplayMs = performance.now() - started;

  started = performance.now();
  for (let i = 0; i < 100_000; i++) tracker.state();
  const trackerCheckAtEndMs = (performance.now() - started) / 100_000;
  started = performance.now();
  for (let i = 0; i < 10; i++) recoveryOfAnalysis(analyze(records, options));
  const reanalysisCheckAtEndMs = (performance.now() - started) / 10;

  return {
    runDir,
    records: records.length,
    trackerRecordsPerSecond: records.length / (trackerReplayMs / 1000),
    reanalysisRecordsPerSecond: records.length / (reanalysisReplayMs / 1000),
    trackerReplayMs,
    reanalysisReplayMs,
    trackerCheckAtEndMs,
    reanalysisCheckAtEndMs,
    sameDecisions: JSON.stringify(trackerDecisions) === JSON.stringify(reanalysisDecisions),
  };
}

/** Prints the figures, one line each. */
export function printRecoveryCheck(f: RecoveryCheckFigures, log: (line: string) => void): void {
  const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} records/s`;
  log(`recovery check on ${f.runDir} (${f.records} records; "recovered?" asked after every record)`);
  log(`  incremental tracker       ${rate(f.trackerRecordsPerSecond)} (replay ${f.trackerReplayMs.toFixed(1)} ms, median of 9); one check at the end ${(f.trackerCheckAtEndMs * 1000).toFixed(2)} µs`);
  log(`  full re-analysis (before) ${rate(f.reanalysisRecordsPerSecond)} (replay ${(f.reanalysisReplayMs / 1000).toFixed(1)} s); one check at the end ${f.reanalysisCheckAtEndMs.toFixed(1)} ms`);
  log(`  same decision at every record: ${f.sameDecisions ? 'yes' : 'NO'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = benchRecoveryCheck(process.argv[2] ?? DEFAULT_RECOVERY_BENCH_RUN);
  printRecoveryCheck(figures, (line) => process.stdout.write(`${line}\n`));
  if (!figures.sameDecisions) process.exitCode = 1;
}
