// Loads a run directory from test/fixtures/runs/<scenario> (observations.jsonl + run.json) for analyzer and report tests.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { analyze } from '../../../lib/analyze/analyze.js';
import type { PredictionItem, RunAnalysis } from '../../../lib/analyze/types.js';
import { readJournal } from '../../../lib/observe/journal.js';
import type { Observation } from '../../../lib/observe/types.js';
import { analyzeOptionsOf, readRunInfo } from '../../../lib/report/write-reports.js';
import type { RunInfo } from '../../../lib/report/result-types.js';

/** test/fixtures/runs in the source tree (tests run from dist/test/unit/analyze). */
export const FIXTURE_RUNS_DIR = fileURLToPath(new URL('../../../../test/fixtures/runs', import.meta.url));

/** A fixture run: its directory, journal, metadata and analysis. */
export interface FixtureRun {
  dir: string;
  observations: Observation[];
  info: RunInfo;
  analysis: RunAnalysis;
}

/** Read and analyze `test/fixtures/runs/<scenario>`; a torn or unreadable line fails the load. */
export function loadFixtureRun(scenario: string): FixtureRun {
  const dir = join(FIXTURE_RUNS_DIR, scenario);
  const warnings: string[] = [];
  const observations = readJournal(join(dir, 'observations.jsonl'), (_level, message) => warnings.push(message));
  if (warnings.length > 0) throw new Error(`fixture ${scenario}: ${warnings.join('; ')}`);
  const info = readRunInfo(dir);
  return { dir, observations, info, analysis: analyze(observations, analyzeOptionsOf(info)) };
}

/**
 * The prediction item `<event>[/<taint key suffix>]@<node or pod name>`, e.g. `node-not-ready@w1`,
 * `no-execute-taint/unreachable@w1`, `pod-eviction@web-abc` (pod name without namespace), or undefined.
 */
export function predictionItem(analysis: RunAnalysis, ref: string): PredictionItem | undefined {
  const m = /^([a-z-]+)(?:\/([a-z-]+))?@(.+)$/.exec(ref);
  if (!m) throw new Error(`bad prediction reference ${ref}`);
  const [, event, key, subject] = m;
  return analysis.predictions.items.find(
    (i) => i.event === event && (key === undefined || (i.taintKey ?? '').endsWith(`/${key}`)) && (i.pod === null ? i.node === subject : i.pod.split('/')[1] === subject),
  );
}

/**
 * Read a value out of an analysis by a short path: `node:<name>.<field…>`, `pod:<name>.<field…>`,
 * `workload:<name>.<field…>`, `item:<prediction reference>.<field…>` (see predictionItem) or `run.<field…>`.
 * @throws Error naming the path when the object does not exist.
 */
export function valueAt(analysis: RunAnalysis, path: string): unknown {
  const m = /^(node|pod|workload|item):([^.]+)\.(.+)$/.exec(path) ?? /^(run)\.(?:())(.+)$/.exec(path);
  if (!m) throw new Error(`bad path ${path}`);
  const [, scope, name, rest] = m;
  const roots: Record<string, unknown> = {
    node: analysis.nodes.find((n) => n.name === name),
    pod: analysis.pods.find((p) => p.name === name),
    workload: analysis.workloads.find((w) => w.name === name),
    item: scope === 'item' ? predictionItem(analysis, name) : undefined,
    run: analysis,
  };
  let cur = roots[scope];
  if (cur === undefined) throw new Error(`${path}: no ${scope} ${name}`);
  for (const key of rest.split('.')) cur = (cur as Record<string, unknown> | null)?.[key];
  return cur;
}
