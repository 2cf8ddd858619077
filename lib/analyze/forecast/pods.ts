// Forecast, pod part: per pod on a target node, its eviction (taint eviction controller, out-of-service step), its
// deletion (PodGC, force-delete step, its kubelet back), and its replacement created and Ready.
import { countText } from '../../common/words.js';
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Experiment, StepSpec, WorkloadSpec } from '../../spec/types.js';
import { msToSeconds } from '../clock.js';
import { jobIndexBackoffSeconds, jobPodFailureBackoffSeconds, JOB_SYNC_BATCH_SECONDS, podFailureAction } from '../jobs.js';
import { OUT_OF_SERVICE_TAINT, secondsText } from '../predict-common.js';
import { PODGC_PERIOD_SECONDS, PODGC_QUARANTINE_SECONDS, REPLACEMENT_SECONDS } from '../predict-pods.js';
import { attachableReplacementReadyWindow, lostNodeDetachWindow } from '../predict-volumes.js';
import type { Window } from '../types.js';
import { evictionWindow, OBSERVATION_LATENCY_SECONDS, windowOf } from '../windows.js';
import { hull, item, sameWindow } from './items.js';
import { admissionRejection, labelsAfterSteps, unmatchedLabel, type AdmissionRejection } from './kubelet-admission.js';
import { mechanismKey } from '../mechanisms.js';
import { WORKLOAD_LABEL } from '../membership.js';
import type { TargetNodeForecast } from './nodes.js';
import { tolerationSecondsOf } from './tolerations.js';
import type { ForecastItem, ForecastOutcome, PreFaultPod } from './types.js';
import type { TaintForecast } from './zones.js';

/**
 * A terminating pod on a node that comes back is removed by its restarted kubelet within this many seconds of the
 * node's Ready=True (measured on kind: 1.6 to 3.5 s in 5 runs), seconds.
 */
export const TERMINATING_CLEANUP_SECONDS = 5;
/**
 * A replacement is Ready within this many seconds of its creation when its image is on the node and it has the
 * built-in readiness probe (scheduling, sandbox, container start, first probe; measured on kind: 0.4 to 3.8 s in 30
 * replacements), seconds; a workload's own probe adds its initialDelaySeconds + periodSeconds.
 */
export const REPLACEMENT_READY_SECONDS = 5;
/** A step's API action (taint, force delete) returns within this many seconds of its start, seconds. */
export const STEP_ACTION_SECONDS = 2;

/** When a pod stops counting for its controller (deletionTimestamp, Failed, or gone), and when it is gone. */
export interface PodFate {
  pod: PreFaultPod;
  /** Outcomes of its stop (eviction or deletion), client receive time. */
  stopped: ForecastOutcome[];
  /** Outcomes of its removal from the API. */
  deleted: ForecastOutcome[];
  /** Outcomes of its replacement Ready; empty when nothing replaces it. */
  replacementReady: ForecastOutcome[];
  /** Ready again in place (its node back before any eviction). */
  readyInPlace: ForecastOutcome[];
  /** Its restarted kubelet rejects it (forecast/kubelet-admission.ts); then `stopped` is that rejection. */
  rejected?: AdmissionRejection;
}

/** Inputs of {@link forecastPods}. */
export interface PodsForecastInput {
  experiment: Experiment;
  settings: TimeoutSettings;
  targets: readonly TargetNodeForecast[];
  taints: readonly TaintForecast[];
  pods: readonly PreFaultPod[];
  /** Worker nodes (not control plane), where replacements can be scheduled. */
  workers: readonly string[];
  /** Every node's labels before the fault: a target's for its kubelet's admission, a worker's for a replacement's required node affinity. */
  nodeLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The API server's Kubernetes version (a kubelet mechanism on a node of another version is keyed by its own). */
  kubernetesVersion: string;
}

const podId = (p: PreFaultPod) => `${p.namespace}/${p.name}`;
/** `key=value, ...` of a workload's required node labels. */
const labelsText = (labels: Readonly<Record<string, string>>) => Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(', ');
const never = (when: string): ForecastOutcome => ({ window: null, when });

/** Every pod on a target: its items, and its fate for the workload part; per Job with pods on a target, its job-failed item. */
export function forecastPods(input: PodsForecastInput): { items: ForecastItem[]; fates: PodFate[] } {
  const items: ForecastItem[] = [];
  const fates: PodFate[] = [];
  const jobs = new Map<string, { workload: WorkloadSpec; lost: { target: TargetNodeForecast; fate: PodFate }[] }>();
  for (const target of input.targets) {
    for (const pod of input.pods.filter((p) => p.node === target.name)) {
      const workload = input.experiment.workloads.find((w) => w.name === pod.workload) ?? null;
      const fate = podFate(input, target, pod, workload, items);
      fates.push(fate);
      if (pod.ownerKind === 'Job' && workload?.job) {
        const job = jobs.get(workload.name) ?? { workload, lost: [] };
        job.lost.push({ target, fate });
        jobs.set(workload.name, job);
      }
    }
  }
  for (const { workload, lost } of jobs.values()) items.push(jobFailedItem(input, workload, lost));
  return { items, fates };
}

function stepsOn(steps: readonly StepSpec[], action: StepSpec['action'], node: string): StepSpec[] {
  return steps.filter((s) => s.action === action && (s.node === null || s.node === node));
}

