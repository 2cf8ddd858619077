// The Job controller's view of a Job's pods (when it counts one failed, when it may replace it, what it takes as the
// failure time) and each Job's status as journaled.
import type { ObjectObservation } from '../observe/types.js';
import { secondsSince, serverSecondsSince } from './clock.js';
import { groupBy, type RunContext } from './context.js';
import { condition, deletionTimestamp, get, label, phase } from './objects.js';
import { OBSERVATION_LATENCY_SECONDS, round3 } from './predict-common.js';
import type { JobCondition, JobTimeline, PodTimeline } from './types.js';
import { WORKLOAD_LABEL } from './membership.js';

/** First pod failure backoff of the Job controller, seconds (pkg/controller/job/job_controller.go `DefaultJobPodFailureBackOff`, v1.34.4). */
export const JOB_POD_FAILURE_BACKOFF_SECONDS = 10;
/** Cap of that backoff, seconds (`MaxJobPodFailureBackOff` = 10 min, same file). */
export const JOB_POD_FAILURE_BACKOFF_MAX_SECONDS = 600;
/**
 * The Job controller batches the syncs a pod update triggers by this long, seconds (`SyncJobBatchPeriod`, same
 * file): the sync that counts a failure reads the pod as it is up to this long after the update.
 */
export const JOB_SYNC_BATCH_SECONDS = 1;

/**
 * The Job controller's delay before it creates pods again after `failures` consecutive pod failures (since the
 * Job's last success), seconds: 10 s doubled per further failure, capped at 600 s
 * (pkg/controller/job/backoff_utils.go getRemainingTimeForFailuresCount, v1.34.4); 0 for no failure. The wait runs
 * from the last failure's finish time (getFinishedTime), so a failure whose finish time lies that long in the past
 * delays nothing.
 */
export function jobPodFailureBackoffSeconds(failures: number): number {
  if (failures <= 0) return 0;
  let backoff = JOB_POD_FAILURE_BACKOFF_SECONDS;
  for (let i = 1; i < failures; i++) {
    backoff *= 2;
    if (backoff >= JOB_POD_FAILURE_BACKOFF_MAX_SECONDS) return JOB_POD_FAILURE_BACKOFF_MAX_SECONDS;
  }
  return backoff;
}

/**
 * A pod's finish time as the Job controller reads it (backoff_utils.go getFinishedTime, v1.34.4), seconds since
 * time zero: the latest container `finishedAt` when every container terminated; else its Ready=False condition's
 * lastTransitionTime; else deletionTimestamp − deletionGracePeriodSeconds; else its creationTimestamp. All are
 * whole-second server times, which the controller reads as they are. Null when none parses.
 */
export function jobPodFinishedSeconds(pod: Record<string, unknown>, faultMs: number): number | null {
  const statuses = get(pod, 'status', 'containerStatuses');
  if (Array.isArray(statuses) && statuses.length > 0) {
    const finished = statuses.map((c) => Date.parse(String(get(c, 'state', 'terminated', 'finishedAt') ?? '')));
    if (finished.every((ms) => !Number.isNaN(ms))) return secondsSince(faultMs, Math.max(...finished));
  }
  const ready = condition(pod, 'Ready');
  if (ready?.status === 'False' && ready.lastTransitionTime) return serverSecondsSince(faultMs, ready.lastTransitionTime);
  const deletion = deletionTimestamp(pod);
  if (deletion !== null) {
    const grace = Number(get(pod, 'metadata', 'deletionGracePeriodSeconds') ?? 0) || 0;
    const at = serverSecondsSince(faultMs, deletion);
    return at === null ? null : round3(at - grace);
  }
  return serverSecondsSince(faultMs, String(get(pod, 'metadata', 'creationTimestamp') ?? ''));
}

