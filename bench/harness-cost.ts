// Benchmark: what a whole `rebootlab run` costs its own process on a large kwok cluster (bench/zone-outage-1000.yaml:
// 1000 simulated nodes, a zone outage). Runs the real CLI as a child and samples /proc/<pid>/stat every second;
// the kwok control plane's processes are not counted (they are the simulated cluster, not the harness).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What {@link benchHarnessCost} measured. */
export interface HarnessCostFigures {
  /** Exit code of `rebootlab run` (0: every expectation held; 1: one failed; others: the run did not complete). */
  exitCode: number | null;
  wallSeconds: number;
  /** CPU seconds (user + system) of the harness process over its life. */
  cpuSeconds: number;
  /** cpuSeconds / wallSeconds, percent of one core. */
  cpuPercent: number;
  /** Highest CPU share over any 10 s window, percent of one core. */
  cpuPercentPeak10s: number;
  peakRssBytes: number;
  /** Where the run directory was written. */
  outDir: string;
}

/** Clock ticks per second of /proc/<pid>/stat utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;
const PAGE_BYTES = 4096;
/** Sampling period of /proc/<pid>/stat, milliseconds. */
const SAMPLE_MS = 250;

function sample(pid: number): { cpuSeconds: number; rssBytes: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may hold spaces): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const rssPages = Number(fields[21]);
    return { cpuSeconds: (utime + stime) / USER_HZ, rssBytes: rssPages * PAGE_BYTES };
  } catch {
    return null; // the process has exited
  }
}

/**
 * Runs `node bin/rebootlab.js run <experiment> --out <outDir>` and returns its cost; `log` gets its output lines.
 * @throws Error when the CLI cannot be started.
 */
export async function benchHarnessCost(experiment: string, outDir: string, log: (line: string) => void, extraArgs: string[] = []): Promise<HarnessCostFigures> {
  return { ...(await measureCli(['run', experiment, '--out', outDir, ...extraArgs], log)), outDir };
}

/**
 * Runs `node bin/rebootlab.js <args>` and returns its exit code, wall time, CPU and peak RSS (sampled every second
 * from /proc/<pid>/stat). @throws Error when the CLI cannot be started.
 */
export async function measureCli(args: string[], log: (line: string) => void): Promise<Omit<HarnessCostFigures, 'outDir'>> {
  const bin = fileURLToPath(new URL('../../bin/rebootlab.js', import.meta.url));
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const forward = (chunk: Buffer) => chunk.toString('utf8').split('\n').filter(Boolean).forEach((line) => log(`  | ${line.replace(/\r|\x1b\[2K/g, '')}`));
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  const startMs = Date.now();
  const history: { atMs: number; cpuSeconds: number }[] = [];
  let last = { cpuSeconds: 0, rssBytes: 0 };
  let peakRssBytes = 0;
  const timer = setInterval(() => {
    const s = sample(child.pid!);
    if (!s) return;
    last = s;
    peakRssBytes = Math.max(peakRssBytes, s.rssBytes);
    history.push({ atMs: Date.now(), cpuSeconds: s.cpuSeconds });
  }, SAMPLE_MS);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
  clearInterval(timer);
  const wallSeconds = (Date.now() - startMs) / 1000;
  let cpuPercentPeak10s = 0;
  for (let i = 0, j = 0; i < history.length; i++) {
    while (history[i].atMs - history[j].atMs > 10_000) j++;
    const spanSeconds = (history[i].atMs - history[j].atMs) / 1000;
    if (spanSeconds >= 9) cpuPercentPeak10s = Math.max(cpuPercentPeak10s, ((history[i].cpuSeconds - history[j].cpuSeconds) / spanSeconds) * 100);
  }
  return { exitCode, wallSeconds, cpuSeconds: last.cpuSeconds, cpuPercent: (last.cpuSeconds / wallSeconds) * 100, cpuPercentPeak10s, peakRssBytes };
}