function podFate(input: PodsForecastInput, target: TargetNodeForecast, pod: PreFaultPod, workload: WorkloadSpec | null, items: ForecastItem[]): PodFate {
  const { experiment } = input;
  const base = { node: target.name, pod: podId(pod), workload: pod.workload };
  const fate: PodFate = { pod, stopped: [], deleted: [], replacementReady: [], readyInPlace: [] };
  const oos = stepsOn(experiment.steps, 'taint-out-of-service', target.name)[0];
  const deleteStep = stepsOn(experiment.steps, 'delete-node-object', target.name)[0];
  const forceDelete = stepsOn(experiment.steps, 'force-delete-pods', target.name)[0];
  const nodeDeleted: Window | null = target.deleted ?? (deleteStep ? windowOf(msToSeconds(deleteStep.afterMs), msToSeconds(deleteStep.afterMs) + STEP_ACTION_SECONDS) : null);

  // Eviction: an out-of-service taint not tolerated evicts at once; else the node's own NoExecute taint after tolerationSeconds.
  // The taint eviction controller evicts at whichever comes first (pkg/controller/tainteviction/taint_eviction.go
  // processPodOnNode: the smallest tolerationSeconds among the node's NoExecute taints), so the node's own taint wins
  // when its toleration runs out before the step even starts.
  let eviction: { outcomes: ForecastOutcome[]; seenFrom: number | null } | null = null;
  const oosTolerated = oos ? tolerationSecondsOf(pod.tolerations, [{ key: OUT_OF_SERVICE_TAINT, value: 'nodeshutdown', effect: 'NoExecute' }]) : null;
  const oosAt = oos ? msToSeconds(oos.afterMs) : null;
  const ownTaintItems: ForecastItem[] = [];
  const ownTaint = oos && oosTolerated === 'untolerated' && target.deleted === null ? taintEviction(input, target, pod, base, ownTaintItems, nodeDeleted) : null;
  const ownTaintFirst = ownTaint !== null && oosAt !== null && ownTaint.outcomes.length > 0 && ownTaint.outcomes.every((o) => o.window !== null && o.window.toSeconds < oosAt - 0.1);
  const ownTaintMayBeFirst = ownTaint !== null && oosAt !== null && ownTaint.outcomes.some((o) => o.window !== null && o.window.fromSeconds < oosAt + STEP_ACTION_SECONDS + 1 + OBSERVATION_LATENCY_SECONDS);
  if (ownTaintFirst) {
    eviction = ownTaint;
    items.push(...ownTaintItems);
  } else if (ownTaintMayBeFirst && oos && oosAt !== null) {
    // Either may come first: each outcome of the node's own taint, bounded by the step's window.
    const step = windowOf(oosAt - 0.1, oosAt + STEP_ACTION_SECONDS + 1 + OBSERVATION_LATENCY_SECONDS);
    const outcomes = ownTaint!.outcomes.map((o): ForecastOutcome => (o.window === null
      ? { window: step, when: `the ${OUT_OF_SERVICE_TAINT} taint step at ${secondsText(oosAt)}` }
      : { window: windowOf(Math.min(o.window.fromSeconds, step.fromSeconds), Math.min(o.window.toSeconds, step.toSeconds)), when: `${o.when}, or the ${OUT_OF_SERVICE_TAINT} taint step at ${secondsText(oosAt)} if it comes first` }));
    const own = ownTaintItems.find((i) => i.event === 'pod-eviction')!;
    eviction = { outcomes, seenFrom: null };
    items.push(item({
      ...base, event: 'pod-eviction', taintKey: null, happens: 'always', window: hull(outcomes.flatMap((o) => (o.window ? [o.window] : []))), outcomes: mergeOutcomes(outcomes),
      mechanism: 'taint-eviction', setting: `${own.setting}; step taint-out-of-service at ${secondsText(oosAt)}`,
      assumption: `${own.assumption}; the step's taint is written within ${STEP_ACTION_SECONDS} s of its start`,
      because: `evicted by whichever NoExecute taint runs out first: ${own.because}, or ${OUT_OF_SERVICE_TAINT}:NoExecute (not tolerated) at the step`,
    }));
  } else if (oos && oosTolerated === 'untolerated') {
    const at = msToSeconds(oos.afterMs);
    eviction = { outcomes: [{ window: windowOf(at - 0.1, at + STEP_ACTION_SECONDS + 1 + OBSERVATION_LATENCY_SECONDS), when: `the ${OUT_OF_SERVICE_TAINT} taint step at ${secondsText(at)}` }], seenFrom: at };
    items.push(item({
      ...base, event: 'pod-eviction', taintKey: OUT_OF_SERVICE_TAINT, happens: 'always', window: eviction.outcomes[0].window, mechanism: 'taint-eviction', setting: `step taint-out-of-service at ${secondsText(at)}`,
      assumption: `the step's taint is written within ${STEP_ACTION_SECONDS} s of its start`, because: `${OUT_OF_SERVICE_TAINT}:NoExecute not tolerated: evicted at once`,
    }));
  } else if (target.deleted === null) {
    // A Node deleted by a step later still has its taint eviction until then (the eviction may come first).
    eviction = taintEviction(input, target, pod, base, items, nodeDeleted);
  }
  const evictedOutcomes = eviction?.outcomes ?? [];
  const evicted = evictedOutcomes.filter((o) => o.window !== null);

  // Deletion from the API.
  const deleted: ForecastOutcome[] = [];
  if (nodeDeleted !== null) {
    const w = windowOf(nodeDeleted.fromSeconds + PODGC_QUARANTINE_SECONDS, nodeDeleted.toSeconds + PODGC_QUARANTINE_SECONDS + 2 * PODGC_PERIOD_SECONDS + OBSERVATION_LATENCY_SECONDS);
    deleted.push({ window: w, when: 'PodGC removes the pods of a deleted Node' });
    items.push(item({
      ...base, event: 'pod-deleted', happens: 'always', window: w, mechanism: 'pod-gc', setting: `PodGC quarantine ${PODGC_QUARANTINE_SECONDS} s, period ${PODGC_PERIOD_SECONDS} s`,
      assumption: `the Node is deleted ${secondsText(nodeDeleted.fromSeconds)} to ${secondsText(nodeDeleted.toSeconds)}; PodGC's first pass seeing it missing comes within one period, deletes after the quarantine at its next pass`,
      because: `PodGC deletes pods of a deleted Node after its ${PODGC_QUARANTINE_SECONDS} s quarantine, checked every ${PODGC_PERIOD_SECONDS} s`,
    }));
  } else if (forceDelete) {
    const at = msToSeconds(forceDelete.afterMs);
    const w = windowOf(at - 0.1, at + STEP_ACTION_SECONDS + OBSERVATION_LATENCY_SECONDS);
    deleted.push({ window: w, when: 'the force-delete-pods step' });
    items.push(item({ ...base, event: 'pod-deleted', happens: 'always', window: w, mechanism: 'pod-gc', setting: `step force-delete-pods at ${secondsText(at)}`, assumption: `the step deletes within ${STEP_ACTION_SECONDS} s`, because: 'the force-delete-pods step deletes the node\'s pods with grace period 0' }));
  } else if (oos && evicted.length > 0 && target.detection !== null) {
    // PodGC force-deletes terminating pods of a NotReady node with the out-of-service taint at its next pass.
    const from = Math.max(msToSeconds(oos.afterMs), target.detection.window.fromSeconds + 1, evicted[0].window!.fromSeconds);
    const to = Math.max(msToSeconds(oos.afterMs) + STEP_ACTION_SECONDS, target.detection.window.toSeconds, evicted[0].window!.toSeconds);
    const w = windowOf(from - 0.1, to + PODGC_PERIOD_SECONDS + OBSERVATION_LATENCY_SECONDS);
    deleted.push({ window: w, when: 'PodGC force-deletes terminating pods of an out-of-service NotReady node' });
    items.push(item({
      ...base, event: 'pod-deleted', happens: target.detection.happens, window: w, mechanism: 'pod-gc', setting: `PodGC period ${PODGC_PERIOD_SECONDS} s`,
      assumption: 'PodGC\'s next pass after the pod is terminating, the node NotReady and tainted out-of-service', because: `PodGC force-deletes terminating pods of a NotReady node with the ${OUT_OF_SERVICE_TAINT} taint`,
    }));
  } else if (evicted.length > 0 && target.readyAgain !== null) {
    const w = windowOf(Math.max(evicted[0].window!.fromSeconds, target.readyAgain.fromSeconds), target.readyAgain.toSeconds + TERMINATING_CLEANUP_SECONDS);
    deleted.push({ window: w, when: 'its kubelet is back and removes the terminating pod' });
    items.push(item({
      ...base, event: 'pod-deleted', happens: evicted.length === evictedOutcomes.length ? 'always' : 'maybe', window: w,
      outcomes: evicted.length === evictedOutcomes.length ? undefined : [{ window: w, when: 'it was evicted' }, never('it was not evicted')],
      mechanism: 'kubelet-status', setting: 'fault duration', assumption: `the restarted kubelet removes a terminating pod within ${TERMINATING_CLEANUP_SECONDS} s of the node's Ready=True (measured 1.6 to 3.5 s)`,
      because: 'a terminating pod on a node that is down stays listed until its kubelet confirms it is gone',
    }));
  }
  fate.deleted = deleted;
  // It stops counting at its eviction, or at its removal when nothing evicts it first.
  // Removals that need no eviction first (PodGC of a deleted Node, a force-delete step) replace its "never".
  const independent = nodeDeleted !== null || forceDelete ? deleted : [];
  const firstStop = evictedOutcomes.length > 0 ? evictedOutcomes.flatMap((o) => (o.window === null && independent.length > 0 ? independent : [o])) : deleted;
  fate.stopped = firstStop.length > 0 ? mergeOutcomes(firstStop) : [never('nothing evicts it')];
  // A pod nothing else stops, asked for by an evict-pods or drain step on its node (the Eviction API).
  if (fate.stopped.every((o) => o.window === null)) {
    const asked = apiEviction(input, target, pod, workload, base);
    if (asked !== null) {
      fate.stopped = asked.outcomes;
      items.push(asked.item);
    }
  }
  // A pod nothing else stops, on a node whose restarted kubelet no longer admits it (a required label removed).
  const rejection = workload !== null && fate.stopped.every((o) => o.window === null) ? admissionRejection(experiment, target, input.nodeLabels.get(target.name) ?? {}, workload) : null;
  if (rejection !== null) {
    fate.stopped = [{ window: rejection.window, when: rejection.when }];
    fate.rejected = rejection;
    items.push(item({
      ...base, event: 'pod-terminated', happens: 'always', window: rejection.window,
      mechanism: mechanismKey('kubelet-admission', target.kubeletVersion, input.kubernetesVersion),
      setting: `required node labels ${labelsText(workload!.requiredNodeLabels)}; steps ${experiment.steps.filter((st) => st.action === 'label-node' || st.action === 'unlabel-node' || st.action === 'restart-kubelet').map((st) => `${st.action} at ${secondsText(msToSeconds(st.afterMs))}`).join(', ')}`,
      assumption: rejection.assumption,
      because: `${rejection.when}: status Failed (or Succeeded once its container exits 0), so it no longer counts for its controller`,
    }));
  }
  replacement(input, target, pod, workload, fate, base, items);
  return fate;
}

