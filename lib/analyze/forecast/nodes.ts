// Forecast, node part: per target node, when its fault starts and ends, when the node lifecycle controller sees it
// (Ready→Unknown, or the kubelet's own Ready=False), its NoSchedule taint, its deletion, and Ready again.
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Experiment } from '../../spec/types.js';
import { FAULT_TYPES_WITH_DURATION } from '../../spec/faults.js';
import { msToSeconds } from '../clock.js';
import { NOT_READY_TAINT, secondsText, UNREACHABLE_TAINT } from '../predict-common.js';
import type { Window } from '../types.js';
import { detectionWindowAfterHeartbeatIn, heartbeatIntervalSeconds, OBSERVATION_LATENCY_SECONDS, round3, windowOf } from '../windows.js';
import { KUBELET_RUNTIME_CHECK_SECONDS, readyAgainWindowIn } from '../predict-ready-again.js';
import { faultEffect, type FaultEffect } from './fault-effects.js';
import { HEARTBEAT_JITTER, lastHeartbeatRange } from './heartbeat.js';
import { item } from './items.js';
import type { ForecastItem, PreFaultNode } from './types.js';

/**
 * kubelet `maxWaitForContainerRuntime`: the runtime counts as down this long after its last successful status check
 * (pkg/kubelet/kubelet.go, runtimeState.runtimeErrors, v1.34), seconds.
 */
export const RUNTIME_DOWN_AFTER_SECONDS = 30;

/** What the rest of the forecast needs to know about one target node. */
export interface TargetNodeForecast {
  name: string;
  /** When its fault command starts, seconds since time zero (staggered targets later). */
  offSeconds: number;
  effect: FaultEffect;
  /** Its Ready condition leaves True: the taint key that calls for, the lastTransitionTime window, and whether it surely happens. */
  detection: { key: string; status: 'Unknown' | 'False'; window: Window; happens: 'always' | 'maybe'; because: string } | null;
  /** When the fault's restore command starts, [earliest, latest] seconds since time zero; null when it is not restored while observed. */
  restoreStart: readonly [number, number] | null;
  /** Ready=True again (lastTransitionTime), when forecast. */
  readyAgain: Window | null;
  /** The Node object deleted (client receive time), for node-delete. */
  deleted: Window | null;
  /** Its kubelet's version (Node status.nodeInfo.kubeletVersion, else the cluster's): which kubelet mechanisms apply. */
  kubeletVersion: string;
}

/** Inputs of {@link forecastTargetNodes}. */
export interface TargetNodesInput {
  experiment: Experiment;
  settings: TimeoutSettings;
  targets: readonly string[];
  nodes: ReadonlyMap<string, PreFaultNode>;
  leadSeconds: number;
  /** The cluster's Kubernetes version: a node's kubelet version when its Node does not say. */
  kubernetesVersion: string;
}

/**
 * Per target node: its fault instants (command start = index × fault.stagger), the detection by the node lifecycle
 * controller (heartbeats stop: Ready→Unknown after the grace period; runtime down: the kubelet's Ready=False), its
 * NoSchedule taint, its deletion (node-delete) and Ready again once restored. Items, and the facts the zone, pod and
 * workload parts build on.
 */
