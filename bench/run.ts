// `npm run bench`: runs the benchmarks and prints their figures. Usage: node dist/bench/run.js [--nodes N] [--pods N] [--zones N]
import { parseArgs } from 'node:util';
import { benchObserverScale } from './observer-scale.js';
import { benchRecoveryCheck, printRecoveryCheck } from './recovery-check.js';

const { values } = parseArgs({
  options: { nodes: { type: 'string', default: '1000' }, pods: { type: 'string', default: '10000' }, zones: { type: 'string', default: '10' } },
});
const options = { nodes: Number(values.nodes), pods: Number(values.pods), zones: Number(values.zones) };
const log = (line: string) => process.stdout.write(`${line}\n`);

// Pure CPU, no cluster: the in-run recovery check, incremental against the full re-analysis it replaced.
printRecoveryCheck(benchRecoveryCheck(), log);
log(`observer at scale: ${options.nodes} kwok nodes, ${options.pods} pods, ${options.zones} zones`);
try {
  const f = await benchObserverScale(options, log);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  log(`  kwok cluster start        ${f.clusterStartSeconds.toFixed(1)} s (${f.nodes} nodes Ready)`);
  log(`  observer initial sync     ${f.observerSyncSeconds.toFixed(2)} s`);
  log(`  rollout seen by observer  ${f.rolloutSeconds.toFixed(1)} s (${f.pods} pods Ready)`);
  log(`  events processed          ${f.journalRecords} (${f.eventsPerSecond.toFixed(0)} events/s)`);
  log(`  dropped events            ${f.droppedEvents} (pod states listed by the API but not journaled within 30 s), gaps ${f.gaps}`);
  log(`  journal size              ${mib(f.journalBytes)}`);
  log(`  peak RSS (bench process)  ${mib(f.peakRssBytes)}`);
  log(`  event-loop delay          p99 ${f.eventLoopDelayP99Ms.toFixed(1)} ms, max ${f.eventLoopDelayMaxMs.toFixed(1)} ms`);
} catch (error) {
  process.stderr.write(`ERROR: ${(error as Error).message}\n`);
  process.exitCode = 3;
}