/**
 * Whether an `evict-pods` or `drain` step on the pod's node asks the Eviction API for it, and when it is evicted
 * (mechanism eviction-api: k8s.io/kubernetes pkg/registry/core/pod/storage/eviction.go EvictionREST.Create, read in
 * v1.37.2: a pod no PodDisruptionBudget selects is evicted at once; one a budget selects only while the budget allows
 * a disruption, else HTTP 429). The step picks the pods as `kubectl drain --ignore-daemonsets` does
 * (lib/cluster/node-ops.ts podsToEvict): no DaemonSet pod; its namespace and labels select among the rest (rebootlab's
 * pods carry `rebootlab.dev/workload`; any other label is not known here and makes the pod only possibly asked for).
 * Whether a budget allows the disruption when asked depends on its pods' readiness then, which the forecast does not
 * decide: such a pod is evicted within the step's retry time or not at all. Null when no step asks for it.
 */
function apiEviction(input: PodsForecastInput, target: TargetNodeForecast, pod: PreFaultPod, workload: WorkloadSpec | null, base: { node: string; pod: string; workload: string | null }): { outcomes: ForecastOutcome[]; item: ForecastItem } | null {
  if (pod.ownerKind === 'DaemonSet') return null;
  const step = input.experiment.steps.find((s) => (s.action === 'evict-pods' || s.action === 'drain')
    && (s.node === null || s.node === target.name)
    && (s.args.pods === undefined || s.args.pods.namespace === null || s.args.pods.namespace === pod.namespace));
  if (step === undefined) return null;
  const labels = step.args.pods?.matchLabels ?? {};
  const knownLabels = Object.keys(labels).every((k) => k === WORKLOAD_LABEL);
  if (knownLabels && WORKLOAD_LABEL in labels && labels[WORKLOAD_LABEL] !== pod.workload) return null;
  const at = msToSeconds(step.afterMs);
  const retry = msToSeconds(step.args.retryForMs ?? 0);
  const window = windowOf(at - 0.1, at + retry + STEP_ACTION_SECONDS + OBSERVATION_LATENCY_SECONDS);
  const budget = workload?.podDisruptionBudget ?? null;
  const asked = `the ${step.action} step at ${secondsText(at)}`;
  const outcomes: ForecastOutcome[] = [{ window, when: budget === null ? `${asked} evicts it (no PodDisruptionBudget of rebootlab's selects it)` : `${asked} evicts it when its PodDisruptionBudget allows a disruption` }];
  if (budget !== null) outcomes.push(never(`its PodDisruptionBudget refuses the eviction (HTTP 429) for the step's ${secondsText(retry)} of retries`));
  if (!knownLabels) outcomes.push(never(`the step's label selector does not select it`));
  const merged = mergeOutcomes(outcomes);
  const happens = merged.every((o) => o.window !== null) ? 'always' : 'maybe';
  return {
    outcomes: merged,
    item: item({
      ...base, event: 'pod-eviction', taintKey: null, happens, window, outcomes: merged, mechanism: 'eviction-api',
      setting: `step ${step.action} at ${secondsText(at)}, retried ${secondsText(retry)}${budget !== null ? `; PodDisruptionBudget ${budget.minAvailable !== null ? `minAvailable ${budget.minAvailable}` : `maxUnavailable ${budget.maxUnavailable}`}` : ''}`,
      assumption: `the step asks within ${STEP_ACTION_SECONDS} s of its start${budget !== null ? '; whether the budget allows a disruption then depends on its pods\' readiness at that moment, not forecast' : ''}`,
      because: budget === null ? `${asked} asks the Eviction API for it; no budget selects it, so it is evicted at once` : `${asked} asks the Eviction API for it; its budget decides (EvictionREST.Create)`,
    }),
  };
}