export function forecastTargetNodes(input: TargetNodesInput): { nodes: TargetNodeForecast[]; items: ForecastItem[]; conditions: string[]; notForecast: string[] } {
  const { experiment, settings } = input;
  const fault = experiment.fault;
  const items: ForecastItem[] = [];
  const conditions: string[] = [];
  const notForecast: string[] = [];
  const forecasts: TargetNodeForecast[] = [];
  input.targets.forEach((name, index) => {
    const effect = faultEffect(fault.type, experiment.cluster.provider, fault.scope);
    const offSeconds = round3(index * msToSeconds(fault.staggerMs));
    const restoreStart = restoreStartOf(experiment, effect, offSeconds);
    const kubeletVersion = input.nodes.get(name)?.kubeletVersion ?? input.kubernetesVersion;
    const node: TargetNodeForecast = { name, offSeconds, effect, detection: null, restoreStart, readyAgain: null, deleted: null, kubeletVersion };
    if (effect.detection === 'heartbeats-stop') {
      const heartbeat = lastHeartbeatRange(settings, offSeconds, effect.heartbeatsStopWithinSeconds, input.nodes.get(name), input.leadSeconds);
      if (heartbeat.condition) conditions.push(heartbeat.condition);
      items.push(...silenceDetection(settings, node, heartbeat, notForecast, experiment.steps));
    } else if (effect.detection === 'kubelet-reports-not-ready') {
      items.push(...runtimeDetection(settings, node));
    } else if (effect.detection === 'node-deleted') {
      node.deleted = windowOf(offSeconds, offSeconds + effect.commandSeconds[1] + OBSERVATION_LATENCY_SECONDS);
      items.push(item({
        event: 'node-deleted', node: name, happens: 'always', window: node.deleted, mechanism: 'node-delete', setting: `fault ${fault.type}`,
        assumption: `the node is stopped and its Node object deleted while the fault command runs (${effect.commandSeconds[0]} to ${effect.commandSeconds[1]} s; ${effect.measured})`,
        because: 'node-delete stops the node and deletes its Node object: the node lifecycle controller forgets it, nothing marks it NotReady or taints it',
      }));
      items.push(item({
        event: 'node-not-ready', node: name, happens: 'never', window: null, mechanism: 'node-health', setting: `--node-monitor-grace-period ${secondsText(msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs))}`,
        assumption: 'the Node object is gone before its grace period runs out', because: 'a deleted Node has no Ready condition to mark Unknown',
      }));
    } else {
      items.push(...quickFaultDetection(settings, node));
    }
    forecasts.push(node);
  });
  return { nodes: forecasts, items, conditions, notForecast };
}

/**
 * When the restore command of a target starts, seconds since time zero: its command's return + fault.duration
 * (runFault), or the end of the observation when that comes first (observe.until duration), or a `restore` step;
 * null when the fault has no restore while observed.
 */
export function restoreStartOf(experiment: Experiment, effect: FaultEffect, offSeconds: number): readonly [number, number] | null {
  const fault = experiment.fault;
  const ends = FAULT_TYPES_WITH_DURATION.includes(fault.type) || (fault.type === 'node-delete' && fault.durationMs !== null);
  const candidates: [number, number][] = [];
  if (ends && fault.durationMs !== null) {
    const d = msToSeconds(fault.durationMs);
    candidates.push([offSeconds + effect.commandSeconds[0] + d, offSeconds + effect.commandSeconds[1] + d]);
  }
  const step = experiment.steps.find((s) => s.action === 'restore');
  if (step) candidates.push([msToSeconds(step.afterMs), msToSeconds(step.afterMs)]);
  if (experiment.observe.until === 'duration' && experiment.observe.durationMs !== null) {
    const end = msToSeconds(experiment.observe.durationMs);
    candidates.push([end, end]);
  }
  if (candidates.length === 0) return null;
  const first = candidates.reduce((a, b) => (b[1] < a[1] ? b : a));
  return [round3(first[0]), round3(first[1])];
}

/** The node lifecycle controller's detection settings and the heartbeat interval, as an item's `setting` text. */
export const graceText = (settings: TimeoutSettings) =>
  `--node-monitor-grace-period ${secondsText(msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs))}, --node-monitor-period ${secondsText(msToSeconds(settings.controllerManager.nodeMonitorPeriodMs))}, kubelet nodeLeaseDurationSeconds ${settings.kubelet.nodeLeaseDurationSeconds} (heartbeat every ${secondsText(heartbeatIntervalSeconds(settings))})`;

