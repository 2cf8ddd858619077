// Builds Result objects with chosen timing values from the power-off fixture, for compare and baseline tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../lib/report/result-types.js';
import { FIXTURE_RUNS_DIR } from '../analyze/fixture-runs.js';

/** Timing values to put into a synthetic run, seconds since the fault (unavailableWeb: seconds); null = did not happen. */
export interface Timings {
  detection: number | null;
  taint?: number | null;
  eviction?: number | null;
  replacementReady?: number | null;
  unavailableWeb?: number;
}

/** The checked-in result.json of a fixture run, parsed fresh (callers may mutate it). */
export function fixtureResult(scenario: string): Result {
  return JSON.parse(readFileSync(join(FIXTURE_RUNS_DIR, scenario, 'result.json'), 'utf8')) as Result;
}

/**
 * The power-off-past-toleration result with variant `variant`, repeat `repeatIndex` and the given timings written into
 * the target node kind-worker, every evicted pod on it, the web replacement and workload web.
 */
export function syntheticResult(variant: string, repeatIndex: number, t: Timings): Result {
  const r = fixtureResult('power-off-past-toleration');
  r.metadata.variant = variant;
  r.metadata.repeatIndex = repeatIndex;
  const node = r.nodes.find((n) => n.name === 'kind-worker')!;
  node.notReadyAfterSeconds = t.detection;
  node.noExecuteTaintAfterSeconds = t.taint === undefined ? t.detection : t.taint;
  for (const p of r.pods) {
    if (p.evictedAfterSeconds !== null && t.eviction !== undefined) p.evictedAfterSeconds = t.eviction;
    if (p.replacement && t.replacementReady !== undefined) p.replacement.readyAfterSeconds = t.replacementReady;
  }
  const web = r.workloads.find((w) => w.name === 'web')!;
  if (t.unavailableWeb !== undefined) web.unavailableSeconds = t.unavailableWeb;
  return r;
}
