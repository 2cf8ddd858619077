// The shape of result.json (apiVersion rebootlab.dev/v1alpha1, kind Result); schema/result.schema.json is generated from it.
import type { ProbeSummary } from '../analyze/probe-types.js';
import type {
  EventRecord, EvictionApiRecord, ExpectationResult, FaultInstant, GapSpan, JobTimeline, NodeTimeline, PodOutcome, PodTimeline, Predictions, RunStatus, ScriptMark, StepInstant, VolumeAnalysis, NodeAnswer, WorkloadAnswer, WorkloadRef, WorkloadTimeline,
} from '../analyze/types.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { Experiment } from '../spec/types.js';
import type { JudgedForecast } from '../analyze/forecast/types.js';

export type { RunStatus };

/**
 * Run metadata the runner writes to `run.json` in the run directory, next to observations.jsonl; together
 * they are all `rebootlab report <run-dir>` needs to rebuild every output. schema/run-info.schema.json is generated
 * from this type (`npm run schema:run-info`); report checks run.json against it (lib/report/result-shape.ts).
 */
export interface RunInfo {
  /** Experiment `metadata.name`. */
  experiment: string;
  /** Matrix variant name, or null for a plain experiment. */
  variant: string | null;
  /** 0-based repeat index. */
  repeatIndex: number;
  cluster: {
    name: string;
    provider: string;
    /**
     * The API server's version as it answered `/version` at the start of the run (e.g. `v1.37.2`); the requested
     * `cluster.kubernetesVersion` when the server could not be asked; null when unknown (older runs).
     */
    kubernetesVersion: string | null;
  };
  fault: {
    /** reboot | power-off | freeze | kubelet-stop | network-partition | node-delete. */
    type: string;
    /** The target as written in the experiment (node name, `worker-with-most-pods`, or a selector). */
    target: string;
    /** Requested fault duration in seconds, or null for instantaneous faults. */
    durationSeconds: number | null;
  };
  /** Effective timeout settings read back from the cluster (durations in milliseconds, `...Ms`). */
  settings: TimeoutSettings;
  workloads: WorkloadRef[];
  /** Expectation texts of the experiment's `expect:`. */
  expectations: string[];
  /** True when the run was interrupted (SIGINT, SIGTERM or SIGHUP) after faults were undone. */
  interrupted: boolean;
  /** rebootlab's package version. */
  rebootlabVersion: string;
  /**
   * The resolved experiment of this variant (durations in milliseconds), when the run was a YAML experiment: what a
   * forecast is computed from (`rebootlab report` recomputes one from the journal's pre-fault records when the journal
   * holds no frozen forecast). Absent for scripted experiments and older run directories.
   */
  resolved?: Experiment;
}

/**
 * result.json of one rebootlab run (apiVersion rebootlab.dev/v1alpha1, kind Result), built only from the journal
 * and run.json (no wall-clock "now"). Every `...Seconds` field is seconds since time zero, the start of the first
 * fault command (the fault-injecting journal marker; see `summary.timeZero`) with millisecond precision; null means the event did not happen before the
 * journal ended. `...Ms` fields (effective settings) are milliseconds. schema/result.schema.json is generated from
 * this type: npx ts-json-schema-generator --path lib/report/result-types.ts --type Result
 * --id https://rebootlab.dev/schema/result.schema.json --no-type-check -o schema/result.schema.json
 */
export interface Result {
  apiVersion: 'rebootlab.dev/v1alpha1';
  kind: 'Result';
  metadata: {
    experiment: string;
    variant: string | null;
    repeatIndex: number;
    rebootlabVersion: string;
    /** First journal record, RFC 3339 UTC (client clock). */
    startedAt: string;
    /** Time zero, RFC 3339 UTC (client clock): the start of the first fault command (see `summary.timeZero`), the zero of every `...Seconds` below. */
    faultInjectedAt: string;
    /** Last journal record, RFC 3339 UTC (client clock). */
    finishedAt: string;
  };
  spec: {
    cluster: RunInfo['cluster'];
    fault: RunInfo['fault'] & { nodes: string[] };
    /** Effective settings; durations in milliseconds (`...Ms`), tolerations in seconds. */
    settings: TimeoutSettings;
    workloads: WorkloadRef[];
  };
  status: RunStatus;
  /**
   * The plain-words answer, per workload in experiment order: one sentence of what happened to its pods and why
   * (lib/analyze/answers.ts). summary.md and report.html open with it. Absent in results written before it existed.
   */
  answers?: WorkloadAnswer[];
  /**
   * The plain-words answer per node the fault touched (a target, or one marked NotReady, tainted or deleted), in node
   * order (lib/analyze/answers.ts answerNodes); summary.md and report.html list it after the workloads' answers.
   * Absent in results written before it existed.
   */
  nodeAnswers?: NodeAnswer[];
  summary: {
    recovered: boolean;
    expectationsPassed: number;
    expectationsFailed: number;
    /** Number of pods per outcome (every outcome listed, 0 when none; results written before an outcome existed lack it). */
    podOutcomes: Partial<Record<PodOutcome, number>>;
    /** fault-restored marker, seconds since fault; null if absent. */
    faultRestoredAfterSeconds: number | null;
    /** Last journal record, seconds since fault. */
    endAfterSeconds: number;
    /** Follow-up steps done, with the instant each returned (seconds since fault); empty when none. */
    steps: StepInstant[];
    /**
     * What time zero is: `fault-injecting` = the start of the first fault command (journal marker written just before
     * it); `fault-injected` = when it returned, for journals recorded before rebootlab wrote the earlier marker.
     */
    timeZero: 'fault-injecting' | 'fault-injected';
    /** Each target's fault command: started, returned, its duration (seconds), and the node's last Lease renewal before it. */
    faults: FaultInstant[];
  };
  predictions: Predictions;
  nodes: NodeTimeline[];
  pods: PodTimeline[];
  workloads: WorkloadTimeline[];
  expectations: ExpectationResult[];
  /** Events kept as cross-checks (node lifecycle, taint eviction, kubelet kills and probe failures) received after the fault, in time order. */
  events: EventRecord[];
  gaps: GapSpan[];
  warnings: string[];
  /** Marks a scripted experiment wrote (`lab.mark`), seconds since the fault; absent for YAML experiments. */
  marks?: ScriptMark[];
  /** What each traffic prober's clients saw (experiment `probes:`); absent when the run had none. */
  probes?: ProbeSummary[];
  /**
   * The forecast frozen before the first fault command (or recomputed from the journal's records before it), judged
   * against what happened: `count(forecast.missed) == 0` asserts it held. Absent when the run has none.
   */
  forecast?: JudgedForecast;
  /** Each Job's status at the end and its replacements' wait (lib/analyze/jobs.ts); absent when the run had no Job. */
  jobs?: JobTimeline[];
  /** The Eviction API's answers to evict-pods / drain steps and scripts, per pod; absent when none asked. */
  evictions?: EvictionApiRecord[];
  /** Attachable volumes through the fault: VolumeAttachments, and per pod the detach, Multi-Attach and attach; absent when the run had none. */
  volumes?: VolumeAnalysis;
}
