// Benchmark: how long rebootlab takes to refuse or validate hostile experiment files (issue 27). Prints figures:
// `rebootlab validate` wall time (a new process, Node start included) for a 1 MB file, a 100,000-key file and a
// 10^6-variant matrix, then in-process times that show the work grows linearly with the input below the file cap.
// Run: npm run build && node dist/bench/hostile-input.js
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseExpectation } from '../lib/spec/expectation.js';
import { loadExperimentText } from '../lib/spec/load.js';

const HEAD = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\nfault: {type: power-off, duration: 10s}\n';

/** An experiment file with `keys` unknown top-level keys (each an issue). */
export function manyKeys(keys: number): string {
  let text = HEAD;
  for (let i = 0; i < keys; i++) text += `k${i}: 1\n`;
  return text;
}

/** An experiment file of about `bytes` bytes: a valid head and one long description. */
export function bigFile(bytes: number): string {
  return `${HEAD.replace('metadata: {name: x}', `metadata: {name: x, description: "${'a'.repeat(Math.max(0, bytes - HEAD.length - 20))}"}`)}`;
}

/** A matrix of `axes` axes with `values` distinct values each: values^axes variants. */
export function bigMatrix(axes: number, values: number): string {
  const paths = ['cluster.controllerManager.nodeEvictionRate', 'cluster.controllerManager.secondaryNodeEvictionRate', 'cluster.controllerManager.kubeAPIQPS',
    'cluster.controllerManager.largeClusterSizeThreshold', 'cluster.controllerManager.kubeAPIBurst', 'cluster.kubelet.nodeLeaseDurationSeconds'];
  let text = `${HEAD}matrix:\n`;
  for (const path of paths.slice(0, axes)) text += `  ${path}: [${Array.from({ length: values }, (_, i) => i + 1).join(', ')}]\n`;
  return text;
}

/** Milliseconds `fn` takes, the best of `runs` (the least disturbed by the rest of the machine). */
function timeMs(fn: () => void, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** loadExperimentText, whatever it throws (refusals are the point). */
function load(text: string): void {
  try {
    loadExperimentText('bench.yaml', text);
  } catch {
    // an InputError: refused
  }
}

/** One `rebootlab validate` in a new process: wall seconds, exit code and the number of stderr lines. */
function validateCli(file: string): { seconds: number; exitCode: number | null; lines: number } {
  const bin = fileURLToPath(new URL('../../bin/rebootlab.js', import.meta.url));
  const start = performance.now();
  const child = spawnSync(process.execPath, [bin, 'validate', file], { encoding: 'utf8' });
  return { seconds: (performance.now() - start) / 1000, exitCode: child.status, lines: child.stderr.split('\n').filter(Boolean).length };
}

/** Runs the benchmark, printing one line per figure through `log`; returns [figure, measured, target] rows. */
export function benchHostileInput(log: (line: string) => void): [string, string, string][] {
  const rows: [string, string, string][] = [];
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-bench-hostile-'));
  try {
    const cases: [string, string, string][] = [
      ['validate: a 1 MB experiment file', bigFile(1_000_000), '< 2 s'],
      ['validate: a 100,000-key experiment file', manyKeys(100_000), '< 2 s'],
      ['validate: a 10^6-variant matrix (6 axes × 10 values)', bigMatrix(6, 10), '< 1 s'],
      ['validate: a 1000-variant matrix (3 axes × 10 values, the most allowed)', bigMatrix(3, 10), ''],
    ];
    for (const [name, text, target] of cases) {
      const file = join(dir, 'bench.yaml');
      writeFileSync(file, text);
      const r = validateCli(file);
      const line = `${r.seconds.toFixed(2)} s (exit ${r.exitCode}, ${r.lines} stderr line${r.lines === 1 ? '' : 's'})`;
      log(`${name}: ${line}`);
      rows.push([name, line, target]);
    }
    // In process, below the 256 KiB cap: the time per key stays flat as the file grows (linear work).
    const perKey: string[] = [];
    for (const keys of [2_500, 5_000, 10_000, 20_000]) {
      const text = manyKeys(keys);
      const ms = timeMs(() => load(text));
      perKey.push(`${keys} keys ${ms.toFixed(0)} ms (${((ms * 1000) / keys).toFixed(1)} µs/key)`);
    }
    log(`loadExperimentText, unknown keys (each an issue): ${perKey.join('; ')}`);
    rows.push(['in process: unknown keys, time per key as the file grows', perKey.join('; '), 'flat (linear)']);
    const spaces = `workloads.web.unavailableSeconds${' '.repeat(60_000)}b`;
    const worst = `a${' '.repeat(498)}b`;
    const expectMs = timeMs(() => parseExpectation(spaces), 5);
    const worstMs = timeMs(() => parseExpectation(worst), 5);
    log(`parseExpectation: "a" + 60,000 spaces + "b" ${expectMs.toFixed(3)} ms (refused by length); 500 characters, no operator ${worstMs.toFixed(3)} ms`);
    rows.push(['parseExpectation: 60,000 spaces; 500 characters without an operator', `${expectMs.toFixed(3)} ms; ${worstMs.toFixed(3)} ms`, 'no backtracking']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchHostileInput((line) => process.stdout.write(`${line}\n`));
}