/** Ready→Unknown of a silenced node, its NoSchedule taint and Ready again; sets node.detection and node.readyAgain. */
function silenceDetection(settings: TimeoutSettings, node: TargetNodeForecast, heartbeat: ReturnType<typeof lastHeartbeatRange>, notForecast: string[], steps: Experiment['steps']): ForecastItem[] {
  const detection = detectionWindowAfterHeartbeatIn(settings, heartbeat.fromSeconds, heartbeat.toSeconds);
  const items: ForecastItem[] = [];
  // The heartbeats resume once the node is back: before the grace period ran out, nothing is marked. A partition's
  // Ready again does not bound its Lease's resumption (the Lease controller's own retries), so it decides nothing here.
  const back = node.effect.readyAgainMechanism?.case === 'network-partition' ? null : readyAgainOf(settings, node);
  const resume = back === null || node.restoreStart === null ? null : [Math.max(node.restoreStart[0], back.window.fromSeconds), back.window.toSeconds] as const;
  const restoredEarly = node.restoreStart !== null && node.restoreStart[0] < detection.toSeconds;
  let happens: 'always' | 'maybe' | 'never' = 'always';
  if (resume !== null && resume[1] < detection.fromSeconds) happens = 'never';
  else if (restoredEarly && (resume === null || resume[0] < detection.toSeconds)) happens = 'maybe';
  const because = `no heartbeat for more than the grace period, seen at a monitor pass (${graceText(settings)})`;
  items.push(item({
    event: 'node-not-ready', node: node.name, happens, window: happens === 'never' ? null : detection,
    outcomes: happens === 'maybe' ? [{ window: detection, when: 'the node is still silent at that monitor pass' }, { window: null, when: `the fault ends first (restore from ${secondsText(node.restoreStart![0])})` }] : undefined,
    mechanism: 'node-health', setting: graceText(settings), assumption: `${heartbeat.assumption}; the monitor pass phase is not known (2 × --node-monitor-period); lastTransitionTime is truncated to the second`, because,
  }));
  if (happens === 'never') return items;
  node.detection = { key: UNREACHABLE_TAINT, status: 'Unknown', window: detection, happens, because };
  items.push(noScheduleItem(node, detection, happens, 'Unknown'));
  items.push(...readyAgainItems(settings, node, happens, notForecast, steps));
  return items;
}

/**
 * The kubelet's own Ready=False when its container runtime is down: its last successful runtime check (every 5 s)
 * falls in the 5 s before the runtime stopped; it counts as down 30 s after that check (maxWaitForContainerRuntime);
 * the status loop (every nodeStatusUpdateFrequency × 1.04) posts it at its next tick. lastTransitionTime (kubelet
 * clock, whole seconds) in [S + 25 − 1, S + 30 + 1.04 f + 0.1], S the runtime stop ∈ [off, off + command].
 */
function runtimeDetection(settings: TimeoutSettings, node: TargetNodeForecast): ForecastItem[] {
  const f = msToSeconds(settings.kubelet.nodeStatusUpdateFrequencyMs);
  const from = node.offSeconds + RUNTIME_DOWN_AFTER_SECONDS - KUBELET_RUNTIME_CHECK_SECONDS - 1;
  const to = node.offSeconds + node.effect.commandSeconds[1] + RUNTIME_DOWN_AFTER_SECONDS + f * (1 + HEARTBEAT_JITTER) + 0.1;
  const detection = windowOf(from, to);
  const setting = `kubelet nodeStatusUpdateFrequency ${secondsText(f)} (runtime down after 30 s without a successful check, checked every 5 s)`;
  const restoredEarly = node.restoreStart !== null && node.restoreStart[0] < detection.toSeconds;
  const happens = node.restoreStart !== null && node.restoreStart[1] < detection.fromSeconds ? 'never' : restoredEarly ? 'maybe' : 'always';
  const because = 'the kubelet reports Ready=False itself ("container runtime is down"), heartbeats continue';
  const items = [item({
    event: 'node-not-ready-kubelet', node: node.name, happens, window: happens === 'never' ? null : detection,
    outcomes: happens === 'maybe' ? [{ window: detection, when: 'the runtime is still down then' }, { window: null, when: 'the runtime is back first' }] : undefined,
    mechanism: 'kubelet-runtime-health', setting, assumption: `the runtime stops while its command runs (0 to ${node.effect.commandSeconds[1]} s); its last successful check falls anywhere in the 5 s before; the status loop's phase is not known`, because,
  })];
  if (happens === 'never') return items;
  node.detection = { key: NOT_READY_TAINT, status: 'False', window: detection, happens, because };
  items.push(noScheduleItem(node, detection, happens, 'False'));
  const back = readyAgainOf(settings, node);
  if (back !== null) {
    // Back: the runtime starts with its command, the next runtime check (≤ 5 s) succeeds, the next status tick posts Ready=True.
    node.readyAgain = back.window;
    items.push(item({
      event: 'node-ready-again', node: node.name, happens, window: node.readyAgain, mechanism: 'kubelet-ready-again', setting,
      assumption: `${back.assumption}; the runtime is up when its start command returns`, because: back.because,
    }));
  }
  return items;
}

