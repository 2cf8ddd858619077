// The node side of a graceful node shutdown (fault type shutdown) after the kubelet's Ready=False: the node lifecycle
// controller's not-ready taints, the node stop that silences its heartbeats, Ready=Unknown and the swap to the
// unreachable taints, and Ready again after the restore (k8s.io/kubernetes pkg/controller/nodelifecycle
// node_lifecycle_controller.go v1.37.2: doNoScheduleTaintingPass, monitorNodeHealth, processTaintBaseEviction).
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Experiment } from '../../spec/types.js';
import { msToSeconds } from '../clock.js';
import { hasBehaviourSince } from '../mechanisms.js';
import { NOT_READY_TAINT, secondsText, UNREACHABLE_TAINT } from '../predict-common.js';
import type { Window } from '../types.js';
import { detectionWindowAfterHeartbeatIn, evictionWindow, inPassTaintWindow, round3 } from '../windows.js';
import type { FaultEffect } from './fault-effects.js';
import { item } from './items.js';
import { graceText, noScheduleItem, readyAgainItems, restoreStartOf, type TargetNodeForecast } from './nodes.js';
import { tolerationSecondsOf } from './tolerations.js';
import type { ForecastItem, PreFaultPod } from './types.js';
import type { TaintForecast } from './zones.js';

/**
 * Named allowance, seconds: once the kubelet released its delay inhibitor lock (at most shutdownGracePeriod after
 * PrepareForShutdown; logind's InhibitDelayMaxSec, which the kubelet sets to it, caps the wait), systemd stops
 * kubelet.service and the node container exits within this long. The recorded kind run: its pods ended by 1.6 s,
 * the container exited 3.5 s after the command started.
 */
export const POWEROFF_AFTER_LOCK_SECONDS = 5;

/**
 * Named allowance, seconds: the fault command returns within this long of the container's stop (Docker's state polled
 * every 200 ms, lib/cluster/kind/actions.ts), and the timed restore counts fault.duration from that return.
 */
export const SHUTDOWN_STOP_SEEN_WITHIN_SECONDS = 1;

/** What {@link forecastShutdownNode} needs for one target node. */
export interface ShutdownNodeInput {
  experiment: Experiment;
  settings: TimeoutSettings;
  node: string;
  /** When this node's `systemctl poweroff` starts, seconds since time zero. */
  offSeconds: number;
  /** Within how long of the command's start the kubelet posts Ready=False (PrepareForShutdown), seconds. */
  preparedWithinSeconds: number;
  /** The kubelet's shutdownGracePeriod, seconds (> 0). */
  graceSeconds: number;
  /** The node-not-ready-kubelet item's window: Ready=False's lastTransitionTime (truncated), seconds since time zero. */
  notReadyWindow: Window;
  /** The fault's effect on this provider (fault-effects.ts: Ready again after the restore). */
  effect: FaultEffect;
  kubeletVersion: string;
  kubernetesVersion: string;
}

/** Per target, what {@link forecastShutdownNode} gives. */
export interface ShutdownNodeForecast {
  /**
   * The node as the zone part (forecastTaints) reads it: detection = the kubelet's Ready=False (not-ready, status
   * False, the window of `notReadyWindow`), readyAgain when forecast.
   */
  target: TargetNodeForecast;
  /** Where the node stops (its last heartbeat at the latest), seconds since time zero: [off, off + prepared + grace + allowance]. */
  stop: Window;
  /** The items that do not need the zone replay: NoSchedule not-ready; Ready=Unknown and its NoSchedule taint; Ready again. */
  items: ForecastItem[];
  /** Builds the unreachable NoExecute item once the not-ready one is known (null when Unknown is not forecast). */
  unreachableNoExecute: ((notReadyNoExecute: ForecastItem | undefined) => ForecastItem | string) | null;
  notForecast: string[];
}

