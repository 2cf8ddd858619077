// The measurement interface (kube-burner's measurements, Playwright's reporters): one module computes one part of the
// analysis from the journal, names the expectations that can read it and the tables that show it. A new metric is one
// module registered in lib/analyze/measurements/index.ts plus its expectation vocabulary in lib/spec/expectation.ts.
import type { Observation } from '../observe/types.js';
import type { ExpectationSubject } from '../spec/expectation.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { Experiment } from '../spec/types.js';
import type { RunContext } from './context.js';
import type { Heartbeat } from './heartbeats.js';
import type { JobFacts } from './jobs.js';
import type { LeaderChange } from './predict-common.js';
import type { MeasuredRun, RunAnalysis, WorkloadEndpoints, WorkloadRef } from './types.js';

/** What `analyze` needs besides the journal. */
export interface AnalyzeOptions {
  /** Effective timeout settings of the cluster (durations in milliseconds), for the predicted windows. */
  settings: TimeoutSettings;
  /** The experiment's workloads; pods join them by label rebootlab.dev/workload=<name>. */
  workloads: readonly WorkloadRef[];
  /** The resolved experiment of the run (run.json `experiment`), when known: a journal without a frozen forecast gets one from its pre-fault records. */
  experiment?: Experiment;
  /** The cluster's Kubernetes version (e.g. `v1.34.4`), when known. */
  kubernetesVersion?: string;
  /** The experiment's `expect:` texts (run.json `expectations`), evaluated into RunAnalysis.expectations; default none. */
  expectations?: readonly string[];
  /** The run was interrupted (run.json `interrupted`): status `interrupted` whatever the expectations say. */
  interrupted?: boolean;
}

/** The parts measurements compute: RunAnalysis's parts plus intermediate ones that only other measurements read. */
export interface Measured extends Pick<RunAnalysis, 'faults' | 'steps' | 'nodes' | 'pods' | 'workloads' | 'predictions' | 'events' | 'marks' | 'probes' | 'forecast' | 'jobs' | 'answers' | 'nodeAnswers' | 'evictions' | 'volumes'> {
  /** Each Job as the Job controller acts on it (lib/analyze/jobs.ts), for the predictions. */
  jobFacts: JobFacts[];
  /** Per workload with a Service, its endpoint figures (read by the workloads measurement). */
  endpointsByWorkload: ReadonlyMap<string, WorkloadEndpoints | null>;
  /** Per node, its journaled Lease renewTimes, seconds since time zero, ascending and distinct. */
  leaseRenewals: ReadonlyMap<string, number[]>;
  /** Per node, its status posts (a changed Ready lastHeartbeatTime), seconds since time zero, in journal order (lib/analyze/heartbeats.ts). */
  statusPosts: ReadonlyMap<string, Heartbeat[]>;
  /** kube-controller-manager leader changes after time zero (its Lease changed holder), in order. */
  leaderChanges: LeaderChange[];
  /** The observer's delivery lag above its median, measured from Lease updates (receipt − renewTime), seconds; receipt `atSeconds` since time zero. */
  observerLag: { atSeconds: number; lagSeconds: number }[];
}

/** A key of `Measured`. */
export type MeasuredKey = keyof Measured;

/** What every measurement gets. */
export interface MeasureInput {
  observations: readonly Observation[];
  ctx: RunContext;
  options: AnalyzeOptions;
  /** Record a non-fatal finding (one line); it ends up in RunAnalysis.warnings. */
  warn(line: string): void;
}

/** One cell of a measurement table: seconds since time zero (`{ seconds }`, null = did not happen) or plain text. */
export type TableCell = string | number | boolean | null | { seconds: number | null };

/** A table a measurement shows in summary.md and report.html (`name` is report.html's `data-table`). */
export interface MeasurementTable {
  name: string;
  title: string;
  /** One sentence under the title (where the figures come from), or undefined. */
  note?: string;
  /** One sentence under the table (how to read it), or undefined. */
  after?: string;
  headers: string[];
  rows: TableCell[][];
}

/** The parts of a result.json a measurement's tables read (a Result and a RunAnalysis both have them). */
export type MeasuredView = Pick<RunAnalysis, 'nodes' | 'pods' | 'workloads' | 'events' | 'predictions' | 'marks' | 'probes' | 'forecast' | 'jobs' | 'evictions' | 'volumes'> & {
  /** The experiment's fault type (run.json), e.g. `power-off`. */
  faultType: string;
};

/** A labelled value an expectation compares (`label` names the object in failure messages), or why none exists. */
export type SubjectValues = { label: string; value: string | number | boolean | null }[] | string;

/**
 * One measurement. `measure` runs once per analysis, in registry order, and may read the parts listed in `needs`
 * (computed by measurements registered before it); it returns the parts listed in `provides`.
 */
export interface Measurement {
  /** Short name, e.g. `nodes`, `probes`. */
  name: string;
  /** One line: what it measures and from which journal records. */
  describes: string;
  needs: readonly MeasuredKey[];
  provides: readonly MeasuredKey[];
  measure(input: MeasureInput, earlier: Readonly<Partial<Measured>>): Partial<Measured>;
  /** The expectation subjects it answers (`scope` of lib/spec/expectation.ts Subject), and how. */
  expectations?: { scope: ExpectationSubject['scope']; values(analysis: MeasuredRun, subject: ExpectationSubject): SubjectValues };
  /** Tables for summary.md and report.html, in order; empty when there is nothing to show. */
  tables?(view: MeasuredView): MeasurementTable[];
}

/**
 * Whether the run stopped before its end: `options.interrupted` (run.json), or a journal without a `run-finished`
 * phase marker (the run was killed). What such a journal shows stopped early: never a recovery, never "throughout".
 */
export function runInterrupted(observations: readonly Observation[], options: AnalyzeOptions): boolean {
  return options.interrupted === true || !observations.some((r) => r.type === 'phase' && r.phase === 'run-finished');
}

/** `earlier[key]`, which registry order guarantees. @throws Error if a measurement needs a part not computed before it (a registry bug). */
export function part<K extends MeasuredKey>(earlier: Readonly<Partial<Measured>>, key: K): Measured[K] {
  if (!(key in earlier)) throw new Error(`measurement registry: ${key} is needed before any measurement provides it`);
  return earlier[key] as Measured[K];
}
