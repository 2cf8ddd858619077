// Causal model, Job part: when the Job controller creates a replacement for a pod it lost.
import { countText } from '../common/words.js';
import { jobIndexBackoffSeconds, jobPodFailureBackoffSeconds, JOB_SYNC_BATCH_SECONDS, type JobFacts, type JobPodFacts } from './jobs.js';
import { causeOf, round3, secondsText, windowOf, type ItemDraft } from './predict-common.js';
import { REPLACEMENT_SECONDS } from './predict-pods.js';
import type { PodTimeline } from './types.js';

/**
 * Replacement predictions for every pod of `jobs` that the Job controller could replace (pkg/controller/job,
 * v1.34.4), replayed per Job in the order its pods failed:
 * - a pod is replaceable once it counts as failed (isPodFailed: phase Failed; with podReplacementPolicy
 *   TerminatingOrFailed also a deletionTimestamp), or, with podReplacementPolicy Failed (the default with a
 *   podFailurePolicy), once it left the API; a terminating pod is not replaced then (onlyReplaceFailedPods): a
 *   "must not happen" while it stays terminating;
 * - failures within one sync batch (SyncJobBatchPeriod, 1 s) are counted together; every failure since the Job's
 *   last success adds to the backoff record (newBackoffRecord counts failures a podFailurePolicy ignores too), and
 *   manageJob creates nothing before the last failure's finish time (getFinishedTime, over the pod versions that sync
 *   can have read) + 10 s × 2^(failures − 1), capped at 600 s (jobPodFailureBackoffSeconds);
 * - the Job fails instead (no replacement) when a failure matches a FailJob rule or the failures not ignored by the
 *   podFailurePolicy exceed backoffLimit.
 * Window on the replacement's first receipt: [max(replaceable, finish + backoff) − 0.1,
 * max(replaceable + 1 s batch, finish' + backoff) + REPLACEMENT_SECONDS]. Assumes no pod of the Job failed before
 * time zero (its failures are counted from the Job's journaled status then; a Job that already had failures is not modelled).
 * An Indexed Job with backoffLimitPerIndex is replayed per index instead ({@link predictIndexReplacements}).
 */
export function predictJobReplacements(jobs: readonly JobFacts[], pods: readonly PodTimeline[]): ItemDraft[] {
  const items: ItemDraft[] = [];
  const byUid = new Map(pods.map((p) => [p.uid, p]));
  for (const job of jobs) {
    if (job.completionMode === 'Indexed' && job.backoffLimitPerIndex !== null) {
      items.push(...predictIndexReplacements(job, byUid));
      continue;
    }
    const id = `${job.namespace}/${job.name}`;
    const priorFailures = job.failedAtZero;
    let failures = 0;
    let counted = 0;
    let jobFailed: string | null = null;
    let lastFinish: { fromSeconds: number; toSeconds: number } | null = null;
    const failedPods = job.pods.filter((p) => p.failedAfterSeconds !== null);
    const groups: JobPodFacts[][] = [];
    for (const p of failedPods) {
      const group = groups.at(-1);
      if (group && p.failedAfterSeconds! - group[0]!.failedAfterSeconds! <= JOB_SYNC_BATCH_SECONDS) group.push(p);
      else groups.push([p]);
    }
    const replayed = new Set<string>();
    for (const group of groups) {
      failures += group.length;
      counted += group.filter((p) => p.action !== 'Ignore').length;
      if (group.some((p) => p.action === 'FailJob')) jobFailed ??= 'a failure matched a podFailurePolicy rule with action FailJob';
      if (counted > job.backoffLimit) jobFailed ??= `${countText(counted, 'failure')} counted ${counted === 1 ? 'exceeds' : 'exceed'} backoffLimit ${job.backoffLimit} (BackoffLimitExceeded)`;
      const finishes = group.flatMap((p) => (p.finished ? [p.finished] : []));
      if (finishes.length > 0) lastFinish = { fromSeconds: Math.max(...finishes.map((f) => f.fromSeconds)), toSeconds: Math.max(...finishes.map((f) => f.toSeconds)) };
      for (const p of group) {
        replayed.add(p.uid);
        const item = itemFor(job, id, p, byUid.get(p.uid), { failures, lastFinish, jobFailed, priorFailures });
        if (item) items.push(item);
      }
    }
    // Pods that left without counting as failed (policy Failed: deleted while terminating) or stayed terminating.
    for (const p of job.pods) {
      if (replayed.has(p.uid)) continue;
      const item = itemFor(job, id, p, byUid.get(p.uid), { failures, lastFinish, jobFailed, priorFailures });
      if (item) items.push(item);
    }
  }
  return items;
}