/** The taint eviction controller on the node's forecast NoExecute taint: one outcome per taint outcome. */
function taintEviction(input: PodsForecastInput, target: TargetNodeForecast, pod: PreFaultPod, base: { node: string; pod: string; workload: string | null }, items: ForecastItem[], nodeDeleted: Window | null): { outcomes: ForecastOutcome[]; seenFrom: number | null } | null {
  const taint = input.taints.find((t) => t.node === target.name);
  if (!taint) return null;
  const tol = tolerationSecondsOf(pod.tolerations, [{ key: taint.key, effect: 'NoExecute' }]);
  const outcomes: ForecastOutcome[] = [];
  const monitor = input.settings.controllerManager.nodeMonitorPeriodMs / 1000;
  taint.outcomes.forEach((o, i) => {
    if (o.window === null) return outcomes.push(never(`not tainted: ${o.when}`));
    if (tol === null) return outcomes.push(never(`tainted, but the pod tolerates ${taint.key}:NoExecute forever`));
    const seconds = tol === 'untolerated' ? 0 : tol;
    const w = evictionWindow({ taintSeenFromSeconds: taint.seenFromSeconds[i] ?? o.window.fromSeconds, taintReceivedToSeconds: o.window.toSeconds, tolerationSeconds: seconds });
    // The node Ready again first: the controller removes the taint at its next pass (markNodeAsReachable), the countdown is cancelled.
    const back = target.readyAgain;
    if (back !== null && back.toSeconds + monitor + OBSERVATION_LATENCY_SECONDS < w.fromSeconds) return outcomes.push(never(`the node is Ready again (${secondsText(back.fromSeconds)} to ${secondsText(back.toSeconds)}) before the toleration runs out: the taint is removed and the countdown cancelled`));
    // Its Node deleted first (a step): no taint, no countdown; PodGC removes the pod.
    if (nodeDeleted !== null && nodeDeleted.toSeconds < w.fromSeconds) return outcomes.push(never(`its Node is deleted (${secondsText(nodeDeleted.fromSeconds)}) before the toleration runs out`));
    outcomes.push({ window: w, when: o.when });
    if (back !== null && back.fromSeconds < w.toSeconds) outcomes.push(never('the node is Ready again first and its taint removed'));
    if (nodeDeleted !== null && nodeDeleted.fromSeconds < w.toSeconds) outcomes.push(never('its Node is deleted first'));
  });
  // Force-deleted by a step (or removed by PodGC) without an eviction first: the run sees its removal as its deletion.
  const removal = removalOf(input, target, pod, nodeDeleted);
  if (removal !== null && outcomes.some((o) => o.window === null)) outcomes.push(removal);
  const happens = outcomes.every((o) => o.window !== null) ? 'always' : outcomes.every((o) => o.window === null) ? 'never' : 'maybe';
  const windows = outcomes.flatMap((o) => (o.window ? [o.window] : []));
  const tolText = tol === null ? 'forever' : tol === 'untolerated' ? 'not tolerated' : `${tol} s`;
  items.push(item({
    ...base, event: 'pod-eviction', taintKey: taint.key, happens, window: hull(windows), outcomes: mergeOutcomes(outcomes),
    mechanism: 'taint-eviction', setting: `tolerationSeconds for ${taint.key}: ${tolText}${tol !== null && tol !== 'untolerated' ? ' (kube-apiserver --default-*-toleration-seconds unless the pod sets it)' : ''}`,
    assumption: 'the countdown starts when the taint is written (the taint window), the eviction\'s write and watch add 1 s + the observation latency',
    because: tol === null ? `the pod tolerates ${taint.key}:NoExecute forever (no tolerationSeconds)` : tol === 'untolerated' ? `${taint.key}:NoExecute not tolerated: evicted at once` : `${taint.key}:NoExecute + ${tol} s toleration`,
  }));
  return { outcomes, seenFrom: null };
}

/** A removal of the pod by a force-delete-pods step or by PodGC after its Node's deletion, as an outcome; null when none. */
function removalOf(input: PodsForecastInput, target: TargetNodeForecast, pod: PreFaultPod, nodeDeleted: Window | null): ForecastOutcome | null {
  const force = stepsOn(input.experiment.steps, 'force-delete-pods', target.name)[0];
  if (force) {
    const at = msToSeconds(force.afterMs);
    return { window: windowOf(at - 0.1, at + STEP_ACTION_SECONDS + OBSERVATION_LATENCY_SECONDS), when: `force-deleted by the step at ${secondsText(at)} (its removal is what the run sees)` };
  }
  if (nodeDeleted !== null) return { window: windowOf(nodeDeleted.fromSeconds + PODGC_QUARANTINE_SECONDS, nodeDeleted.toSeconds + PODGC_QUARANTINE_SECONDS + 2 * PODGC_PERIOD_SECONDS + OBSERVATION_LATENCY_SECONDS), when: `removed by PodGC after its Node's deletion (${pod.name})` };
  return null;
}

/**
 * The Ready of a replacement (created in `created.window`) whose attachable volume must first be detached from the
 * lost target: after the old pod's removal (its deletion outcomes), at once with an out-of-service taint step on the
 * node, else after maxWaitForUnmountDuration (lib/analyze/predict-volumes.ts); never while the old pod stays.
 */
function attachableReady(input: PodsForecastInput, target: TargetNodeForecast, fate: PodFate, created: ForecastOutcome & { window: Window }, readySeconds: number): ForecastOutcome {
  const removals = fate.deleted.flatMap((o) => (o.window ? [o.window] : []));
  if (removals.length === 0) return never(`the old pod is never removed: its volume stays attached to ${target.name} and the replacement waits with a Multi-Attach error`);
  const removal = hull(removals)!;
  const taint = stepsOn(input.experiment.steps, 'taint-out-of-service', target.name)[0];
  let detach = lostNodeDetachWindow(removal, taint ? msToSeconds(taint.afterMs) : null);
  // The node back first: its kubelet reports the volume unmounted and the detach follows (not before the removal).
  const back = target.readyAgain;
  if (back !== null && back.fromSeconds < detach.fromSeconds) detach = windowOf(removal.fromSeconds, detach.toSeconds);
  const window = attachableReplacementReadyWindow({ created: created.window, detach, statusUpdateSeconds: input.settings.kubelet.nodeStatusUpdateFrequencyMs / 1000, readySeconds });
  const how = taint ? `the out-of-service taint at ${secondsText(msToSeconds(taint.afterMs))} lets the attach/detach controller detach without waiting` : 'the attach/detach controller force-detaches maxWaitForUnmountDuration (6 min) after the old pod\'s removal';
  return { window, when: `${created.when}; ${how}, then attaches to the replacement's node and its kubelet mounts at its next retry` };
}