/**
 * The node side of a graceful shutdown of one target, after the kubelet's Ready=False (`notReadyWindow`):
 * - NoSchedule not-ready: the node update worker (doNoScheduleTaintingPass, not rate limited) on the status update.
 *   (The NoExecute not-ready taint comes from the zone replay, forecastTaints, with `target.detection` status False.)
 * - The node stop S ∈ [off, off + prepared + shutdownGracePeriod + {@link POWEROFF_AFTER_LOCK_SECONDS}]. The
 *   Ready=False post is a heartbeat (a new lastHeartbeatTime: tryUpdateNodeHealth v1.37.2), the kubelet renews its
 *   Lease until it stops: the last heartbeat H ∈ [off, S_max]. Ready=Unknown: detectionWindowAfterHeartbeatIn
 *   (lib/analyze/windows.ts) over that range. Forecast only when the silence surely outlasts the grace period and
 *   two monitor passes: fault.duration + the earliest Ready again after docker start > G + 2M (the restore counts
 *   the duration from the command's return, after S ≥ H); a restore step or a shorter duration: not forecast.
 * - NoSchedule unreachable: doNoScheduleTaintingPass swaps not-ready for unreachable on that update.
 * - NoExecute unreachable: processTaintBaseEviction (v1.37.2) swaps a present not-ready NoExecute taint for the
 *   unreachable one at once in the pass that marks Unknown (SwapNodeControllerTaint, no token): inPassTaintWindow;
 *   only when the not-ready NoExecute taint always comes before that pass.
 * - Ready again: restore start = the command's return (≤ S_max + {@link SHUTDOWN_STOP_SEEN_WITHIN_SECONDS}) +
 *   duration, then the effect's Ready again after docker start (readyAgainItems, as a power-off).
 * Pure.
 */