interface JobState {
  /** Failures since the Job's last success, as the backoff record counts them, including this pod's group. */
  failures: number;
  /** Finish time range of the last counted failure (getFinishedTime), seconds since time zero. */
  lastFinish: { fromSeconds: number; toSeconds: number } | null;
  /** Why the Job failed instead of replacing, or null. */
  jobFailed: string | null;
  /** The Job's status.failed at time zero. */
  priorFailures: number;
}

/**
 * What both replacement predictions read first: when the Job controller could replace the pod (seconds since time
 * zero) and the observed cause, or, when it never could, the item saying so (a pod left terminating under
 * podReplacementPolicy Failed is not replaced: job_controller.go onlyReplaceFailedPods) or null (nothing to predict).
 */
function replaceableAt(job: JobFacts, id: string, facts: JobPodFacts, pod: PodTimeline, base: Pick<ItemDraft, 'event' | 'node' | 'pod' | 'taintKey' | 'observedSeconds'> & Partial<Pick<ItemDraft, 'mechanism'>>, policy: string): { item: ItemDraft | null } | { at: number; cause: ItemDraft['cause'] } {
  if (facts.replaceableAfterSeconds === null) {
    if (pod.evictedAfterSeconds === null || job.podReplacementPolicy !== 'Failed') return { item: null };
    return {
      item: {
        ...base, expected: false, window: null, cause: causeOf(`${pod.name} terminating (received)`, pod.evictedAfterSeconds),
        because: `Job ${id}: ${policy} replaces a pod only once it is Failed or gone; a terminating pod counts as terminating, not failed (onlyReplaceFailedPods)`,
      },
    };
  }
  const at = facts.replaceableAfterSeconds;
  return { at, cause: causeOf(facts.failedAfterSeconds !== null ? `${pod.name} counted failed by the Job controller (received)` : `${pod.name} gone from the API (received)`, at) };
}

function itemFor(job: JobFacts, id: string, facts: JobPodFacts, pod: PodTimeline | undefined, state: JobState): ItemDraft | null {
  if (!pod || pod.nodeBefore === null) return null;
  const base = { event: 'replacement-created' as const, node: pod.nodeBefore, pod: `${pod.namespace}/${pod.name}`, taintKey: null, observedSeconds: pod.replacement?.createdAfterSeconds ?? null };
  const policy = `podReplacementPolicy ${job.podReplacementPolicy}${job.podFailurePolicyRules ? ' (podFailurePolicy set)' : ''}`;
  const replaceable = replaceableAt(job, id, facts, pod, base, policy);
  if ('item' in replaceable) return replaceable.item;
  const { at, cause } = replaceable;
  if (state.jobFailed !== null) {
    return { ...base, expected: false, window: null, cause, because: `Job ${id} fails instead of replacing: ${state.jobFailed}` };
  }
  const notModelled = state.priorFailures > 0 ? `not modelled: Job ${id} had ${state.priorFailures} failed pod(s) before time zero, whose failures the backoff record may still count` : undefined;
  const backoff = jobPodFailureBackoffSeconds(state.failures);
  const finish = state.lastFinish;
  const from = finish === null ? at : Math.max(at, finish.fromSeconds + backoff);
  const to = finish === null ? at + JOB_SYNC_BATCH_SECONDS : Math.max(at + JOB_SYNC_BATCH_SECONDS, finish.toSeconds + backoff);
  const delay = finish === null ? 0 : round3(Math.max(0, finish.fromSeconds + backoff - at));
  const because = finish === null
    ? `Job controller replaces the pod at its next sync (${policy})`
    : `Job controller replaces the pod after its pod failure backoff: ${countText(state.failures, 'failure')} since the last success → ${secondsText(backoff)} (10 s doubling, max 600 s) from the last failure's finish time ${secondsText(finish.fromSeconds)}${finish.toSeconds > finish.fromSeconds ? `…${secondsText(finish.toSeconds)}` : ''} (getFinishedTime)${delay > 0 ? `: ${secondsText(delay)} after it could be replaced` : ', already over when it could be replaced'} (${policy})`;
  return { ...base, expected: true, window: windowOf(from - 0.1, to + REPLACEMENT_SECONDS), cause, because, ...(notModelled ? { notModelled } : {}) };
}

