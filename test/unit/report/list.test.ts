// Reporter `list`: the progress lines a person watching a run sees, from a journal recorded on a real kind cluster
// (outage-tuned; docker stop took 2.6 s), live and replayed, with times since the fault command's start.
import { expect } from 'chai';
import { join } from 'node:path';
import { readJournal, type Observation } from '../../../lib/observe/index.js';
import { readRunInfo } from '../../../lib/report/index.js';
import { createListReporter } from '../../../lib/report/reporters/list.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const RUN_DIR = join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded');

/**
 * Plain lines (stamps kept) written by a list reporter fed `records`. Its clock reads `startMs` when it starts and,
 * live, each record's receipt as it is fed (a replay's clock stays where it started).
 */
function listLines(records: readonly Observation[], options: { startMs: number; live: boolean; status?: string }): string[] {
  const written: string[] = [];
  let now = options.startMs;
  const reporter = createListReporter({ log: () => {}, terminal: { isTTY: false, write: (text) => written.push(text) }, nowMs: () => now });
  reporter.onBegin?.(readRunInfo(RUN_DIR));
  if (options.status) reporter.onStatus?.(options.status);
  for (const record of records) {
    if (options.live) now = record.receivedAtMs;
    reporter.onObservation?.(record);
  }
  reporter.onExit?.();
  return written.join('').trimEnd().split('\n');
}

const unstamped = (lines: readonly string[]) => lines.map((l) => l.replace(/^\[\s*\d+ s\] /, ''));

describe('report/list (plain lines, not a TTY)', () => {
  const records = readJournal(join(RUN_DIR, 'observations.jsonl'));

  it('reports the fault, NotReady, evictions, deletions and the node Ready again, from a recorded outage', () => {
    const lines = unstamped(listLines(records, { startMs: records[0]!.receivedAtMs, live: true }));
    expect(lines[0]).to.equal('fault-injecting rebootlab-worker');
    expect(lines).to.include('+22.2 s node rebootlab-worker Ready=Unknown');
    expect(lines.filter((l) => l.includes('evicted (deletionTimestamp set)'))).to.have.length(3); // web ×2, solo
    expect(lines.some((l) => /node rebootlab-worker Ready again$/.test(l))).to.equal(true);
    expect(lines.indexOf('+22.2 s node rebootlab-worker Ready=Unknown')).to.be.below(lines.findIndex((l) => l.includes('evicted')));
  });

  it('replayed later (rebootlab report --reporter list) prints the record lines of the live run, stamps included', () => {
    // Live: the reporter starts with the run (its clock at each record's receipt); replayed: a day later.
    const live = listLines(records, { startMs: records[0]!.receivedAtMs, live: true });
    const replayed = listLines(records, { startMs: records[0]!.receivedAtMs + 86_400_000, live: false });
    expect(live.length).to.be.greaterThan(5);
    expect(replayed).to.deep.equal(live);
    expect(replayed.find((l) => l.endsWith('node rebootlab-worker Ready=Unknown'))).to.match(/^\[\s+\d+ s\] \+22\.2 s /);
  });

  it('a status line (a step outside the journal) is stamped by the clock', () => {
    // The command started 95 s before the journal's first record (e.g. creating the cluster).
    const lines = listLines(records, { startMs: records[0]!.receivedAtMs - 95_000, live: true, status: 'deploying workloads' });
    const faultAtS = (records.find((r) => r.type === 'phase' && r.phase === 'fault-injecting')!.receivedAtMs - records[0]!.receivedAtMs) / 1000;
    expect(lines[0]).to.equal('[   0 s] deploying workloads');
    expect(lines[1]).to.equal(`[${(95 + faultAtS).toFixed(0).padStart(4)} s] fault-injecting rebootlab-worker`);
  });

  it('a second variant of a matrix counts its times from its own fault, not the first one', () => {
    // The same recorded run twice, the second shifted by 10 minutes and begun again: as a 2-variant matrix is shown.
    const shift = 600_000;
    const second = records.map((r) => ({ ...r, receivedAtMs: r.receivedAtMs + shift }));
    const written: string[] = [];
    const reporter = createListReporter({ log: () => {}, terminal: { isTTY: false, write: (text) => written.push(text) }, nowMs: () => records[0]!.receivedAtMs });
    for (const run of [records, second]) {
      reporter.onBegin?.(readRunInfo(RUN_DIR));
      for (const record of run) reporter.onObservation?.(record);
    }
    const lines = unstamped(written.join('').trim().split('\n'));
    expect(lines.filter((l) => l === '+22.2 s node rebootlab-worker Ready=Unknown')).to.have.length(2);
  });

  it('without a terminal it prints nothing and says so', () => {
    const reporter = createListReporter({ log: () => {} });
    expect(reporter.printsToStdio?.()).to.equal(false);
    expect(reporter.onObservation).to.equal(undefined);
  });
});

describe('report/list countdown (TTY)', () => {
  it('counts down to the detection window and then the eviction window that lib/analyze/windows.ts gives (outage-tuned settings)', () => {
    const records = readJournal(join(RUN_DIR, 'observations.jsonl'));
    const injecting = records.find((r) => r.type === 'phase' && r.phase === 'fault-injecting')!;
    let now = injecting.receivedAtMs;
    const written: string[] = [];
    const reporter = createListReporter({ log: () => {}, terminal: { isTTY: true, write: (text) => written.push(text) }, nowMs: () => now });
    reporter.onBegin?.(readRunInfo(RUN_DIR)); // its settings: grace 20 s, lease 20 s, tolerations 30 s
    reporter.onStatus?.('injecting power-off');
    reporter.onObservation?.(injecting);
    // Grace 20 s, lease 20 s (heartbeat every 5 s), monitor 5 s: Unknown in [20 − 5 − 1, 20 + 10 + 1] = [14, 31] s.
    now += 4_000;
    reporter.onStatus?.('observing');
    expect(written.at(-1)).to.match(/node should go NotReady in 10–27 s$/);
    now += 16_000;
    reporter.onStatus?.('still observing');
    expect(written.at(-1)).to.match(/node should go NotReady any moment now \(window ends in 11 s\)$/);
    // Once NotReady is seen: the taint from [15, 31] s, evictions 30 s (default toleration) later: [45, 63] s.
    const notReady = records.find((r) => r.type === 'object' && r.kind === 'Node' && r.name === 'rebootlab-worker' && JSON.stringify(r.object).includes('"NodeStatusUnknown"'))!;
    now = notReady.receivedAtMs;
    reporter.onObservation?.(notReady);
    expect(written.at(-1)).to.match(/default-toleration pods evicted in \d+–\d+ s$/);
    now = injecting.receivedAtMs + 30_000;
    reporter.onStatus?.('waiting');
    expect(written.at(-1)).to.match(/default-toleration pods evicted in 15–33 s$/);
    reporter.onExit?.();
  });
});
