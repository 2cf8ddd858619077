// Builds the Result object (result.json) from an analysis (its verdicts included) and the run metadata.
import type { RunAnalysis } from '../analyze/types.js';
import { POD_OUTCOMES, type PodOutcome } from '../spec/expectation.js';
import type { Result, RunInfo } from './result-types.js';

/** API version of result files, the same as experiment files. */
export const RESULT_API_VERSION = 'rebootlab.dev/v1alpha1';

/** Unix epoch milliseconds → RFC 3339 UTC with milliseconds. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Assemble result.json. Deterministic: every instant comes from the analysis (the journal), so the same
 * journal and run.json give a byte-identical file. `startedAtMs` is the first journal record (Unix epoch ms).
 * The status and the expectation results are the analysis' own (analyze() with run.json's expectations).
 */
export function buildResult(analysis: RunAnalysis, info: RunInfo, startedAtMs: number): Result {
  const { expectations } = analysis;
  const podOutcomes = Object.fromEntries(POD_OUTCOMES.map((o) => [o, 0])) as Record<PodOutcome, number>;
  for (const p of analysis.pods) podOutcomes[p.outcome] += 1;
  return {
    apiVersion: RESULT_API_VERSION,
    kind: 'Result',
    metadata: {
      experiment: info.experiment,
      variant: info.variant,
      repeatIndex: info.repeatIndex,
      rebootlabVersion: info.rebootlabVersion,
      startedAt: rfc3339(startedAtMs),
      faultInjectedAt: rfc3339(analysis.faultInjectedAtMs),
      finishedAt: rfc3339(analysis.endAtMs),
    },
    spec: {
      cluster: info.cluster,
      fault: { ...info.fault, nodes: analysis.targets },
      settings: info.settings,
      workloads: info.workloads,
    },
    status: analysis.status,
    answers: analysis.answers,
    nodeAnswers: analysis.nodeAnswers,
    summary: {
      recovered: analysis.recovered,
      expectationsPassed: expectations.filter((e) => e.passed).length,
      expectationsFailed: expectations.filter((e) => !e.passed).length,
      podOutcomes,
      faultRestoredAfterSeconds: analysis.faultRestoredAfterSeconds,
      endAfterSeconds: analysis.endAfterSeconds,
      steps: analysis.steps,
      timeZero: analysis.timeZero,
      faults: analysis.faults,
    },
    predictions: analysis.predictions,
    nodes: analysis.nodes,
    pods: analysis.pods,
    workloads: analysis.workloads,
    expectations,
    events: analysis.events,
    gaps: analysis.gaps,
    warnings: analysis.warnings,
    ...(analysis.marks ? { marks: analysis.marks } : {}),
    ...(analysis.probes ? { probes: analysis.probes } : {}),
    ...(analysis.forecast ? { forecast: analysis.forecast } : {}),
    ...(analysis.jobs ? { jobs: analysis.jobs } : {}),
    ...(analysis.evictions ? { evictions: analysis.evictions } : {}),
    ...(analysis.volumes ? { volumes: analysis.volumes } : {}),
  };
}
