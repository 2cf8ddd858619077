// `rebootlab predict` timings: the CLI's wall time (a fresh process: Node start, module loading, the experiment's schema
// check, the forecast, rendering) and the forecast alone in this process, on a 3-node experiment and on the 1000-node
// kwok bench file. Issue 24's targets: under 1 s and under 5 s for the command. Pure CPU, no cluster.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { forecast } from '../lib/analyze/forecast/index.js';
import { preFaultStateOf } from '../lib/run/predict-state.js';
import { loadExperiment } from '../lib/spec/load.js';

/** Figures of one file: medians over `runs`, milliseconds. */
export interface PredictFigures {
  file: string;
  items: number;
  /** The CLI, `node bin/rebootlab.js predict <file>`: wall and CPU (user + system) of the child, medians. */
  cliWallMs: number;
  cliCpuMs: number;
  /** In this process, after a warm-up: loading and checking the file, and the forecast of its first variant. */
  loadMs: number;
  forecastMs: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Times `rebootlab predict` on `file` (repository-relative) `runs` times, with `sets` as its `--set path=value` flags. */
export async function benchPredict(file: string, runs = 5, sets: readonly string[] = []): Promise<PredictFigures> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const bin = fileURLToPath(new URL('../../bin/rebootlab.js', import.meta.url));
  const wall: number[] = [];
  const cpu: number[] = [];
  const startCpu = childCpuMs();
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const res = spawnSync(process.execPath, [bin, 'predict', file, ...sets.flatMap((s) => ['--set', s])], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    wall.push(performance.now() - start);
    if (res.status !== 0) throw new Error(`rebootlab predict ${file}: exit ${res.status}: ${res.stderr.toString().trim()}`);
    // spawnSync waits for the child: its CPU is in this process's children's usage (RUSAGE_CHILDREN), read from /proc.
    cpu.push(childCpuMs());
  }
  const cpuPerRun = cpu.map((c, i) => c - (i === 0 ? startCpu : cpu[i - 1]!));
  const load: number[] = [];
  const compute: number[] = [];
  let items = 0;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const loaded = await loadExperiment(`${root}${file}`, { set: sets });
    const t1 = performance.now();
    const variant = loaded.variants[0]!;
    const f = forecast({ experiment: variant.experiment, settings: variant.experiment.cluster.settings, kubernetesVersion: variant.experiment.cluster.kubernetesVersion, preFault: preFaultStateOf(variant.experiment) });
    const t2 = performance.now();
    items = f.items.length;
    if (i === 0) continue; // warm-up
    load.push(t1 - t0);
    compute.push(t2 - t1);
  }
  return { file, items, cliWallMs: median(wall), cliCpuMs: median(cpuPerRun), loadMs: median(load), forecastMs: median(compute) };
}

/** CPU of this process's waited-for children so far (cutime + cstime from /proc/self/stat), milliseconds. */
function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command name: index 13 = cutime, 14 = cstime (clock ticks, 100 per second on Linux).
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