/** Outcomes with the same window (or both never) merged, their conditions joined. */
export function mergeOutcomes(outcomes: readonly ForecastOutcome[]): ForecastOutcome[] {
  const merged: ForecastOutcome[] = [];
  for (const o of outcomes) {
    const same = merged.find((m) => sameWindow(m.window, o.window));
    if (same) {
      if (!same.when.includes(o.when)) same.when = `${same.when}; or ${o.when}`;
    } else merged.push({ ...o });
  }
  return merged;
}

/** The replacement a controller creates once the old pod stops counting (ReplicaSet, Job) or is gone (StatefulSet), and its Ready. */
function replacement(input: PodsForecastInput, target: TargetNodeForecast, pod: PreFaultPod, workload: WorkloadSpec | null, fate: PodFate, base: { node: string; pod: string; workload: string | null }, items: ForecastItem[]): void {
  if (pod.ownerKind === 'DaemonSet' || pod.workload === null) return;
  const trigger = pod.ownerKind === 'StatefulSet' ? fate.deleted : fate.stopped;
  const happened = trigger.filter((o) => o.window !== null);
  if (pod.ownerKind === null) {
    if (happened.length > 0) items.push(item({ ...base, event: 'replacement-created', happens: 'never', window: null, mechanism: 'replicaset', setting: 'none', assumption: 'none', because: 'a standalone pod has no controller to replace it' }));
    return;
  }
  const controller = pod.ownerKind === 'StatefulSet' ? 'statefulset' : pod.ownerKind === 'Job' ? 'job' : 'replicaset';
  const job = pod.ownerKind === 'Job' && workload?.job ? jobLoss(input, target, workload, fate) : null;
  if (job !== null && (job.jobFailed !== null || job.indexFailed !== null)) {
    // The Job fails instead of replacing, or the pod's index fails: no replacement, nothing Ready (fate.replacementReady never).
    const because = job.jobFailed !== null ? `Job ${workload!.name} fails instead of replacing: ${job.jobFailed}` : `not replaced (index failed): Job ${workload!.name} marks the pod's index failed, ${job.indexFailed}`;
    fate.replacementReady = [never(because)];
    items.push(item({ ...base, event: 'replacement-created', happens: 'never', window: null, outcomes: [never(because)], mechanism: job.mechanism, setting: job.setting, assumption: job.assumption, because }));
    items.push(item({ ...base, event: 'replacement-ready', happens: 'never', window: null, outcomes: [never(because)], mechanism: job.mechanism, setting: job.setting, assumption: job.assumption, because }));
    return;
  }
  const jobTrigger = job !== null ? job.trigger : trigger;
  const outcomes: ForecastOutcome[] = jobTrigger.map((o) => {
    if (o.window === null) return never(o.when);
    if (job === null) return { window: windowOf(o.window.fromSeconds - 0.1, o.window.toSeconds + REPLACEMENT_SECONDS), when: o.when };
    // The pod failure backoff from the last failure's finish time (getRemainingTimeForFailuresCount; per index:
    // getRemainingTimePerIndex from its own pod's), not before it can be replaced.
    const from = job.finish === null ? o.window.fromSeconds : Math.max(o.window.fromSeconds, job.finish.fromSeconds + job.backoffSeconds);
    const to = job.finish === null ? o.window.toSeconds + JOB_SYNC_BATCH_SECONDS : Math.max(o.window.toSeconds + JOB_SYNC_BATCH_SECONDS, job.finish.toSeconds + job.backoffSeconds);
    return { window: windowOf(from - 0.1, to + REPLACEMENT_SECONDS), when: `${o.when}, then the ${job.mechanism === 'job-index-backoff' ? 'per-index ' : ''}pod failure backoff ${secondsText(job.backoffSeconds)}` };
  });
  if (outcomes.length === 0) outcomes.push(never(pod.ownerKind === 'StatefulSet' ? 'the old pod is never deleted' : 'the old pod keeps counting'));
  const happens = outcomes.every((o) => o.window !== null) ? 'always' : outcomes.every((o) => o.window === null) ? 'never' : 'maybe';
  const merged = mergeOutcomes(outcomes);
  items.push(item({
    ...base, event: 'replacement-created', happens, window: hull(merged.flatMap((o) => (o.window ? [o.window] : []))), outcomes: merged,
    mechanism: job?.mechanism ?? controller, setting: job?.setting ?? 'none',
    assumption: job !== null ? `${job.assumption}; the controller creates it within ${REPLACEMENT_SECONDS} s once it may` : `the controller creates it within ${REPLACEMENT_SECONDS} s of the old pod ${pod.ownerKind === 'StatefulSet' ? 'being deleted' : 'getting a deletionTimestamp or Failed'}`,
    because: job !== null ? job.because : pod.ownerKind === 'StatefulSet' ? 'the StatefulSet controller recreates a pod only once the old one is deleted (one pod per identity)' : `the ${pod.ownerKind} controller replaces a pod once it has a deletionTimestamp or is Failed`,
  }));
  const stuck = workload?.volume && (workload.volume.type === 'local-pv' || (workload.volume.type === 'pvc' && input.experiment.cluster.provider !== 'existing'));
  // A replacement needs a schedulable node: a worker that is not a target (the control plane is tainted NoSchedule).
  const targetNames = new Set(input.targets.map((t) => t.name));
  // ... and that carries the labels its required node affinity names (label steps on it applied).
  const fits = (node: string) => workload === null || unmatchedLabel(workload.requiredNodeLabels, labelsAfterSteps(input.experiment, node, false, input.nodeLabels.get(node) ?? {}, input.experiment.steps.length)) === null;
  const elsewhere = input.workers.some((w) => !targetNames.has(w) && fits(w));
  const noneFits = input.workers.some((w) => !targetNames.has(w)) && !elsewhere;
  const backAt = input.targets.flatMap((t) => (t.readyAgain ? [t.readyAgain] : []));
  const probe = workload?.readinessProbe;
  const extra = probe ? probe.initialDelaySeconds + probe.periodSeconds : 0;
  const ready: ForecastOutcome[] = merged.map((o) => {
    if (o.window === null) return o;
    if (stuck) return never(`its ${workload!.volume!.type} volume is bound to ${target.name}: the replacement stays Pending`);
    if (!elsewhere) {
      const back = backAt.length === 0 ? null : backAt.reduce((a, b) => (b.toSeconds < a.toSeconds ? b : a));
      if (noneFits) return never(`no other worker carries the labels its required node affinity names (${labelsText(workload!.requiredNodeLabels)}): the replacement stays Pending`);
      if (back === null) return never('no worker is left to schedule it on: every worker is a fault target and the control plane is tainted NoSchedule');
      return { window: windowOf(Math.max(o.window.fromSeconds, back.fromSeconds), Math.max(o.window.toSeconds, back.toSeconds) + REPLACEMENT_READY_SECONDS + extra), when: `${o.when}, scheduled once a target is Ready again (every worker is a target)` };
    }
    if (workload?.volume?.type === 'attachable') return attachableReady(input, target, fate, { window: o.window, when: o.when }, REPLACEMENT_READY_SECONDS + extra);
    return { window: windowOf(o.window.fromSeconds, o.window.toSeconds + REPLACEMENT_READY_SECONDS + extra), when: o.when };
  });
  fate.replacementReady = ready;
  if (happens === 'never') return;
  const readyHappens = ready.every((o) => o.window !== null) ? 'always' : ready.every((o) => o.window === null) ? 'never' : 'maybe';
  const readyMerged = mergeOutcomes(ready);
  if (workload?.volume?.type === 'attachable') {
    items.push(item({
      ...base, event: 'replacement-ready', happens: readyHappens, window: hull(readyMerged.flatMap((o) => (o.window ? [o.window] : []))), outcomes: readyMerged,
      mechanism: 'attach-detach', setting: `maxWaitForUnmountDuration 6 min (kube-controller-manager, no flag), kubelet nodeStatusUpdateFrequency ${input.settings.kubelet.nodeStatusUpdateFrequencyMs / 1000} s`,
      assumption: `the old node's kubelet never reports the volume unmounted (it is down); the kubelet of the new node reports the volume in use at its next status update, retries the mount with its backoff (at most 122 s), then Ready within ${REPLACEMENT_READY_SECONDS} s${extra > 0 ? ` + ${extra} s of its readiness probe` : ''}`,
      because: 'its volume must be detached from the lost node (forced after maxWaitForUnmountDuration, at once with an out-of-service taint) and attached to the new node before the kubelet can mount it',
    }));
    return;
  }
  items.push(item({
    ...base, event: 'replacement-ready', happens: readyHappens, window: hull(readyMerged.flatMap((o) => (o.window ? [o.window] : []))), outcomes: readyMerged,
    mechanism: 'pod-start', setting: probe ? `readinessProbe initialDelaySeconds ${probe.initialDelaySeconds}, periodSeconds ${probe.periodSeconds}` : 'built-in readiness probe (every 1 s)',
    assumption: `scheduled on another node with its image present, Ready within ${REPLACEMENT_READY_SECONDS} s of creation${extra > 0 ? ` + ${extra} s of its readiness probe` : ''} (measured 0.4 to 3.8 s on kind)`,
    because: stuck ? `a replacement of a pod with a ${workload!.volume!.type} volume cannot run elsewhere` : 'the scheduler places it on a Ready node, the kubelet starts it, its readiness probe passes',
  }));
}

