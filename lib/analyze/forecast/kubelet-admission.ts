// A restarted kubelet admits every pod bound to it again, and rejects one whose required node affinity its Node no
// longer matches (mechanism kubelet-admission of lib/analyze/mechanisms.ts): the forecast replays the experiment's
// label steps on the node and checks the workload's required labels at each kubelet start.
import type { Experiment, StepSpec, WorkloadSpec } from '../../spec/types.js';
import { msToSeconds } from '../clock.js';
import { secondsText } from '../predict-common.js';
import type { Window } from '../types.js';
import { OBSERVATION_LATENCY_SECONDS, windowOf } from '../windows.js';
import { faultEffect } from './fault-effects.js';
import type { TargetNodeForecast } from './nodes.js';

/**
 * From a kubelet's restart command's return to its rejected pod seen terminal (phase Failed or Succeeded, client
 * receive time), seconds: the kubelet starts, its pod source waits for its Node informer to sync
 * (pkg/kubelet/config/apiserver.go NewSourceApiserver), admits the pod again and rejects it, stops its container
 * (SIGTERM; rebootlab's image exits at once) and the status manager writes the status. The assumption the catalog
 * experiment label-removed-kubelet-restart states; measured 5.2 to 6.5 s after the restart step's start on kind
 * v1.37.2 (3 runs, 5 Dec 2026).
 */
export const KUBELET_READMISSION_SECONDS = 10;

/** A pod its restarted kubelet rejects: when the kubelet starts, the window of its terminal status, and why. */
export interface AdmissionRejection {
  /** The kubelet start that rejects it (its restart command's start), seconds since time zero. */
  startSeconds: number;
  /** When the pod is seen terminal, seconds since time zero (client receive time). */
  window: Window;
  /** The required label the node no longer carries (or carries with another value), `key=value`. */
  label: string;
  /** One line: what rejects it. */
  when: string;
  /** One line: the assumption behind the window's width. */
  assumption: string;
}

/** Whether a step acts on `node` (a step without a node acts on every fault target). */
function actsOn(step: StepSpec, node: string, isTarget: boolean): boolean {
  return step.node === node || (step.node === null && isTarget);
}

/**
 * The labels of `node` once the label steps (`label-node`, `unlabel-node`) before position `beforeIndex` of
 * `experiment.steps` have run, from its labels before the fault (`base`). Steps run in list order (by time, ties in
 * file order), so the position decides.
 */
export function labelsAfterSteps(experiment: Pick<Experiment, 'steps'>, node: string, isTarget: boolean, base: Readonly<Record<string, string>>, beforeIndex: number): Record<string, string> {
  const labels = { ...base };
  experiment.steps.slice(0, beforeIndex).forEach((step) => {
    if (!actsOn(step, node, isTarget) || step.args.label === undefined) return;
    if (step.action === 'label-node') labels[step.args.label.key] = step.args.label.value;
    if (step.action === 'unlabel-node') delete labels[step.args.label.key];
  });
  return labels;
}

/** The first of `required` (`key → value`) that `labels` lacks or holds with another value, as `key=value`; null when all match. */
export function unmatchedLabel(required: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): string | null {
  const key = Object.keys(required).find((k) => labels[k] !== required[k]);
  return key === undefined ? null : `${key}=${required[key]}`;
}

/**
 * Whether the kubelet of `target` rejects a pod of workload `w` when it starts again while observed, and when.
 * Mechanism kubelet-admission (k8s.io/kubernetes pkg/kubelet/kubelet.go HandlePodAdditions → rejectPod,
 * pkg/kubelet/lifecycle/predicate.go generalFilter → pkg/scheduler/eventhandlers.go AdmissionCheck,
 * GetRequiredNodeAffinity(pod).Match; read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2, the same): a restarted kubelet
 * admits every non-terminal pod bound to it again and rejects one whose required node affinity the Node (as its
 * informer has it) no longer matches: Event NodeAffinity, status Failed (the container stopped may end it Succeeded),
 * so it no longer counts for its controller. Required node affinity is IgnoredDuringExecution: a removed label alone
 * does nothing to a running pod.
 * The kubelet starts: a `kubelet-restart` fault at the target's command start (before any step), and each
 * `restart-kubelet` step on the target. The node's labels at a start are its pre-fault `labels` with the label steps
 * before it applied. Only rebootlab's own workloads' `requiredNodeLabels` are known here (a manifest's affinity is
 * not read). Returns null when no start finds the node unmatched.
 */
export function admissionRejection(experiment: Pick<Experiment, 'steps' | 'fault' | 'cluster'>, target: TargetNodeForecast, labels: Readonly<Record<string, string>>, w: WorkloadSpec): AdmissionRejection | null {
  if (Object.keys(w.requiredNodeLabels).length === 0) return null;
  const starts: { seconds: number; stepIndex: number; what: string }[] = [];
  if (experiment.fault.type === 'kubelet-restart') starts.push({ seconds: target.offSeconds, stepIndex: 0, what: 'the kubelet-restart fault' });
  experiment.steps.forEach((s, i) => {
    if (s.action === 'restart-kubelet' && actsOn(s, target.name, true)) starts.push({ seconds: msToSeconds(s.afterMs), stepIndex: i, what: `the restart-kubelet step at ${secondsText(msToSeconds(s.afterMs))}` });
  });
  for (const start of starts) {
    const label = unmatchedLabel(w.requiredNodeLabels, labelsAfterSteps(experiment, target.name, true, labels, start.stepIndex));
    if (label === null) continue;
    // The restart command's return (systemctl restart kubelet), whatever the fault itself was.
    const command = faultEffect('kubelet-restart', experiment.cluster.provider);
    const to = start.seconds + command.commandSeconds[1] + KUBELET_READMISSION_SECONDS + OBSERVATION_LATENCY_SECONDS;
    return {
      startSeconds: start.seconds, window: windowOf(start.seconds - 0.1, to), label,
      assumption: `the restart command returns within ${secondsText(command.commandSeconds[1])} of its start (${command.measured}); the kubelet then rejects the pod and its terminal status is written within ${secondsText(KUBELET_READMISSION_SECONDS)} (its Node informer synced, the container stopped on SIGTERM: measured 5.2 to 6.5 s after the step's start, 3 runs)`,
      when: `${start.what} restarts the kubelet, which admits the pod again and rejects it (NodeAffinity: ${target.name} no longer carries ${label})`,
    };
  }
  return null;
}