export function forecastShutdownNode(input: ShutdownNodeInput): ShutdownNodeForecast {
  const { experiment, settings, node, offSeconds: off } = input;
  const notForecast: string[] = [];
  const stopTo = off + input.preparedWithinSeconds + input.graceSeconds + POWEROFF_AFTER_LOCK_SECONDS;
  const stop: Window = { fromSeconds: round3(off), toSeconds: round3(stopTo) };
  const commandSeconds: readonly [number, number] = [0, round3(stopTo - off + SHUTDOWN_STOP_SEEN_WITHIN_SECONDS)];
  const effect: FaultEffect = { ...input.effect, commandSeconds };
  const restoreStart = restoreStartOf(experiment, effect, off);
  const because = 'the kubelet reports Ready=False itself ("node is shutting down") at PrepareForShutdown';
  const target: TargetNodeForecast = {
    name: node, offSeconds: off, effect, restoreStart, readyAgain: null, deleted: null, kubeletVersion: input.kubeletVersion,
    detection: { key: NOT_READY_TAINT, status: 'False', window: input.notReadyWindow, happens: 'always', because },
  };
  const items: ForecastItem[] = [noScheduleItem(target, input.notReadyWindow, 'always', 'False')];
  const stopText = `the node stops ${secondsText(stop.fromSeconds)} to ${secondsText(stop.toSeconds)}: PrepareForShutdown within ${input.preparedWithinSeconds} s of the command, the kubelet releases its inhibitor lock at most shutdownGracePeriod ${secondsText(input.graceSeconds)} later (logind InhibitDelayMaxSec), and kubelet.service and the container stop within ${POWEROFF_AFTER_LOCK_SECONDS} s of the release`;

  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const monitor = msToSeconds(settings.controllerManager.nodeMonitorPeriodMs);
  const back = effect.readyAgainAfterRestoreSeconds;
  const duration = experiment.fault.durationMs === null ? null : msToSeconds(experiment.fault.durationMs);
  const restoreStep = experiment.steps.some((s) => s.action === 'restore');
  // The silence lasts at least the duration + the earliest Ready again (the restore counts from the stop's return).
  const silenceFrom = duration === null ? Infinity : duration + Math.max(0, back?.[0] ?? 0);
  if (restoreStep || silenceFrom <= grace + 2 * monitor) {
    notForecast.push(`${node} Ready=Unknown and the unreachable taints after the node stops: ${restoreStep ? 'a restore step may start it again before the grace period runs out' : `the fault's duration (${secondsText(duration ?? 0)}) may end before --node-monitor-grace-period ${secondsText(grace)} and two monitor passes ran out`}; not forecast`);
    if (!restoreStep) items.push(...readyAgainItems(settings, target, 'always', notForecast, experiment.steps));
    return { target, stop, items, unreachableNoExecute: null, notForecast };
  }
  const detection = detectionWindowAfterHeartbeatIn(settings, off, stopTo);
  items.push(item({
    event: 'node-not-ready', node, happens: 'always', window: detection, mechanism: 'node-health', setting: `${graceText(settings)}, kubelet shutdownGracePeriod ${secondsText(input.graceSeconds)}`,
    assumption: `the last heartbeat is the Ready=False post (at or after the command's start) or a later Lease renewal before the kubelet stops: ${stopText}; the monitor pass phase is not known (2 × --node-monitor-period); lastTransitionTime is truncated to the second`,
    because: `the stopped node sends no heartbeat for more than the grace period, seen at a monitor pass (${graceText(settings)})`,
  }));
  const unknownTarget: TargetNodeForecast = { ...target, detection: { key: UNREACHABLE_TAINT, status: 'Unknown', window: detection, happens: 'always', because } };
  items.push(noScheduleItem(unknownTarget, detection, 'always', 'Unknown'));
  items.push(...readyAgainItems(settings, target, 'always', notForecast, experiment.steps));

  const swapRead = hasBehaviourSince(input.kubernetesVersion, 'v1.34');
  const unreachableNoExecute = (notReady: ForecastItem | undefined): ForecastItem | string => {
    if (!swapRead) return `${node} ${UNREACHABLE_TAINT}:NoExecute after Ready=Unknown: the taint swap was read in v1.34.4 to v1.37.2, not for ${input.kubernetesVersion}`;
    if (notReady === undefined || notReady.happens !== 'always' || notReady.window === null || notReady.window.toSeconds >= detection.fromSeconds + 1) {
      return `${node} ${UNREACHABLE_TAINT}:NoExecute after Ready=Unknown: the ${NOT_READY_TAINT}:NoExecute taint may not be there when the node is marked Unknown (then it waits for a zone token); not forecast`;
    }
    const taint = inPassTaintWindow(detection);
    return item({
      event: 'no-execute-taint', node, taintKey: UNREACHABLE_TAINT, happens: 'always', window: taint.window, mechanism: 'no-execute-taint-swap',
      setting: graceText(settings),
      assumption: `the ${NOT_READY_TAINT}:NoExecute taint is written (by ${secondsText(notReady.window.toSeconds)}) before the pass that marks the node Unknown (from ${secondsText(round3(detection.fromSeconds + 1))}); the swap is written at or after that transition and received within the observation latency`,
      because: `in the monitor pass that marks it Unknown, processTaintBaseEviction finds the ${NOT_READY_TAINT}:NoExecute taint and swaps it for ${UNREACHABLE_TAINT}:NoExecute at once (SwapNodeControllerTaint, no zone token)`,
    });
  };
  return { target, stop, items, unreachableNoExecute, notForecast };
}

/** What {@link forecastShutdownEvictions} needs. */
export interface ShutdownEvictionsInput {
  /** The targets as forecastShutdownNode made them (readyAgain set when forecast). */
  targets: readonly TargetNodeForecast[];
  /** The not-ready NoExecute taints from the zone replay (forecastTaints), per target. */
  taints: readonly TaintForecast[];
  /** Every pod before the fault. */
  pods: readonly PreFaultPod[];
}

/**
 * The pods a graceful shutdown left terminal (Failed or Succeeded) on a target, deleted by the taint eviction
 * controller (pkg/controller/tainteviction/taint_eviction.go v1.37.2): it lists every pod bound to the node
 * (getPodsAssignedToNode: no phase filter), so a terminal pod's countdown starts when it sees the not-ready NoExecute
 * taint and fires its tolerationSeconds later (processPodOnNode; evictionWindow, lib/analyze/windows.ts). The later
 * swap to unreachable keeps that countdown (a scheduled eviction created earlier is kept when its start + the new
 * toleration comes first) unless the pod tolerates unreachable forever (then it is cancelled). The node Ready again
 * before it runs out removes the taint and cancels it.
 * Only for a ReplicaSet's or a standalone pod: the DaemonSet controller deletes a Failed daemon pod itself
 * (podsShouldBeOnNode, pkg/controller/daemon/daemon_controller.go), the StatefulSet controller a terminal one
 * (processReplica, pkg/controller/statefulset/stateful_set_control.go), the Job controller tracks its own (all read in
 * v1.37.2); those are listed as not forecast.
 * @returns the pod-eviction items (taint key not-ready) and the not-forecast lines. Pure.
 */
export function forecastShutdownEvictions(input: ShutdownEvictionsInput): { items: ForecastItem[]; notForecast: string[] } {
  const items: ForecastItem[] = [];
  const notForecast: string[] = [];
  for (const target of input.targets) {
    const taint = input.taints.find((t) => t.node === target.name && t.key === NOT_READY_TAINT);
    const onNode = input.pods.filter((p) => p.node === target.name);
    const others = onNode.filter((p) => !(p.ownerKind === 'ReplicaSet' || p.ownerKind === null));
    if (others.length > 0) notForecast.push(`${target.name}: the deletion of its ${[...new Set(others.map((p) => p.ownerKind))].join(', ')} pods left Failed by the shutdown (their controller deletes or tracks a Failed pod itself): not forecast`);
    for (const pod of onNode.filter((p) => p.ownerKind === 'ReplicaSet' || p.ownerKind === null)) {
      const name = `${pod.namespace}/${pod.name}`;
      const notReady = tolerationSecondsOf(pod.tolerations, [{ key: NOT_READY_TAINT, effect: 'NoExecute' }]);
      const unreachable = tolerationSecondsOf(pod.tolerations, [{ key: UNREACHABLE_TAINT, effect: 'NoExecute' }]);
      if (taint === undefined || taint.outcomes.length !== 1 || taint.outcomes[0]!.window === null) {
        notForecast.push(`${name} deleted by the taint eviction controller: its node's ${NOT_READY_TAINT}:NoExecute taint is not surely written; not forecast`);
        continue;
      }
      if (notReady === null || typeof unreachable !== 'number') {
        notForecast.push(`${name} deleted by the taint eviction controller: it tolerates ${notReady === null ? NOT_READY_TAINT : UNREACHABLE_TAINT}:NoExecute ${unreachable === 'untolerated' ? 'not at all' : 'forever'}, which the model of the swap does not cover; not forecast`);
        continue;
      }
      const seconds = notReady === 'untolerated' ? 0 : notReady;
      const taintWindow = taint.outcomes[0]!.window;
      const window = evictionWindow({ taintSeenFromSeconds: taint.seenFromSeconds[0] ?? taintWindow.fromSeconds, taintReceivedToSeconds: taintWindow.toSeconds, tolerationSeconds: seconds });
      const back = target.readyAgain;
      // Ready again first: a monitor pass at or after it removes the taint (markNodeAsReachable), cancelling the countdown.
      if (back !== null && back.fromSeconds <= window.toSeconds) {
        notForecast.push(`${name} deleted by the taint eviction controller: the node may be Ready again (from ${secondsText(back.fromSeconds)}) before its ${secondsText(seconds)} toleration runs out; not forecast`);
        continue;
      }
      items.push(item({
        event: 'pod-eviction', node: target.name, pod: name, workload: pod.workload, taintKey: NOT_READY_TAINT, happens: 'always', window,
        mechanism: 'taint-eviction', setting: `tolerationSeconds for ${NOT_READY_TAINT}: ${notReady === 'untolerated' ? 'not tolerated' : `${notReady} s`} (kube-apiserver --default-not-ready-toleration-seconds unless the pod sets it)`,
        assumption: `the countdown starts when the ${NOT_READY_TAINT}:NoExecute taint is written (its window); the swap to ${UNREACHABLE_TAINT} (tolerated ${unreachable} s) keeps it; the node is not Ready again before it fires (Ready again from ${back === null ? 'never while observed' : secondsText(back.fromSeconds)}); the eviction's write and watch add 1 s + the observation latency`,
        because: `the taint eviction controller does not skip a terminal pod (getPodsAssignedToNode, no phase filter): the ${pod.ownerKind === null ? 'standalone' : 'ReplicaSet\'s'} pod the shutdown left ${pod.ownerKind === null ? 'terminal' : 'Failed or Succeeded'} is deleted ${seconds} s after ${NOT_READY_TAINT}:NoExecute`,
      }));
    }
  }
  return { items, notForecast };
}