/** What the Job controller does with the loss of a Job's pods on the targets, forecast from its spec (see {@link jobLoss}). */
interface JobLoss {
  /** Why the Job fails instead of replacing (FailJob rule, backoffLimit exceeded), or null. */
  jobFailed: string | null;
  /** When the pod may be replaced: its stop (TerminatingOrFailed) or its removal / Failed (Failed). */
  trigger: ForecastOutcome[];
  /**
   * The pod failure backoff, seconds: after the Job's failures at once (jobPodFailureBackoffSeconds), or for an
   * Indexed Job with backoffLimitPerIndex its index's own (jobIndexBackoffSeconds of a first failure: 10 s).
   */
  backoffSeconds: number;
  /** Why the lost pod's index fails and is not replaced (Indexed with backoffLimitPerIndex: FailIndex, or backoffLimitPerIndex 0), or null. */
  indexFailed: string | null;
  /** The mechanism of its replacement: `job`, or `job-index-backoff` for an Indexed Job with backoffLimitPerIndex. */
  mechanism: 'job' | 'job-index-backoff';
  /** The last failure's finish time as the controller reads it (getFinishedTime), seconds since time zero; null when unknown. */
  finish: Window | null;
  setting: string;
  assumption: string;
  because: string;
}

/**
 * The Job controller's reading of the loss of the Job's pods on the targets, from the Job's spec and the pre-fault
 * placement (pkg/controller/job/job_controller.go syncJob / manageJob / isPodFailed, backoff_utils.go
 * newBackoffRecord, getRemainingTimeForFailuresCount and getFinishedTime, pod_failure_policy.go
 * matchPodFailurePolicy, k8s.io/kubernetes v1.37.2 in the Go module cache; the same rules as the causal model,
 * lib/analyze/jobs.ts and predict-jobs.ts, whose formulas it reuses):
 * - a pod is replaceable once it counts as failed: with podReplacementPolicy TerminatingOrFailed (the default
 *   without a podFailurePolicy) once it is terminating or Failed (its stop); with Failed (the default with one) only
 *   once it is Failed or gone (its removal: PodGC marks it Failed then deletes it);
 * - each lost pod's failure is matched against the podFailurePolicy rules (podFailureAction) as the pod the fault's
 *   path leaves: PodGC of a deleted Node and the taint eviction controller add the condition DisruptionTarget=True; a
 *   force-delete step adds none; no container is seen terminated (its node is down), so no onExitCodes rule matches;
 * - a FailJob match, or more failures counted (not Ignore) than backoffLimit, fail the Job: nothing is replaced;
 * - else the replacement waits the pod failure backoff for every lost pod (ignored failures count in the backoff
 *   record, newBackoffRecord): 10 s × 2^(n − 1) capped at 600 s, from the last failure's finish time: the Ready=False
 *   transition of its node's detection (MarkPodsNotReady) when it comes, else its deletionTimestamp − grace (the
 *   pod's stop).
 * An Indexed Job with backoffLimitPerIndex (mechanism `job-index-backoff`; indexed_job_utils.go isIndexFailed,
 * backoff_utils.go getRemainingTimePerIndex, job_controller.go getPodCreationInfoForIndependentIndexes and syncJob,
 * read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2, the same) instead:
 * - each lost pod is its index's first failure (job-index-failure-count 0): its index fails, not replaced, when the
 *   failure matches a FailIndex rule or is counted with backoffLimitPerIndex 0; the Job fails when more indexes fail
 *   than maxFailedIndexes (MaxFailedIndexesExceeded) or every index fails (FailedIndexes), or on FailJob or backoffLimit
 *   as above;
 * - else each index is replaced after its own backoff, 10 s × 2^0 = 10 s from its pod's finish time, however many
 *   indexes were lost (the Job's backoff record is not used).
 * Assumes the Job had no failure before the fault, and that its pods on the targets fail together (one PodGC pass or
 * eviction per node: within one sync batch).
 */
