// What the e2e tests read of a finished or running `rebootlab run`: its run directory, result.json, journal
// phases, and the kind node containers Docker reports in a given state.
import { expect } from 'chai';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJournal } from '../../lib/observe/index.js';
import type { Result } from '../../lib/report/index.js';

/** The single run directory under `out` (a plain experiment or script writes `<name>-<time>/`). */
export function runDirIn(out: string): string {
  const dirs = readdirSync(out);
  expect(dirs, `run directories in ${out}`).to.have.length(1);
  return join(out, dirs[0]!);
}

/** `<runDir>/result.json`, parsed. */
export function readResult(runDir: string): Result {
  return JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as Result;
}

/** Every result.json under `dir`, at any depth (one per variant and repeat), parsed. */
export function resultsIn(dir: string): Result[] {
  const found: Result[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name));
      else if (entry.name === 'result.json') found.push(readResult(d));
    }
  };
  walk(dir);
  return found;
}

/** Names of the node containers of kind cluster `cluster` that Docker lists in `state`. */
export async function nodeContainersIn(cluster: string, state: 'paused' | 'exited'): Promise<string[]> {
  const { stdout } = await execa('docker', ['ps', '-a', '--filter', `status=${state}`, '--filter', `label=io.x-k8s.kind.cluster=${cluster}`, '--format', '{{.Names}}']);
  return stdout.split('\n').filter(Boolean);
}

/**
 * Resolves once the run directory under `out` has a journal containing phase `phase`; reading the file the run
 * appends to is the test's own observation channel, not cluster state. Checks every 500 ms.
 * @throws Error after `timeoutMs` milliseconds.
 */
export async function waitForPhase(out: string, phase: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dirs = existsSync(out) ? readdirSync(out) : [];
    const journal = dirs.length === 1 ? join(out, dirs[0]!, 'observations.jsonl') : null;
    if (journal && existsSync(journal) && readJournal(journal).some((r) => r.type === 'phase' && r.phase === phase)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no ${phase} in ${out} within ${timeoutMs} ms`);
}

/** Every run directory (one holding observations.jsonl) at any depth under `out`, sorted: a matrix run's variants sit two levels down. */
export function runDirsUnder(out: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isFile() && e.name === 'observations.jsonl') found.push(dir);
      else if (e.isDirectory()) visit(join(dir, e.name));
    }
  };
  visit(out);
  return found.sort();
}

/**
 * Resolves to the run directory at any depth under `out` whose journal holds phase `phase` at least `count` times
 * (a matrix run: the variant being run). Checks every 250 ms. @throws Error after `timeoutMs` milliseconds.
 */
export async function waitForPhaseUnder(out: string, phase: string, count: number, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const dir of runDirsUnder(out)) {
      const seen = readJournal(join(dir, 'observations.jsonl')).filter((r) => r.type === 'phase' && r.phase === phase).length;
      if (seen >= count) return dir;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const phases = runDirsUnder(out).map((dir) => `${dir}: ${readJournal(join(dir, 'observations.jsonl')).flatMap((r) => (r.type === 'phase' ? [r.phase] : [])).join(', ')}`);
  throw new Error(`no ${count} × ${phase} under ${out} within ${timeoutMs} ms (phases seen: ${phases.join('; ') || 'no journal'})`);
}

/** Names of the node containers of kind cluster `cluster` that are not attached to Docker network `network` (default `kind`). */
export async function nodeContainersDisconnected(cluster: string, network = 'kind'): Promise<string[]> {
  const { stdout } = await execa('docker', ['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${cluster}`, '--format', '{{.Names}}']);
  const names = stdout.split('\n').filter(Boolean);
  const disconnected: string[] = [];
  for (const name of names) {
    const { stdout: networks } = await execa('docker', ['inspect', '--format', '{{json .NetworkSettings.Networks}}', name]);
    if (!(network in (JSON.parse(networks) as Record<string, unknown>))) disconnected.push(name);
  }
  return disconnected;
}
