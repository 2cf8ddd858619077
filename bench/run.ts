// `npm run bench`: runs the benchmarks and prints one table of figures with the issue-15 targets beside them.
// Usage: node dist/bench/run.js [--only recovery,capacity,report,kwok,kwok-observer,prober,hostile] [--rate 5000] [--seconds 60]
//   recovery       the in-run recovery check: incremental tracker vs full re-analysis (bench/recovery-check.ts)
//   capacity       observer + journal fed by the loopback API server (bench/observer-capacity.ts)
//   report         `rebootlab report` on a 1000-node / 10,000-pod run scaled from a recorded one (bench/scale-journal.ts)
//   kwok           `rebootlab run bench/zone-outage-1000.yaml`: the harness process's CPU (bench/harness-cost.ts)
//   kwok-observer  the observer watching a 10,000-pod rollout on 1000 kwok nodes (bench/observer-scale.ts; not by default)
//   hostile        `rebootlab validate` of a 1 MB file, a 100,000-key file and a 10^6-variant matrix (bench/hostile-input.ts)
//   predict        `rebootlab predict` on a 3-node experiment and on bench/zone-outage-1000.yaml (bench/predict.ts)
// Figures depend on the machine and on what else runs on it: the table says nothing passes or fails, it measures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchHarnessCost, measureCli } from './harness-cost.js';
import { benchHostileInput } from './hostile-input.js';
import { benchObserverCapacity } from './observer-capacity.js';
import { benchObserverScale } from './observer-scale.js';
import { benchPredict } from './predict.js';
import { benchProberLoad } from './prober-load.js';
import { benchRecoveryCheck, printRecoveryCheck } from './recovery-check.js';
import { writeScaledRun } from './scale-journal.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'recovery,capacity,report,kwok,hostile,predict' },
    rate: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '60' },
  },
});
const only = new Set(values.only.split(','));
const log = (line: string) => process.stdout.write(`${line}\n`);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
/** [figure, measured, target] */
const rows: [string, string, string][] = [];

