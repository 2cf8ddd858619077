// `npm run bench`: runs the benchmarks and prints their figures.
// Usage: node dist/bench/run.js [--only observer|prober] [--nodes N] [--pods N] [--zones N] [--rate N] [--seconds N]
import { parseArgs } from 'node:util';
import { benchObserverScale } from './observer-scale.js';
import { benchProberLoad } from './prober-load.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' }, nodes: { type: 'string', default: '1000' }, pods: { type: 'string', default: '10000' }, zones: { type: 'string', default: '10' },
    rate: { type: 'string', default: '50' }, seconds: { type: 'string', default: '60' },
  },
});
const options = { nodes: Number(values.nodes), pods: Number(values.pods), zones: Number(values.zones) };
const log = (line: string) => process.stdout.write(`${line}\n`);

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
if (values.only !== 'observer') {
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  log(`traffic prober: ${rate} requests/s for ${seconds} s to a loopback server; then with the observer on 10 kwok nodes (200-pod rollout and scale-down)`);
  try {
    const f = await benchProberLoad({ ratePerSecond: rate, seconds, nodes: 10, pods: 200 }, log);
    log(`  alone: sent ${f.alone.sent}, recorded ${f.alone.records}, lost ${f.alone.lostRecords}, stalls ${f.alone.stalls}`);
    log(`  alone: RSS ${mib(f.alone.baselineRssBytes)} before the first request, peak ${mib(f.alone.peakRssBytes)} (prober's own: ${mib(f.alone.peakRssBytes - f.alone.baselineRssBytes)})`);
    log(`  with the observer: sent ${f.withObserver.sent}, recorded ${f.withObserver.records}, lost ${f.withObserver.lostRecords}, stalls ${f.withObserver.stalls}; watch gaps ${f.withObserver.watchGaps} (${f.withObserver.objectRecords} object records)`);
  } catch (error) {
    process.stderr.write(`ERROR: ${(error as Error).message}\n`);
    process.exitCode = 3;
  }
}
if (values.only === 'prober') process.exit();

log(`observer at scale: ${options.nodes} kwok nodes, ${options.pods} pods, ${options.zones} zones`);
try {
  const f = await benchObserverScale(options, log);
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