/** Pods failed within one sync batch (SyncJobBatchPeriod, JOB_SYNC_BATCH_SECONDS) of the group's first, in failure order. */
function syncBatches(pods: readonly JobPodFacts[]): JobPodFacts[][] {
  const groups: JobPodFacts[][] = [];
  for (const p of pods.filter((q) => q.failedAfterSeconds !== null)) {
    const group = groups.at(-1);
    if (group && p.failedAfterSeconds! - group[0]!.failedAfterSeconds! <= JOB_SYNC_BATCH_SECONDS) group.push(p);
    else groups.push([p]);
  }
  return groups;
}

/**
 * Replacement predictions for an Indexed Job with backoffLimitPerIndex (pkg/controller/job, read in v1.34.4, v1.35.4,
 * v1.36.3 and v1.37.2: the same rules; mechanism `job-index-backoff`), replayed per sync batch in failure order:
 * - a pod counts as failed, and is replaceable, as for any Job ({@link predictJobReplacements}, isPodFailed);
 * - its index fails, and is not replaced, when its failure matches a FailIndex rule, or when it is counted (no
 *   podFailurePolicy rule, or one that is not Ignore) and its job-index-failure-count annotation has reached
 *   backoffLimitPerIndex (indexed_job_utils.go isIndexFailed);
 * - the Job fails, and replaces nothing more, on a FailJob match, on more counted failures than backoffLimit
 *   (2147483647 by default with backoffLimitPerIndex), on more failed indexes than maxFailedIndexes
 *   (MaxFailedIndexesExceeded), or when every index has failed (FailedIndexes; the workload server never exits, so
 *   no index succeeds) (job_controller.go syncJob);
 * - else the index is replaced after its own backoff: 10 s × 2^(the failed pod's job-index-failure-count +
 *   job-index-ignored-failure-count), capped at 600 s, from that pod's finish time (backoff_utils.go
 *   getRemainingTimePerIndex, jobIndexBackoffSeconds; manageJob skips the Job's backoff record, which counts every
 *   failure of the Job). N indexes lost at once are each replaced about 10 s after their finish, where a NonIndexed
 *   Job waits 10 s × 2^(N − 1);
 * - a pod gone from the API without counting as failed (podReplacementPolicy Failed) leaves its index no failed pod:
 *   replaced at the next sync, no backoff (getPodsWithDelayedDeletionPerIndex holds failed pods only).
 * Window on the replacement's first receipt: [max(replaceable, finish + backoff) − 0.1,
 * max(replaceable + 1 s batch, finish' + backoff) + REPLACEMENT_SECONDS], as for the Job's backoff. The replacement is
 * the workload's next new pod (pod-timeline pairing), not matched by index: indexes replaced together share a window.
 */