/** The completion index annotation (and label) of an Indexed Job's pods (k8s.io/api batch/v1 JobCompletionIndexAnnotation). */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** Failures of the pod's index before it, counted (batch/v1 JobIndexFailureCountAnnotation): set on every pod of a Job with backoffLimitPerIndex. */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
/** Failures of the pod's index before it that a podFailurePolicy Ignore rule did not count (batch/v1 JobIndexIgnoredFailureCountAnnotation); absent when 0. */
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** A non-negative integer annotation or label of `pod` (the controller's parseInt32: anything else reads as 0), or null when absent. */
function intMeta(pod: Record<string, unknown>, key: string): number | null {
  const raw = get(pod, 'metadata', 'annotations', key) ?? get(pod, 'metadata', 'labels', key);
  if (typeof raw !== 'string') return null;
  const n = /^\d+$/.test(raw) ? Number(raw) : 0;
  return Number.isSafeInteger(n) && n <= 2147483647 ? n : 0;
}

/**
 * The completion index of an Indexed Job's pod (its `batch.kubernetes.io/job-completion-index` annotation, else the
 * label of the same key; pkg/controller/job/indexed_job_utils.go getCompletionIndex, v1.34.4 to v1.37.2), or null
 * when it has none (a NonIndexed Job's pod) or it does not parse.
 */
export function jobCompletionIndex(pod: Record<string, unknown>): number | null {
  const raw = get(pod, 'metadata', 'annotations', JOB_COMPLETION_INDEX_ANNOTATION) ?? get(pod, 'metadata', 'labels', JOB_COMPLETION_INDEX_ANNOTATION);
  return typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null;
}

/**
 * An Indexed Job pod's failure counts of its index before it (pkg/controller/job/indexed_job_utils.go
 * getIndexFailureCount and getIndexAbsoluteFailureCount, v1.34.4 to v1.37.2): `counted`, its
 * job-index-failure-count annotation (what backoffLimitPerIndex is compared with, isIndexFailed); `absolute`, that
 * plus its job-index-ignored-failure-count (what the per-index backoff counts). Missing annotations read as 0.
 */
export function jobIndexFailureCounts(pod: Record<string, unknown>): { counted: number; absolute: number } {
  const counted = intMeta(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION) ?? 0;
  return { counted, absolute: counted + (intMeta(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION) ?? 0) };
}

/**
 * The per-index pod failure backoff of an Indexed Job with backoffLimitPerIndex before it replaces the pod of an
 * index whose last failed pod carries `absoluteFailures` (jobIndexFailureCounts `absolute`), seconds: the pod's own
 * failure is one more, so 10 s × 2^absoluteFailures, capped at 600 s
 * (pkg/controller/job/backoff_utils.go getRemainingTimePerIndex: getIndexAbsoluteFailureCount + 1, then
 * getRemainingTimeForFailuresCount from getFinishedTime of that pod; called per index by job_controller.go
 * getPodCreationInfoForIndependentIndexes from manageJob; the same in v1.34.4, v1.35.4, v1.36.3 and v1.37.2). The
 * Job's own failures (the backoff record) are not used then. Throws a RangeError for a negative or non-integer count.
 */
export function jobIndexBackoffSeconds(absoluteFailures: number): number {
  if (!Number.isInteger(absoluteFailures) || absoluteFailures < 0) throw new RangeError(`index failure count must be a non-negative integer, got ${absoluteFailures}`);
  return jobPodFailureBackoffSeconds(absoluteFailures + 1);
}

/** What a podFailurePolicy rule does with a failure (batch/v1 PodFailurePolicyAction), or null when no rule matches. */
export type PodFailureAction = 'Ignore' | 'Count' | 'FailJob' | 'FailIndex' | null;

/**
 * The action of the first podFailurePolicy rule matching a failed pod (pkg/controller/job/pod_failure_policy.go
 * matchPodFailurePolicy, v1.34.4): `onPodConditions` matches a pod condition of that type with that status (True by
 * default); `onExitCodes` a terminated container (of `containerName`, or any) whose exit code is In / NotIn the values
 * (0 never matches). Null without a policy or when no rule matches (the failure counts).
 */
export function podFailureAction(rules: readonly Record<string, unknown>[] | null, pod: Record<string, unknown>): PodFailureAction {
  for (const rule of rules ?? []) {
    const conditions = rule.onPodConditions;
    if (Array.isArray(conditions)) {
      const hit = conditions.some((c) => {
        const found = condition(pod, String(get(c, 'type') ?? ''));
        return found !== null && found.status === String(get(c, 'status') ?? 'True');
      });
      if (hit) return rule.action as PodFailureAction;
    }
    const codes = rule.onExitCodes as { containerName?: string; operator?: string; values?: number[] } | undefined;
    if (codes && Array.isArray(codes.values)) {
      const statuses = get(pod, 'status', 'containerStatuses');
      const hit = Array.isArray(statuses) && statuses.some((c) => {
        if (codes.containerName && get(c, 'name') !== codes.containerName) return false;
        const code = get(c, 'state', 'terminated', 'exitCode');
        if (typeof code !== 'number' || code === 0) return false;
        return codes.operator === 'NotIn' ? !codes.values!.includes(code) : codes.values!.includes(code);
      });
      if (hit) return rule.action as PodFailureAction;
    }
  }
  return null;
}

/** One pod of a Job as the Job controller counts it; instants are client receive times, seconds since time zero. */
export interface JobPodFacts {
  uid: string;
  name: string;
  /**
   * When the controller's informer shows it failed (isPodFailed, job_controller.go): phase Failed; or, when the Job
   * replaces terminating pods (podReplacementPolicy TerminatingOrFailed), a deletionTimestamp on a pod not Succeeded.
   * Null when it never was.
   */
  failedAfterSeconds: number | null;
  /**
   * When the controller may replace it: that failure; or, with podReplacementPolicy Failed, the pod's removal from the
   * API without a Failed phase (no longer terminating). Null when neither happened.
   */
  replaceableAfterSeconds: number | null;
  /**
   * Its finish time (jobPodFinishedSeconds) over the pod versions the counting sync can have read (received from the
   * failure to JOB_SYNC_BATCH_SECONDS + OBSERVATION_LATENCY_SECONDS later): the smallest and the largest, seconds
   * since time zero; null when it never failed.
   */
  finished: { fromSeconds: number; toSeconds: number } | null;
  /** The podFailurePolicy rule action its failure matched (podFailureAction), or null. */
  action: PodFailureAction;
  /** Its completion index (jobCompletionIndex), or null (NonIndexed). */
  index: number | null;
  /** Failures of its index before it (jobIndexFailureCounts, from its last record before time zero). */
  indexFailures: { counted: number; absolute: number };
}

/** A Job as the Job controller acts on it, from its journaled spec and its pods' records. */
export interface JobFacts {
  namespace: string;
  name: string;
  uid: string;
  /** The workload it belongs to (its rebootlab.dev/workload label, else its name), for pairing its pods. */
  workload: string;
  /** `spec.podReplacementPolicy` as the API server defaulted it: Failed with a podFailurePolicy, else TerminatingOrFailed. */
  podReplacementPolicy: 'TerminatingOrFailed' | 'Failed';
  /** `spec.podFailurePolicy.rules`, or null. */
  podFailurePolicyRules: Record<string, unknown>[] | null;
  backoffLimit: number;
  /** `spec.completionMode` as the API server defaulted it (NonIndexed). */
  completionMode: 'NonIndexed' | 'Indexed';
  /** `spec.completions`, or null when not journaled. */
  completions: number | null;
  /** `spec.backoffLimitPerIndex`, or null: then the pod failure backoff is the Job's (its backoff record). */
  backoffLimitPerIndex: number | null;
  /** `spec.maxFailedIndexes`, or null. */
  maxFailedIndexes: number | null;
  /** `status.failed` of the Job at time zero (its last record before it), 0 when absent. */
  failedAtZero: number;
  /** The Job's pods that existed at time zero, in order of failure (those that never failed last). */
  pods: JobPodFacts[];
}

/** The controller uid of a pod record (its ownerReferences entry with controller: true), or null. */
function ownerUid(pod: Record<string, unknown>): string | null {
  const refs = get(pod, 'metadata', 'ownerReferences');
  if (!Array.isArray(refs)) return null;
  const uid = get(refs.find((r) => get(r, 'controller') === true), 'uid');
  return typeof uid === 'string' ? uid : null;
}

function podFacts(ctx: RunContext, records: readonly ObjectObservation[], policy: JobFacts['podReplacementPolicy'], rules: JobFacts['podFailurePolicyRules']): JobPodFacts {
  const after = records.filter((r) => r.seq > ctx.faultSeq);
  const at = (r: ObjectObservation) => secondsSince(ctx.faultMs, r.receivedAtMs);
  const isFailed = (r: ObjectObservation) => {
    if (r.verb === 'DELETED') return false;
    const p = phase(r.object);
    if (p === 'Failed') return true;
    return policy === 'TerminatingOrFailed' && deletionTimestamp(r.object) !== null && p !== 'Succeeded';
  };
  const failed = after.find(isFailed);
  const removed = after.find((r) => r.verb === 'DELETED');
  const failedAt = failed ? at(failed) : null;
  const replaceable = failedAt ?? (removed ? at(removed) : null);
  let finished: JobPodFacts['finished'] = null;
  if (failed && failedAt !== null) {
    const seen = after.filter((r) => r.verb !== 'DELETED' && r.seq >= failed.seq && at(r) <= failedAt + JOB_SYNC_BATCH_SECONDS + OBSERVATION_LATENCY_SECONDS);
    const times = seen.map((r) => jobPodFinishedSeconds(r.object, ctx.faultMs)).filter((t): t is number => t !== null);
    if (times.length > 0) finished = { fromSeconds: Math.min(...times), toSeconds: Math.max(...times) };
  }
  const last = records[0]!;
  const before = records.filter((r) => r.seq < ctx.faultSeq && r.verb !== 'DELETED').at(-1)?.object ?? last.object;
  return {
    uid: last.uid, name: last.name, failedAfterSeconds: failedAt, replaceableAfterSeconds: replaceable, finished, action: failed ? podFailureAction(rules, failed.object) : null,
    index: jobCompletionIndex(before), indexFailures: jobIndexFailureCounts(before),
  };
}

/**
 * The Jobs of the journal with the pods they owned at time zero, in journal order. Pods are joined to their Job by
 * the controller owner reference's uid.
 */
export function buildJobFacts(ctx: RunContext): JobFacts[] {
  const podsByOwner = new Map<string, ObjectObservation[][]>();
  for (const records of groupBy(ctx.pods, (r) => r.uid).values()) {
    const before = records.filter((r) => r.seq < ctx.faultSeq).at(-1);
    if (!before || before.verb === 'DELETED' || deletionTimestamp(before.object) !== null) continue;
    const owner = ownerUid(before.object);
    if (owner === null) continue;
    podsByOwner.set(owner, [...(podsByOwner.get(owner) ?? []), records]);
  }
  const jobs: JobFacts[] = [];
  for (const records of groupBy(ctx.jobs, (r) => r.uid).values()) {
    const first = records.find((r) => r.verb !== 'DELETED') ?? records[0]!;
    const spec = (get(first.object, 'spec') ?? {}) as Record<string, unknown>;
    const rules = Array.isArray(get(spec, 'podFailurePolicy', 'rules')) ? (get(spec, 'podFailurePolicy', 'rules') as Record<string, unknown>[]) : null;
    const written = spec.podReplacementPolicy;
    const policy = written === 'Failed' || written === 'TerminatingOrFailed' ? written : rules !== null ? 'Failed' : 'TerminatingOrFailed';
    const pods = (podsByOwner.get(first.uid) ?? []).map((r) => podFacts(ctx, r, policy, rules));
    pods.sort((a, b) => (a.failedAfterSeconds ?? Infinity) - (b.failedAfterSeconds ?? Infinity) || a.name.localeCompare(b.name));
    const atZero = records.filter((r) => r.seq < ctx.faultSeq && r.verb !== 'DELETED').at(-1);
    const failedAtZero = Number(get(atZero?.object, 'status', 'failed') ?? 0) || 0;
    jobs.push({
      namespace: first.namespace ?? '', name: first.name, uid: first.uid, failedAtZero,
      workload: label(first.object, WORKLOAD_LABEL) ?? first.name,
      podReplacementPolicy: policy, podFailurePolicyRules: rules,
      backoffLimit: typeof spec.backoffLimit === 'number' ? spec.backoffLimit : typeof spec.backoffLimitPerIndex === 'number' ? 2147483647 : 6,
      completionMode: spec.completionMode === 'Indexed' ? 'Indexed' : 'NonIndexed',
      completions: typeof spec.completions === 'number' ? spec.completions : null,
      backoffLimitPerIndex: typeof spec.backoffLimitPerIndex === 'number' ? spec.backoffLimitPerIndex : null,
      maxFailedIndexes: typeof spec.maxFailedIndexes === 'number' ? spec.maxFailedIndexes : null,
      pods,
    });
  }
  return jobs;
}

/**
 * Each Job's status at the end of the journal (batch/v1 JobStatus: active, ready, failed, succeeded, terminating,
 * conditions) and `backoffSeconds`: the longest wait, among its pods that were replaced, from when the controller
 * could replace the pod (JobPodFacts.replaceableAfterSeconds) to the replacement's creation (client receive
 * times), seconds; null when none was replaced.
 */
export function buildJobTimelines(ctx: RunContext, facts: readonly JobFacts[], pods: readonly PodTimeline[]): JobTimeline[] {
  const byUid = new Map(pods.map((p) => [p.uid, p]));
  return facts.map((job) => {
    const records = ctx.jobs.filter((r) => r.uid === job.uid);
    const last = records.filter((r) => r.verb !== 'DELETED').at(-1) ?? records.at(-1)!;
    const status = (get(last.object, 'status') ?? {}) as Record<string, unknown>;
    const count = (key: string): number => (typeof status[key] === 'number' ? (status[key] as number) : 0);
    const conditions: JobCondition[] = (Array.isArray(status.conditions) ? status.conditions as Record<string, unknown>[] : []).map((c) => ({
      type: String(c.type ?? ''), status: String(c.status ?? ''), reason: typeof c.reason === 'string' ? c.reason : null,
      afterSeconds: serverSecondsSince(ctx.faultMs, typeof c.lastTransitionTime === 'string' ? c.lastTransitionTime : null),
    }));
    let backoff: number | null = null;
    for (const p of job.pods) {
      const created = byUid.get(p.uid)?.replacement?.createdAfterSeconds ?? null;
      if (created === null || p.replaceableAfterSeconds === null) continue;
      backoff = Math.max(backoff ?? 0, round3(Math.max(0, created - p.replaceableAfterSeconds)));
    }
    return {
      name: job.name, namespace: job.namespace, workload: job.workload,
      podReplacementPolicy: job.podReplacementPolicy, podFailurePolicy: job.podFailurePolicyRules !== null, backoffLimit: job.backoffLimit,
      active: count('active'), ready: typeof status.ready === 'number' ? status.ready : null, failed: count('failed'), succeeded: count('succeeded'),
      terminating: typeof status.terminating === 'number' ? status.terminating : null,
      conditions, backoffSeconds: backoff, deletedAtEnd: records.at(-1)?.verb === 'DELETED',
    };
  });
}