function jobLoss(input: PodsForecastInput, target: TargetNodeForecast, workload: WorkloadSpec, fate: PodFate): JobLoss {
  const spec = workload.job!;
  const rules = spec.podFailurePolicy?.rules ?? null;
  const policy = spec.podReplacementPolicy ?? (rules !== null ? 'Failed' : 'TerminatingOrFailed');
  const targetNames = new Set(input.targets.map((t) => t.name));
  const lost = input.pods.filter((p) => p.workload === workload.name && targetNames.has(p.node)).length;
  const forceDelete = stepsOn(input.experiment.steps, 'force-delete-pods', target.name)[0];
  const disruption = !forceDelete;
  const failedPod = { status: { conditions: disruption ? [{ type: 'DisruptionTarget', status: 'True' }] : [] } };
  const action = podFailureAction(rules, failedPod);
  const counted = action === 'Ignore' ? 0 : lost;
  const perIndex = spec.completionMode === 'Indexed' && spec.backoffLimitPerIndex != null ? spec.backoffLimitPerIndex : null;
  const condition = disruption ? 'DisruptionTarget=True' : 'no condition';
  // Each lost pod is its index's first failure: its job-index-failure-count annotation is 0 (isIndexFailed).
  const indexFailed = perIndex === null ? null
    : action === 'FailIndex' ? `its failure (${condition}) matches a podFailurePolicy rule with action FailIndex`
      : action !== 'Ignore' && perIndex === 0 ? 'its failure is counted and backoffLimitPerIndex is 0' : null;
  const failedIndexes = indexFailed !== null ? lost : 0;
  const jobFailed = action === 'FailJob'
    ? `its pods' failure (${condition}) matches a podFailurePolicy rule with action FailJob`
    : counted > spec.backoffLimit ? `${counted === 1 ? '1 failure counted exceeds' : `${counted} failures counted exceed`} backoffLimit ${spec.backoffLimit} (BackoffLimitExceeded)`
      : spec.maxFailedIndexes != null && failedIndexes > spec.maxFailedIndexes ? `${failedIndexes} failed index${failedIndexes === 1 ? '' : 'es'} exceed maxFailedIndexes ${spec.maxFailedIndexes} (MaxFailedIndexesExceeded)`
        : failedIndexes > 0 && failedIndexes >= spec.completions ? `every index of ${spec.completions} has failed (FailedIndexes): ${indexFailed}` : null;
  const backoffSeconds = perIndex !== null ? jobIndexBackoffSeconds(0) : jobPodFailureBackoffSeconds(lost);
  const trigger = policy === 'Failed' ? fate.deleted : fate.stopped;
  const detection = target.detection !== null && target.detection.status === 'Unknown' && target.detection.happens === 'always' ? target.detection.window : null;
  const stops = fate.stopped.flatMap((o) => (o.window ? [o.window] : []));
  const finish = detection ?? hull(stops);
  // Without a policy there are no rules to match: the controller counts every failure.
  const actionText = rules === null ? `no podFailurePolicy, so ${lost === 1 ? 'it is' : 'each is'} counted`
    : action === null ? `no podFailurePolicy rule matches, so ${lost === 1 ? 'it is' : 'each is'} counted` : `podFailurePolicy action ${action}`;
  const setting = `backoffLimit ${spec.backoffLimit}, podReplacementPolicy ${policy}${spec.podReplacementPolicy === null ? ' (defaulted)' : ''}${rules !== null ? `, podFailurePolicy of ${countText(rules.length, 'rule')}` : ''}`;
  const assumption = `${lost === 1 ? 'the Job\'s one pod on the targets fails' : `the Job's ${lost} pods on the targets fail together (within one ${JOB_SYNC_BATCH_SECONDS} s sync batch)`}, no pod of the Job failed before; each lost pod is ${disruption ? 'marked DisruptionTarget=True (PodGC / taint eviction)' : 'force-deleted without a condition'}; its finish time is ${detection !== null ? 'its node\'s detection (Ready=False)' : 'its stop (deletionTimestamp − grace)'}`;
  const replaces = `once it ${policy === 'Failed' ? 'is Failed or gone' : 'is terminating or Failed'}`;
  if (perIndex !== null) {
    return {
      jobFailed, indexFailed, trigger, backoffSeconds, finish, mechanism: 'job-index-backoff',
      setting: `completionMode Indexed, backoffLimitPerIndex ${perIndex}${spec.maxFailedIndexes != null ? `, maxFailedIndexes ${spec.maxFailedIndexes}` : ''}, ${setting}; pod failure backoff per index, 10 s doubling per failure of the index, max 600 s`,
      assumption: `${assumption}; each lost pod is its index's first failure (job-index-failure-count 0)`,
      because: jobFailed !== null ? `Job ${workload.name} fails: ${jobFailed}`
        : indexFailed !== null ? `not replaced (index failed): ${indexFailed} (isIndexFailed)`
          : `${lost === 1 ? '1 index lost' : `${lost} indexes lost at once`} (${actionText}; job-index-failure-count 0 < backoffLimitPerIndex ${perIndex}): the Job controller replaces each index ${replaces}, after that index's own pod failure backoff ${secondsText(backoffSeconds)} (1 failure of the index) from its pod's finish time, not the Job's ${secondsText(jobPodFailureBackoffSeconds(lost))} for ${countText(lost, 'failure')} (getRemainingTimePerIndex)`,
    };
  }
  return {
    jobFailed, indexFailed: null, trigger, backoffSeconds, finish, mechanism: 'job',
    setting: `${setting}; pod failure backoff 10 s doubling, max 600 s`,
    assumption,
    because: jobFailed !== null ? `Job ${workload.name} fails: ${jobFailed}` : `${lost === 1 ? '1 failure' : `${lost} failures at once`} (${actionText}; ${counted} counted ≤ backoffLimit ${spec.backoffLimit}): the Job controller replaces ${lost === 1 ? 'the pod' : 'each pod'} ${replaces}, after the pod failure backoff ${secondsText(backoffSeconds)} from the last failure's finish time`,
  };
}

/**
 * A pod the Job controller's sync finds terminating (deletionTimestamp, phase not Succeeded or Failed) is marked
 * Failed by its kubelet within the pod's terminationGracePeriodSeconds and this many seconds (SIGKILL, the status
 * write), seconds: an assumption for the Job's pods on nodes that stay up, which the controller deletes at
 * FailureTarget (deleteActivePods).
 */
export const KUBELET_POD_KILL_SECONDS = 2;