export function predictIndexReplacements(job: JobFacts, byUid: ReadonlyMap<string, PodTimeline>): ItemDraft[] {
  const id = `${job.namespace}/${job.name}`;
  const perIndex = job.backoffLimitPerIndex!;
  const items: ItemDraft[] = [];
  const failedIndexes = new Set<number | string>();
  let counted = 0;
  let jobFailed: string | null = null;
  const replayed = new Set<string>();
  for (const group of syncBatches(job.pods)) {
    counted += group.filter((p) => p.action !== 'Ignore').length;
    if (group.some((p) => p.action === 'FailJob')) jobFailed ??= 'a failure matched a podFailurePolicy rule with action FailJob';
    if (counted > job.backoffLimit) jobFailed ??= `${countText(counted, 'failure')} counted ${counted === 1 ? 'exceeds' : 'exceed'} backoffLimit ${job.backoffLimit} (BackoffLimitExceeded)`;
    const indexFailed = new Map<string, string>();
    for (const p of group) {
      const why = p.action === 'FailIndex' ? 'its failure matched a podFailurePolicy rule with action FailIndex'
        : p.action !== 'Ignore' && p.indexFailures.counted >= perIndex ? `its index had ${countText(p.indexFailures.counted, 'counted failure')} before it (job-index-failure-count), ≥ backoffLimitPerIndex ${perIndex}` : null;
      if (why !== null) {
        indexFailed.set(p.uid, why);
        failedIndexes.add(p.index ?? p.uid);
      }
    }
    if (job.maxFailedIndexes !== null && failedIndexes.size > job.maxFailedIndexes) jobFailed ??= `${failedIndexes.size} failed index${failedIndexes.size === 1 ? '' : 'es'} exceed maxFailedIndexes ${job.maxFailedIndexes} (MaxFailedIndexesExceeded)`;
    else if (job.completions !== null && failedIndexes.size > 0 && failedIndexes.size >= job.completions) jobFailed ??= `every index of ${job.completions} has failed (FailedIndexes)`;
    for (const p of group) {
      replayed.add(p.uid);
      const item = indexItemFor(job, id, p, byUid.get(p.uid), jobFailed, indexFailed.get(p.uid) ?? null);
      if (item) items.push(item);
    }
  }
  for (const p of job.pods) {
    if (replayed.has(p.uid)) continue;
    const item = indexItemFor(job, id, p, byUid.get(p.uid), jobFailed, null);
    if (item) items.push(item);
  }
  return items;
}

function indexItemFor(job: JobFacts, id: string, facts: JobPodFacts, pod: PodTimeline | undefined, jobFailed: string | null, indexFailed: string | null): ItemDraft | null {
  if (!pod || pod.nodeBefore === null) return null;
  const index = facts.index === null ? 'its index' : `index ${facts.index}`;
  const base = { event: 'replacement-created' as const, node: pod.nodeBefore, pod: `${pod.namespace}/${pod.name}`, taintKey: null, observedSeconds: pod.replacement?.createdAfterSeconds ?? null, mechanism: 'job-index-backoff' };
  const policy = `podReplacementPolicy ${job.podReplacementPolicy}${job.podFailurePolicyRules ? ' (podFailurePolicy set)' : ''}, backoffLimitPerIndex ${job.backoffLimitPerIndex}`;
  const replaceable = replaceableAt(job, id, facts, pod, base, policy);
  if ('item' in replaceable) return replaceable.item;
  const { at, cause } = replaceable;
  if (jobFailed !== null) return { ...base, expected: false, window: null, cause, because: `Job ${id} fails instead of replacing: ${jobFailed}` };
  if (indexFailed !== null) return { ...base, expected: false, window: null, cause, because: `not replaced (index failed): Job ${id} marks ${index} failed, ${indexFailed} (isIndexFailed; status.failedIndexes)` };
  const notModelled = job.failedAtZero > 0 ? `not modelled: Job ${id} had ${job.failedAtZero} failed pod(s) before time zero` : undefined;
  const finish = facts.failedAfterSeconds === null ? null : facts.finished;
  const failures = facts.indexFailures.absolute;
  const backoff = jobIndexBackoffSeconds(failures);
  const from = finish === null ? at : Math.max(at, finish.fromSeconds + backoff);
  const to = finish === null ? at + JOB_SYNC_BATCH_SECONDS : Math.max(at + JOB_SYNC_BATCH_SECONDS, finish.toSeconds + backoff);
  const delay = finish === null ? 0 : round3(Math.max(0, finish.fromSeconds + backoff - at));
  const because = finish === null
    ? `Job controller replaces ${index} at its next sync: the pod left without counting as failed, so ${index} has no failed pod and no backoff (${policy})`
    : `Job controller replaces ${index} after its per-index pod failure backoff: ${index}'s ${countText(failures, 'earlier failure')} (job-index-failure-count + ignored) + this one → ${secondsText(backoff)} (10 s doubling, max 600 s) from this pod's finish time ${secondsText(finish.fromSeconds)}${finish.toSeconds > finish.fromSeconds ? `…${secondsText(finish.toSeconds)}` : ''} (getRemainingTimePerIndex; the Job's other failures do not count)${delay > 0 ? `: ${secondsText(delay)} after it could be replaced` : ', already over when it could be replaced'} (${policy})`;
  return { ...base, expected: true, window: windowOf(from - 0.1, to + REPLACEMENT_SECONDS), cause, because, ...(notModelled ? { notModelled } : {}) };
}