/** A reboot or kubelet restart: heartbeats pause for seconds only; Ready→Unknown only if that outlasts the grace period. */
function quickFaultDetection(settings: TimeoutSettings, node: TargetNodeForecast): ForecastItem[] {
  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const gap = heartbeatIntervalSeconds(settings) * (1 + HEARTBEAT_JITTER) + node.effect.silenceSeconds;
  const happens = gap < grace ? 'never' : 'maybe';
  const detection = detectionWindowAfterHeartbeatIn(settings, node.offSeconds - heartbeatIntervalSeconds(settings), node.offSeconds + node.effect.silenceSeconds);
  return [item({
    event: 'node-not-ready', node: node.name, happens, window: happens === 'never' ? null : detection,
    outcomes: happens === 'maybe' ? [{ window: detection, when: 'the node is still silent after the grace period' }, { window: null, when: 'its kubelet heartbeats again first' }] : undefined,
    mechanism: 'node-health', setting: graceText(settings),
    assumption: `the heartbeats pause at most ${node.effect.silenceSeconds} s (${node.effect.measured}) after a last one up to one heartbeat interval before: ${secondsText(round3(gap))} ${happens === 'never' ? '<' : '≥'} the grace period`,
    because: happens === 'never' ? 'the kubelet heartbeats again before the grace period runs out' : 'the pause may outlast the grace period',
  })];
}

/**
 * The NoSchedule taint (unreachable for Unknown, not-ready for False) the node update worker adds when it sees the
 * new Ready condition (doNoScheduleTaintingPass, not rate limited): from the transition (detection.from + 1 undoes
 * the truncation) to its receipt + 1 s + the observation latency.
 */
export function noScheduleItem(node: TargetNodeForecast, detection: Window, happens: 'always' | 'maybe', status: 'Unknown' | 'False'): ForecastItem {
  const key = status === 'Unknown' ? UNREACHABLE_TAINT : NOT_READY_TAINT;
  const window = windowOf(detection.fromSeconds + 1 - 0.1, detection.toSeconds + 1 + OBSERVATION_LATENCY_SECONDS);
  return item({
    event: 'no-schedule-taint', node: node.name, taintKey: key, happens, window,
    outcomes: happens === 'maybe' ? [{ window, when: 'the node is marked' }, { window: null, when: 'it is not' }] : undefined,
    mechanism: 'no-schedule-taint', setting: 'none (not rate limited)',
    assumption: 'the node update worker writes the taint within a second of seeing the Ready condition change',
    because: `node lifecycle controller taints a node ${key}:NoSchedule when its Ready condition is ${status}`,
  });
}

/**
 * Ready=True again after the restore of a node marked NotReady (Unknown; or False, then Unknown, in a graceful
 * shutdown): its kubelet is back and posts its status, the effect's readyAgainAfterRestoreSeconds after the restore
 * starts. Sets node.readyAgain; pushes a not-forecast line instead when the effect has no figure or a step deletes
 * the Node.
 */