try {
  if (only.has('recovery')) {
    // Pure CPU, no cluster: the in-run recovery check, incremental against the full re-analysis it replaced.
    const f = benchRecoveryCheck();
    printRecoveryCheck(f, log);
    rows.push(
      [`recovery check, ${f.records} records: tracker vs full re-analysis per record`, `${Math.round(f.trackerRecordsPerSecond)} vs ${Math.round(f.reanalysisRecordsPerSecond)} records/s`, 'same decision at every record'],
      ['recovery check: same decision at every record', f.sameDecisions ? 'yes' : 'NO', 'yes'],
    );
  }
  if (only.has('hostile')) rows.push(...benchHostileInput(log));
  if (only.has('capacity')) {
    const o = { nodes: 1000, pods: 10_000, zones: 10, ratePerSecond: Number(values.rate), seconds: Number(values.seconds), expireAtSeconds: Number(values.seconds) / 2 };
    log(`observer capacity: loopback API server, ${o.nodes} nodes, ${o.pods} pods, ${o.ratePerSecond} changes/s for ${o.seconds} s, 410 Gone at ${o.expireAtSeconds} s`);
    const f = await benchObserverCapacity(o, log);
    rows.push(
      ['observer: events/s offered (sustained for the run)', `${f.eventsPerSecond.toFixed(0)} for ${o.seconds} s`, '≥ 5000 for 60 s'],
      ['observer: dropped events (not journaled, outside a reported gap)', `${f.dropped}`, '0'],
      ['observer: objects not at the server\'s last version at the end', `${f.finalStateMismatches}`, '0'],
      ['observer: events inside reported gaps (the 410 re-list)', `${f.inReportedGaps} in ${f.gaps} gaps`, ''],
      ['observer: emission → journal delay p50 / p99 / max', `${f.lagP50Ms.toFixed(0)} / ${f.lagP99Ms.toFixed(0)} / ${f.lagMaxMs.toFixed(0)} ms`, 'bounded (keeps up)'],
      ['observer: catch-up after the last change', `${f.catchUpMs} ms`, ''],
      ['observer: one watch chunk parsed + journaled (one write) p99 / max', `${f.appendP99Ms.toFixed(2)} / ${f.appendMaxMs.toFixed(1)} ms`, ''],
      ['observer: records journaled per write (Journal.group)', `${(f.recordsJournaled / Math.max(1, f.journalWrites)).toFixed(1)} (${f.recordsJournaled} in ${f.journalWrites})`, ''],
      ['observer: CPU (share of one core; CPU per event)', `${f.cpuPercent.toFixed(0)} %; ${f.cpuMicrosPerEvent.toFixed(0)} µs`, ''],
      ['observer: peak RSS with 10,000 pods watched', mib(f.maxRssBytes), '≤ 300 MiB'],
      ['observer: initial list of 12,001 objects', `${f.syncSeconds.toFixed(1)} s`, ''],
    );
  }
  if (only.has('report')) {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-bench-report-'));
    try {
      log('rebootlab report: writing a 1000-node / 10,000-pod run scaled from test/fixtures/runs/kind-outage-tuned-recorded');
      const run = writeScaledRun(dir, { copies: 500, podsPerCopy: 4 });
      const f = await measureCli(['report', dir], log);
      rows.push(
        [`report: ${run.nodes} nodes, ${run.pods} pods, ${run.records} records (wall; CPU)`, `${f.wallSeconds.toFixed(1)} s; ${f.cpuSeconds.toFixed(1)} s CPU`, '≤ 10 s'],
        ['report: peak RSS', mib(f.peakRssBytes), ''],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (only.has('kwok')) {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-bench-kwok-'));
    try {
      log('rebootlab run bench/zone-outage-1000.yaml (kwok, 1000 nodes, zone-0 loses heartbeats)');
      const f = await benchHarnessCost(fileURLToPath(new URL('../../bench/zone-outage-1000.yaml', import.meta.url)), dir, log);
      rows.push(
        ['kwok zone outage, 1000 nodes: run completed (exit code)', `${f.exitCode}`, '0 or 1 (completed)'],
        ['kwok zone outage: harness CPU, average (peak 10 s)', `${f.cpuPercent.toFixed(1)} % (${f.cpuPercentPeak10s.toFixed(0)} %) of one core over ${f.wallSeconds.toFixed(0)} s`, '≤ 20 % average'],
        ['kwok zone outage: harness peak RSS', mib(f.peakRssBytes), ''],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (only.has('kwok-observer')) {
    const f = await benchObserverScale({ nodes: 1000, pods: 10_000, zones: 10 }, log);
    rows.push(
      ['kwok rollout: events/s the cluster produced', `${f.eventsPerSecond.toFixed(0)}`, ''],
      ['kwok rollout: dropped events, gaps', `${f.droppedEvents}, ${f.gaps}`, '0, 0'],
      ['kwok rollout: peak RSS', mib(f.peakRssBytes), '≤ 300 MiB'],
    );
  }
  if (only.has('predict')) {
    // Issue 24: the forecast without a cluster, as a user runs it, and the forecast alone.
    for (const [file, target] of [['experiments/outage-tuned.yaml', '< 1 s'], ['bench/zone-outage-1000.yaml', '< 5 s']] as const) {
      const f = await benchPredict(file);
      log(`rebootlab predict ${file}: ${f.items} items; CLI ${f.cliWallMs.toFixed(0)} ms wall, ${f.cliCpuMs.toFixed(0)} ms CPU; in process: load ${f.loadMs.toFixed(0)} ms, forecast ${f.forecastMs.toFixed(1)} ms`);
      rows.push(
        [`predict ${file} (${f.items} items): CLI wall; CPU`, `${f.cliWallMs.toFixed(0)} ms; ${f.cliCpuMs.toFixed(0)} ms CPU`, target],
        [`predict ${file}: load + check the file; the forecast (in process)`, `${f.loadMs.toFixed(0)} ms; ${f.forecastMs.toFixed(1)} ms`, ''],
      );
    }
    // The worst case found by the hostile-input tryout (7 Dec 2026): 1000 simultaneous targets in one zone, each a
    // candidate for every token of its cohort (quadratic in the targets by design: every node gets every slot).
    const oneZone = ['cluster.zones=[z]', 'fault.target.selector=topology.kubernetes.io/zone=z', 'fault.count=1000', 'workloads=[]'];
    const f = await benchPredict('bench/zone-outage-1000.yaml', 1, oneZone);
    log(`rebootlab predict bench/zone-outage-1000.yaml, 1000 targets in one zone: ${f.items} items; CLI ${f.cliWallMs.toFixed(0)} ms wall; forecast ${f.forecastMs.toFixed(0)} ms`);
    rows.push([`predict bench/zone-outage-1000.yaml --set ${oneZone.join(' --set ')}: CLI wall; the forecast`, `${f.cliWallMs.toFixed(0)} ms; ${f.forecastMs.toFixed(0)} ms`, '']);
  }
  if (only.has('prober')) {
    // Issue 13: the traffic prober at 50 requests/s (bench/prober-load.ts), alone and beside the observer on kwok.
    log('traffic prober: 50 requests/s for 60 s to a loopback server; then with the observer on 10 kwok nodes (200-pod rollout and scale-down)');
    const f = await benchProberLoad({ ratePerSecond: 50, seconds: 60, nodes: 10, pods: 200 }, log);
    rows.push(
      ['prober alone: sent / recorded / lost / stalls', `${f.alone.sent} / ${f.alone.records} / ${f.alone.lostRecords} / ${f.alone.stalls}`, 'recorded = sent'],
      ['prober alone: RSS before the first request, peak (own share)', `${mib(f.alone.baselineRssBytes)}, ${mib(f.alone.peakRssBytes)} (${mib(f.alone.peakRssBytes - f.alone.baselineRssBytes)})`, 'own ≤ 50 MiB'],
      ['prober + observer: sent / recorded / stalls; watch gaps', `${f.withObserver.sent} / ${f.withObserver.records} / ${f.withObserver.stalls}; ${f.withObserver.watchGaps}`, 'no watch gap'],
    );
  }
} catch (error) {
  process.stderr.write(`ERROR: ${(error as Error).message}\n`);
  process.exitCode = 3;
}

const width = [0, 1, 2].map((i) => Math.max(['figure', 'measured', 'target'][i].length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
log('');
log(line(['figure', 'measured', 'target']));
log(line(width.map((w) => '-'.repeat(w))));
for (const r of rows) log(line(r));