/**
 * The Job's condition Failed=True (event `job-failed`), forecast from the Job's spec, the settings and the pre-fault
 * placement only (k8s.io/kubernetes v1.37.2 pkg/controller/job/job_controller.go syncJob, trackJobStatusAndRemoveFinalizers,
 * enactJobFinished, isPodFailed, enqueueSyncJobBatched; pkg/controller/controller_utils.go CountTerminatingPods,
 * IsPodTerminating; mechanism `job-failed`):
 * - whether it fails is {@link jobLoss}'s verdict (a FailJob match, or more failures counted than backoffLimit); when
 *   it does not, the item is `never` with jobLoss's reason;
 * - the failure is counted by the first sync after the lost pods count as failed (isPodFailed): `count`, the hull of
 *   their trigger windows (jobLoss `trigger`: their stop with podReplacementPolicy TerminatingOrFailed, their removal
 *   or Failed phase with Failed), which syncs only after SyncJobBatchPeriod (JOB_SYNC_BATCH_SECONDS, 1 s); that sync
 *   adds FailureTarget=True and deletes the Job's active pods;
 * - Failed=True is set (enactJobFinished) only once no pod of the Job is terminating. A lost pod PodGC removes
 *   (a deleted Node, an out-of-service taint) is marked Failed before its deletion (markFailedAndDeletePodWithCondition),
 *   one removed by its kubelet back is terminal first: neither is terminating past its removal window
 *   (PodFate.deleted). A pod evicted by the taint eviction controller while its node is down stays terminating until
 *   then; none coming, Failed never comes (FailureTarget only). A force-deleted pod (grace 0) is held by the Job's
 *   tracking finalizer until the counting sync removes it: gone one sync batch after the count. The Job's pods on
 *   other nodes are deleted at FailureTarget and marked Failed by their kubelet within terminationGracePeriodSeconds
 *   + KUBELET_POD_KILL_SECONDS. The pod update that ends the last terminating pod reaches a sync one batch later.
 * Window, seconds since time zero: [max(count.from, gone.from) − 1, max(count.to, gone.to, others) + JOB_SYNC_BATCH_SECONDS],
 * where gone is the hull of the lost pods' removal windows (+ JOB_SYNC_BATCH_SECONDS for a force-deleted pod's
 * finalizer), others = count.to + JOB_SYNC_BATCH_SECONDS + terminationGracePeriodSeconds + KUBELET_POD_KILL_SECONDS when
 * the Job has pods on nodes that are not targets; −1 s for the lastTransitionTime's truncation to the second; the
 * windows' upper ends already hold the client's observation latency, which covers the sync's own API writes
 * (the status update with FailureTarget and the finalizer removals come before Failed's stamp).
 */
function jobFailedItem(input: PodsForecastInput, workload: WorkloadSpec, lost: readonly { target: TargetNodeForecast; fate: PodFate }[]): ForecastItem {
  const losses = lost.map((l) => jobLoss(input, l.target, workload, l.fate));
  const failing = losses.find((l) => l.jobFailed !== null) ?? losses[0]!;
  const base = { event: 'job-failed' as const, node: lost[0]!.target.name, workload: workload.name, mechanism: 'job-failed' as const, setting: failing.setting };
  if (failing.jobFailed === null) {
    return item({ ...base, happens: 'never', window: null, outcomes: [never(`the Job does not fail: ${failing.because}`)], assumption: failing.assumption, because: `no FailureTarget, so no Failed: ${failing.because}` });
  }
  const batch = JOB_SYNC_BATCH_SECONDS;
  const nevers: ForecastOutcome[] = [];
  const counts = losses.flatMap((l) => l.trigger.flatMap((o) => (o.window ? [o.window] : [])));
  for (const l of losses) for (const o of l.trigger) if (o.window === null) nevers.push(never(`a lost pod never counts as failed (${o.when}): no FailureTarget`));
  const count = hull(counts);
  if (count === null) {
    return item({ ...base, happens: 'never', window: null, outcomes: mergeOutcomes(nevers.length > 0 ? nevers : [never('its pods on the targets never count as failed')]), assumption: failing.assumption, because: `the Job would fail (${failing.jobFailed}), but its lost pods never count as failed` });
  }
  // When each lost pod is no longer terminating (removed, or Failed just before its removal).
  const gone: Window[] = [];
  // A lost pod terminating in every outcome with nothing to remove it: Failed never comes (no window outcome).
  let stuck = false;
  lost.forEach(({ target, fate }) => {
    const removals = fate.deleted.flatMap((o) => (o.window ? [o.window] : []));
    for (const o of fate.deleted) if (o.window === null) nevers.push(never(`${fate.pod.name} is not removed (${o.when}): if it is terminating, FailureTarget only, enactJobFinished waits`));
    const stopped = fate.stopped.some((o) => o.window !== null);
    if (removals.length === 0) {
      if (stopped) {
        stuck = true;
        nevers.push(never(`${fate.pod.name} stays terminating on ${target.name} (nothing removes it while its node is down): FailureTarget only, enactJobFinished waits for terminating pods`));
      }
      return;
    }
    const removal = hull(removals)!;
    const forceDelete = stepsOn(input.experiment.steps, 'force-delete-pods', target.name)[0] && target.deleted === null && !stepsOn(input.experiment.steps, 'delete-node-object', target.name)[0];
    gone.push(forceDelete ? windowOf(removal.fromSeconds, Math.max(removal.toSeconds, count.toSeconds + batch)) : removal);
  });
  const targetNames = new Set(input.targets.map((t) => t.name));
  const others = input.pods.filter((p) => p.workload === workload.name && !targetNames.has(p.node));
  const grace = workload.terminationGracePeriodSeconds;
  const goneHull = hull(gone);
  const from = Math.max(count.fromSeconds, goneHull?.fromSeconds ?? -Infinity) - 1;
  const to = Math.max(count.toSeconds, goneHull?.toSeconds ?? -Infinity, others.length > 0 ? count.toSeconds + batch + grace + KUBELET_POD_KILL_SECONDS : -Infinity) + batch;
  const window = windowOf(from, to);
  const outcomes = mergeOutcomes([...(stuck ? [] : [{ window, when: `the sync counting the failures adds FailureTarget, as ${failing.jobFailed}; Failed once no pod of the Job is terminating` }]), ...nevers]);
  const happens = outcomes.every((o) => o.window !== null) ? 'always' : outcomes.every((o) => o.window === null) ? 'never' : 'maybe';
  return item({
    ...base, happens, window: hull(outcomes.flatMap((o) => (o.window ? [o.window] : []))), outcomes,
    setting: `${failing.setting}; SyncJobBatchPeriod ${batch} s${others.length > 0 ? `; terminationGracePeriodSeconds ${grace} s` : ''}`,
    assumption: `${failing.assumption}; the counting sync comes within one ${batch} s sync batch of the last failure it counts, and Failed's lastTransitionTime (truncated to the second, −1 s) is stamped in that sync or the one a batch after the last terminating pod is gone${others.length === 1 ? `; the Job's pod on another node, deleted at FailureTarget, is marked Failed by its kubelet within terminationGracePeriodSeconds + ${KUBELET_POD_KILL_SECONDS} s` : others.length > 1 ? `; the Job's ${others.length} pods on other nodes, deleted at FailureTarget, are marked Failed by their kubelets within terminationGracePeriodSeconds + ${KUBELET_POD_KILL_SECONDS} s` : ''}`,
    because: `Job ${workload.name} fails: ${failing.jobFailed}; the Job controller adds FailureTarget=True at the sync that counts the failures and Failed=True once none of its pods is terminating (enactJobFinished)`,
  });
}