export function readyAgainItems(settings: TimeoutSettings, node: TargetNodeForecast, detected: 'always' | 'maybe', notForecast: string[], experimentSteps: Experiment['steps']): ForecastItem[] {
  if (node.restoreStart === null) return [];
  const deleteStep = experimentSteps.find((s) => s.action === 'delete-node-object' && (s.node === null || s.node === node.name));
  if (deleteStep) {
    notForecast.push(`${node.name} Ready again: its Node object is deleted by a step; the restarted kubelet registers a new Node`);
    return [];
  }
  const back = readyAgainOf(settings, node);
  if (back === null) {
    notForecast.push(`${node.name} Ready again after the restore: not forecast for ${node.effect.detection === 'heartbeats-stop' ? 'this fault type' : 'it'} yet (${node.effect.measured})`);
    return [];
  }
  node.readyAgain = back.window;
  return [item({
    event: 'node-ready-again', node: node.name, happens: detected, window: node.readyAgain,
    outcomes: detected === 'maybe' ? [{ window: node.readyAgain, when: 'it was marked NotReady' }, { window: null, when: 'it never left Ready' }] : undefined,
    mechanism: back.mechanism, setting: `fault duration, kubelet nodeStatusUpdateFrequency ${secondsText(msToSeconds(settings.kubelet.nodeStatusUpdateFrequencyMs))}`,
    assumption: back.assumption, because: back.because,
  })];
}

/** Ready=True again after a target's restore, as {@link readyAgainOf} gives it. */
export interface ReadyAgainForecast {
  /** Server lastTransitionTime, seconds since time zero. */
  window: Window;
  mechanism: 'kubelet-status' | 'kubelet-ready-again';
  assumption: string;
  because: string;
}

/**
 * When `node` is Ready=True again after its restore (server lastTransitionTime, seconds since time zero), or null
 * when not forecast (no restore while observed, or no figure for its fault). A kubelet that ran through the fault
 * (partition, freeze, runtime stop: the effect's readyAgainMechanism) takes the causal model's formula
 * (lib/analyze/predict-ready-again.ts readyAgainWindowIn) over the ranges known before the fault: the restore's start,
 * its command's return, and the fault's length as the kubelet lives it (from the fault command's return at the
 * latest to the restore's start). A starting kubelet (power-off, kubelet-stop, shutdown, kwok) takes the effect's
 * measured span after the restore's start.
 */
export function readyAgainOf(settings: TimeoutSettings, node: Pick<TargetNodeForecast, 'offSeconds' | 'effect' | 'restoreStart'>): ReadyAgainForecast | null {
  const start = node.restoreStart;
  if (start === null) return null;
  const restoreText = `the restore starts ${secondsText(start[0])} to ${secondsText(start[1])} (the fault command's return + the duration, or the end of the observation)`;
  const mechanism = node.effect.readyAgainMechanism;
  if (mechanism !== undefined) {
    const [commandMin, commandMax] = mechanism.restoreCommandSeconds;
    const faultSeconds = [Math.max(0, round3(start[0] - node.offSeconds - node.effect.commandSeconds[1])), Math.max(0, round3(start[1] - node.offSeconds))] as const;
    const w = readyAgainWindowIn(settings, mechanism.case, {
      restoringSeconds: start, restoredSeconds: [start[0] + commandMin, start[1] + commandMax], faultSeconds, trafficDropped: mechanism.trafficDropped,
    });
    return {
      window: w.window!, mechanism: 'kubelet-ready-again', because: w.because,
      assumption: `${restoreText}; its command takes ${commandMin} to ${commandMax} s (${node.effect.measured}); the fault holds ${secondsText(faultSeconds[0])} to ${secondsText(faultSeconds[1])}`,
    };
  }
  const back = node.effect.readyAgainAfterRestoreSeconds;
  if (back === null) return null;
  return {
    window: windowOf(start[0] + back[0], start[1] + back[1]), mechanism: 'kubelet-status', because: 'the restarted kubelet heartbeats and posts Ready=True',
    assumption: `${restoreText}; Ready again ${back[0]} to ${back[1]} s after it starts (${node.effect.measured})`,
  };
}
