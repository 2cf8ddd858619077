// Forecast, workload part: what clients and the API see of each workload with pods on a target (first drop, back at
// the desired count), its pods' endpoints leaving the Service, and the last failed request of each traffic prober.
import type { Experiment } from '../../spec/types.js';
import type { Window } from '../types.js';
import { OBSERVATION_LATENCY_SECONDS, windowOf } from '../windows.js';
import { POD_SYNC_RETRY_SECONDS } from './fault-effects.js';
import { item, type ItemSpec } from './items.js';
import { restartReadiness, type RestartReadiness } from './kubelet-restart.js';
import type { TargetNodeForecast } from './nodes.js';
import { mergeOutcomes, type PodFate } from './pods.js';
import { CONNTRACK_SYN_SENT_SECONDS, everyEndpointOnTargetsLastError, PROXY_LAG_SECONDS } from './probe-last-error.js';
import type { ForecastItem, ForecastOutcome, PreFaultPod } from './types.js';

/**
 * A pod left in place on a node that comes back is Ready again within this many seconds of the node's Ready=True
 * (its containers restarted after a power-off, or still running after a kubelet stop; then its readiness probe),
 * seconds. Named, not yet measured apart: kind reboots showed pods Ready again 4.2 to 5.3 s after their NotReady.
 */
export const POD_READY_AFTER_NODE_SECONDS = 10;
/**
 * A restarted kubelet writes its pods' status (not ready until their first readiness probe, v1.34) within this many
 * seconds of its restart command's return, seconds (measured once on kind: 5.6 s after the command started).
 */
export const KUBELET_RESTART_POD_STATUS_SECONDS = 10;

/** Inputs of {@link forecastWorkloads}. */
export interface WorkloadsForecastInput {
  experiment: Experiment;
  targets: readonly TargetNodeForecast[];
  pods: readonly PreFaultPod[];
  fates: readonly PodFate[];
  /** The API server's Kubernetes version (a node's kubelet version comes with its TargetNodeForecast). */
  kubernetesVersion: string;
}

const NOTHING_BRINGS_IT_BACK = 'nothing brings it back while observed';
/** A pod back in place only once its node is Ready again after the restore, which is not forecast for its fault type. */
const BACK_WHEN_READY_AGAIN_NOT_FORECAST = 'back in place once its node is Ready again after the restore, which is not forecast for this fault type';

/**
 * A node whose container runtime stops too briefly for its kubelet to report it down (runtime-stop shorter than
 * maxWaitForContainerRuntime, 30 s without a successful check, less the 5 s check period: nodes.ts runtimeDetection
 * forecasts no Ready=False): its containers keep running through their shims and its pods stay Ready, so its pods and
 * workloads are unaffected.
 */
export function runtimeStopUnnoticed(node: TargetNodeForecast): boolean {
  return node.effect.detection === 'kubelet-reports-not-ready' && node.detection === null;
}

/**
 * When the pods of a node detected Unknown in `detection` are seen marked Ready=False (MarkPodsNotReady, in the node
 * lifecycle controller's pass that marks the node): [detection from + 1 - 0.1, detection to + 1 +
 * OBSERVATION_LATENCY_SECONDS], seconds since time zero (the window of nodes.ts noScheduleItem's taint too).
 */
function markedNotReadyWindow(detection: Window): Window {
  return windowOf(detection.fromSeconds + 1 - 0.1, detection.toSeconds + 1 + OBSERVATION_LATENCY_SECONDS);
}

/** The [latest earliest, latest latest] over pods each given by outcomes: when every one of them is back; null when one never is. */
function allBack(perPod: readonly ForecastOutcome[][]): { window: Window | null; some: boolean } {
  let from = -Infinity;
  let to = -Infinity;
  let some = false;
  for (const outcomes of perPod) {
    const windows = outcomes.flatMap((o) => (o.window ? [o.window] : []));
    if (windows.length === 0) return { window: null, some: false };
    if (windows.length < outcomes.length) some = true;
    from = Math.max(from, Math.min(...windows.map((w) => w.fromSeconds)));
    to = Math.max(to, Math.max(...windows.map((w) => w.toSeconds)));
  }
  return { window: Number.isFinite(from) ? windowOf(from, to) : null, some };
}

/**
 * When every pod has the same outcomes (the same `when`, each with a window, such as the kubelet's retry after a boot)
 * and each outcome comes no earlier than the one before at both ends, the workload's: each [latest earliest, latest
 * latest] over its pods; else undefined (the item's single window, the hull).
 */
function sharedOutcomes(perPod: readonly ForecastOutcome[][]): ForecastOutcome[] | undefined {
  const first = perPod[0];
  if (first === undefined || first.length < 2) return undefined;
  const same = perPod.every((o) => o.length === first.length && o.every((x, i) => x.window !== null && x.when === first[i]!.when));
  if (!same) return undefined;
  const outcomes = first.map((o, i) => ({ window: allBack(perPod.map((p) => [p[i]!])).window as Window, when: o.when }));
  // Pods may take different outcomes: with each outcome no earlier than the one before at both ends, any mix of them
  // is back within the latest one's window; otherwise only the hull says it.
  const ordered = outcomes.every((o, i) => i === 0 || (o.window.fromSeconds >= outcomes[i - 1]!.window.fromSeconds && o.window.toSeconds >= outcomes[i - 1]!.window.toSeconds));
  return ordered ? outcomes : undefined;
}

/** Workload `workload` back at its desired count: every affected pod's outcomes (`perPod`) back, the latest of them. */
function recoveredItem(workload: string, node: string, perPod: ForecastOutcome[][]): ForecastItem {
  const back = allBack(perPod);
  // Why one is never back (say its Job fails instead of replacing it: lib/analyze/forecast/pods.ts jobLoss).
  const neverBack = perPod.find((o) => o.every((x) => x.window === null) && o[0]?.when !== NOTHING_BRINGS_IT_BACK)?.[0]?.when;
  return item({
    event: 'workload-recovered', node, workload, happens: back.window === null ? 'never' : back.some ? 'maybe' : 'always', window: back.window,
    outcomes: back.window !== null && back.some ? [{ window: back.window, when: 'every affected pod is back' }, { window: null, when: 'one of them is not' }] : back.window !== null ? sharedOutcomes(perPod) : undefined,
    mechanism: 'pod-start', setting: 'the replacement and Ready-again windows of its pods',
    assumption: `the latest of its pods' replacements Ready (or Ready again in place within ${POD_READY_AFTER_NODE_SECONDS} s of the node; ${POD_SYNC_RETRY_SECONDS[0]} to ${POD_SYNC_RETRY_SECONDS[1]} s later when its first sync after the node boots again fails and the kubelet's pod worker retries)`,
    because: back.window === null ? `a pod of ${workload} on a target is neither replaced nor back while observed${neverBack ? `: ${neverBack}` : ''}` : `${workload} is back at its desired count when its last affected pod is`,
  });
}

/** Per workload with pods on a target: first drop (clients), back at its desired count; endpoints; probes. */
export function forecastWorkloads(input: WorkloadsForecastInput): { items: ForecastItem[]; notForecast: string[] } {
  const items: ForecastItem[] = [];
  const notForecast: string[] = [];
  const targetOf = new Map(input.targets.map((t) => [t.name, t]));
  for (const w of input.experiment.workloads) {
    const fates = input.fates.filter((f) => f.pod.workload === w.name);
    if (fates.length === 0) continue;
    // A workload that fails its own probes on purpose: when its pods are ready is the schedule's and the probe's
    // race with the fault (not-ready-pod-kubelet-restart: the run shows which way it went), not forecast here.
    const failing = failingProbes(w);
    if (failing !== null) {
      notForecast.push(`workload ${w.name}: its readiness for clients and the API, its endpoints, its probes and its recovery (it fails its ${failing} on purpose: the schedule's race with the fault decides them)`);
      continue;
    }
    const first = [...fates].sort((a, b) => (targetOf.get(a.pod.node)?.offSeconds ?? 0) - (targetOf.get(b.pod.node)?.offSeconds ?? 0))[0];
    const target = targetOf.get(first.pod.node)!;
    // A kubelet restart (its containers keep serving, nothing detects it): each pod's readiness by its kubelet's version.
    const restart = target.effect.detection === 'none' && target.effect.containersServe;
    const readiness = new Map<PodFate, RestartReadiness>(restart ? fates.map((f) => [f, restartReadiness(f.pod, w, targetOf.get(f.pod.node)!, input.kubernetesVersion)]) : []);
    // Pods their restarted kubelet rejects (forecast/kubelet-admission.ts): they stop, whatever their readiness.
    const rejected = restart ? fates.filter((f) => f.rejected !== undefined) : [];
    // The first of them to be rejected, and whether the first restart may reset a pod's readiness before it.
    const firstRejection = rejected.length === 0 ? null : rejected.map((f) => f.rejected!).reduce((a, b) => (b.window.fromSeconds < a.window.fromSeconds ? b : a));
    const mayReset = [...readiness.values()].some((r) => r.fate === 'maybe-reset');
    const allKept = restart && rejected.length === 0 && [...readiness.values()].every((r) => r.fate === 'kept');
    // A runtime stop shorter than the kubelet's runtime-down threshold: every pod of the workload on a target unaffected.
    const runtimeKept = fates.every((f) => runtimeStopUnnoticed(targetOf.get(f.pod.node)!));
    // Clients: a pod on a node whose containers stop serves no more from its fault command's start.
    if (!target.effect.containersServe) {
      items.push(item({
        event: 'workload-unavailable', node: target.name, workload: w.name, happens: 'always', window: windowOf(target.offSeconds, target.offSeconds),
        mechanism: 'fault-command', setting: `fault ${input.experiment.fault.type}`, assumption: 'its containers stop serving when the fault command starts (the client view of lib/analyze/workload-timeline.ts)',
        because: `${w.name} has a pod on ${target.name}, whose containers stop with the fault`,
      }));
    } else if (target.detection !== null && target.detection.status === 'Unknown') {
      const d = target.detection.window;
      items.push(item({
        event: 'workload-unavailable', node: target.name, workload: w.name, happens: target.detection.happens, window: markedNotReadyWindow(d),
        outcomes: target.detection.happens === 'maybe' ? [{ window: markedNotReadyWindow(d), when: 'its node is marked NotReady' }, { window: null, when: 'it is not' }] : undefined,
        mechanism: 'endpoint-slice', setting: 'the detection window', assumption: 'its containers keep serving; the node lifecycle controller marks its pods Ready=False in the pass that marks the node Unknown (MarkPodsNotReady)',
        because: `${w.name}'s pods on ${target.name} keep running but are marked not ready`,
      }));
    } else if (runtimeKept) {
      items.push(item({
        event: 'workload-unavailable', node: target.name, workload: w.name, happens: 'never', window: null, mechanism: 'kubelet-runtime-health', setting: `fault ${input.experiment.fault.type}`,
        assumption: 'the runtime is back before the kubelet counts it down (30 s without a successful check, checked every 5 s): the node stays Ready; its containers keep running through their shims',
        because: `${w.name}'s pods on ${target.name} keep running and stay Ready`,
      }));
    } else if (restart && firstRejection !== null) {
      // Its restarted kubelet rejects a pod (kubelet-admission): clients lose it then, if its readiness was not reset first.
      const rejection = firstRejection;
      const outcomes = [...(mayReset ? [{ window: restartResetWindow(target), when: 'the restarted kubelet reports its pods not ready until their first readiness probe' }] : []), { window: rejection.window, when: rejection.when }];
      items.push(item({
        event: 'workload-unavailable', node: target.name, workload: w.name, happens: 'always', window: null, outcomes: mergeOutcomes(outcomes),
        mechanism: 'kubelet-admission', setting: `fault ${input.experiment.fault.type}; the experiment's label and restart-kubelet steps`,
        assumption: `its pod stops serving when its kubelet rejects it${mayReset ? `, unless the first restart already reported it not ready (within ${KUBELET_RESTART_POD_STATUS_SECONDS} s of its command's return)` : ''}`,
        because: `${w.name}'s pod on ${target.name} is rejected by its restarted kubelet: ${rejection.when}`,
      }));
    } else if (restart) {
      const reset = [...readiness.values()].find((r) => r.fate === 'maybe-reset');
      if (allKept) {
        items.push(item({
          event: 'workload-unavailable', node: target.name, workload: w.name, happens: 'never', window: null, mechanism: readiness.get(first)!.mechanism, setting: `fault ${input.experiment.fault.type}`,
          assumption: 'its containers keep running and its pods stay Ready through the restart', because: [...readiness.values()].map((r) => r.because).join('; '),
        }));
      } else {
        const window = restartResetWindow(target);
        items.push(item({
          event: 'workload-unavailable', node: target.name, workload: w.name, happens: 'maybe', window,
          outcomes: [{ window, when: 'the restarted kubelet reports its pods not ready until their first readiness probe' }, { window: null, when: 'the probe passes before the status is written' }],
          mechanism: reset!.mechanism, setting: `fault ${input.experiment.fault.type}`, assumption: `the restarted kubelet writes its pods' status within ${KUBELET_RESTART_POD_STATUS_SECONDS} s of its command's return (measured 5.6 s after the start once; ${target.effect.measured})`,
          because: `${w.name}'s containers keep running through a kubelet restart; only their readiness is reset: ${reset!.because}`,
        }));
      }
    } else notForecast.push(`workload ${w.name}: when clients lose it under ${input.experiment.fault.type} (its containers keep serving and its node is not marked Unknown)`);
    // The API: a pod stops counting as Ready when it is marked Ready=False (its node detected Unknown: MarkPodsNotReady
    // in that pass) or gets a deletionTimestamp, whichever comes first.
    const apiDrop = fates.flatMap((f) => {
      const node = targetOf.get(f.pod.node)!;
      const marked = node.detection?.status === 'Unknown' && node.detection.happens === 'always' ? [markedNotReadyWindow(node.detection.window)] : [];
      const stop = f.stopped.every((o) => o.window !== null) ? [windowOf(Math.min(...f.stopped.map((o) => o.window!.fromSeconds)), Math.max(...f.stopped.map((o) => o.window!.toSeconds)))] : [];
      const both = [...marked, ...stop];
      return both.length === 0 ? [] : [windowOf(Math.min(...both.map((w) => w.fromSeconds)), Math.min(...both.map((w) => w.toSeconds)))];
    });
    if (restart && firstRejection !== null) {
      // The first restart may already have reported it not ready; else the rejection's terminal status drops it.
      const rejection = firstRejection;
      items.push(item({
        event: 'workload-api-unavailable', node: target.name, workload: w.name, happens: 'always', window: null,
        outcomes: mergeOutcomes([...(mayReset ? [{ window: restartResetWindow(target), when: 'the restarted kubelet reports its pods not ready until their first readiness probe' }] : []), { window: rejection.window, when: rejection.when }]),
        mechanism: 'kubelet-admission', setting: `fault ${input.experiment.fault.type}; the experiment's label and restart-kubelet steps`,
        assumption: 'its pod counts as not Ready from the first status its kubelet writes that says so: a readiness reset by the first restart, or the rejection\'s terminal status',
        because: `the API counts ${w.name} below its desired Ready pods once its pod on ${target.name} is reported not ready or rejected`,
      }));
    } else if (apiDrop.length > 0) {
      items.push(item({
        event: 'workload-api-unavailable', node: target.name, workload: w.name, happens: 'always',
        window: windowOf(Math.min(...apiDrop.map((w) => w.fromSeconds)), Math.min(...apiDrop.map((w) => w.toSeconds))),
        mechanism: 'endpoint-slice', setting: 'the detection and eviction windows of its pods',
        assumption: 'its first pod on a target marked Ready=False (the detection pass) or given a deletionTimestamp, whichever comes first',
        because: `the API counts ${w.name} below its desired Ready pods once one of its pods on a target is marked not ready or terminating`,
      }));
    }
    // Back at the desired count: every affected pod replaced and Ready, or Ready again in place.
    const perPod = fates.map((f) => {
      if (f.replacementReady.length > 0 && f.replacementReady.some((o) => o.window !== null)) return f.replacementReady;
      // Rejected by its kubelet: back only through a replacement (none Ready here: say why).
      if (f.rejected !== undefined) return f.replacementReady.length > 0 ? f.replacementReady : [{ window: null, when: `nothing replaces it after its kubelet rejected it (${f.rejected.label})` }];
      const node = targetOf.get(f.pod.node)!;
      if (runtimeStopUnnoticed(node)) return [{ window: windowOf(0, 0), when: 'its pod stays Ready through the short runtime stop: it never drops below its desired count' }];
      if (node.effect.detection === 'none' && node.effect.containersServe) {
        if (readiness.get(f)?.fate === 'kept') return [{ window: windowOf(0, 0), when: 'its readiness is kept: it never drops below its desired count' }];
        // Never below desired (0), or back after the restarted kubelet's first readiness probe.
        const period = w.readinessProbe ? w.readinessProbe.initialDelaySeconds + w.readinessProbe.periodSeconds : 1;
        return [{ window: windowOf(0, 0), when: 'it never drops below its desired count' }, { window: windowOf(node.offSeconds, node.offSeconds + node.effect.commandSeconds[1] + KUBELET_RESTART_POD_STATUS_SECONDS + period + OBSERVATION_LATENCY_SECONDS), when: 'ready again at its first probe after the restart' }];
      }
      const inPlace = node.readyAgain ?? (node.detection === null && !node.effect.containersServe && node.effect.detection === 'none' ? windowOf(node.offSeconds + node.effect.commandSeconds[0], node.offSeconds + node.effect.commandSeconds[1] + node.effect.silenceSeconds) : null);
      const notEvicted = f.stopped.some((o) => o.window === null);
      if (inPlace !== null && notEvicted) {
        const back = { window: windowOf(inPlace.fromSeconds, inPlace.toSeconds + POD_READY_AFTER_NODE_SECONDS), when: 'Ready again in place once its node is back' };
        if (!node.effect.bootsAgain) return [back];
        // Its first sync after the boot failed: the pod worker's retry, then the same start and probe.
        const [retryMin, retryMax] = POD_SYNC_RETRY_SECONDS;
        return [back, { window: windowOf(inPlace.fromSeconds + retryMin, inPlace.toSeconds + POD_READY_AFTER_NODE_SECONDS + retryMax), when: `Ready again in place at the kubelet's retry of a first pod sync that failed after the boot (backOffPeriod ${retryMin} s, jitter up to ${(retryMax / retryMin - 1) * 100} %)` }];
      }
      // Restored while observed, but its Ready again is not forecast (network-partition's): unknown, not "never".
      if (notEvicted && node.restoreStart !== null && node.readyAgain === null && node.effect.detection === 'heartbeats-stop') return [{ window: null, when: BACK_WHEN_READY_AGAIN_NOT_FORECAST }];
      if (f.replacementReady.length > 0) return f.replacementReady;
      return [{ window: null, when: NOTHING_BRINGS_IT_BACK }];
    });
    if (perPod.some((o) => o.length === 1 && o[0]!.when === BACK_WHEN_READY_AGAIN_NOT_FORECAST)) {
      notForecast.push(`workload ${w.name}: when it is back (a pod of it on a target is ${BACK_WHEN_READY_AGAIN_NOT_FORECAST}, ${input.experiment.fault.type})`);
    } else items.push(recoveredItem(w.name, target.name, perPod));
    // Endpoints: a pod marked not ready leaves its Service's ready endpoints (EndpointSlice controller).
    if (w.service !== null || w.kind === 'StatefulSet') {
      for (const f of fates) {
        const node = targetOf.get(f.pod.node)!;
        const kept = readiness.get(f);
        if (kept !== undefined && rejected.includes(f)) items.push(rejectedEndpointItem(f, w.name, node, kept));
        else if (kept !== undefined) items.push(restartEndpointItem(f.pod, w.name, node, kept));
        if (node.detection === null || node.detection.status !== 'Unknown') continue;
        const d = node.detection.window;
        let window = markedNotReadyWindow(d);
        // A pod evicted first (an out-of-service step) is terminating, so not ready, from then: the earlier of both.
        const stop = f.stopped.every((o) => o.window !== null) ? f.stopped.map((o) => o.window as Window) : [];
        if (stop.length > 0) window = windowOf(Math.min(window.fromSeconds, ...stop.map((w) => w.fromSeconds)), Math.min(window.toSeconds, Math.max(...stop.map((w) => w.toSeconds))));
        items.push(item({
          event: 'endpoint-not-ready', node: node.name, pod: `${f.pod.namespace}/${f.pod.name}`, workload: w.name, happens: node.detection.happens, window,
          outcomes: node.detection.happens === 'maybe' ? [{ window, when: 'its node is marked NotReady' }, { window: null, when: 'it is not' }] : undefined,
          mechanism: 'endpoint-slice', setting: 'the detection window', assumption: 'the pod is marked Ready=False in the detection pass (MarkPodsNotReady); the EndpointSlice controller writes within a second',
          because: 'the node lifecycle controller marks the pods of an Unknown node not ready; their endpoints stop being ready',
        }));
      }
    }
    // Probes: the last failed request of an http probe of its Service (a dns probe's Service is the cluster DNS's twin).
    for (const probe of input.experiment.probes.filter((p) => p.type !== 'dns' && p.service === w.name)) {
      // A rejected pod stops serving: its clients fail until its replacement is Ready (no restart shortcut).
      items.push(...probeItems(probe.name, w.name, input, fates, perPod, target, restart && rejected.length === 0 ? { allKept, mechanism: readiness.get(first)!.mechanism } : runtimeKept ? { allKept: true, mechanism: 'kubelet-runtime-health' } : null));
    }
  }
  return { items, notForecast };
}

/** Which of its own probes workload `w` fails on purpose (`failReadiness`, `failLiveness`), in words; null when none. */
function failingProbes(w: Experiment['workloads'][number]): string | null {
  const which = [w.failReadiness !== null ? 'readiness probe' : null, w.failLiveness !== null ? 'liveness probe' : null].filter((x): x is string => x !== null);
  return which.length === 0 ? null : which.join(' and ');
}

/** When a restarted kubelet's pod status (readiness reset) is written: from its command's start to its return + KUBELET_RESTART_POD_STATUS_SECONDS. */
function restartResetWindow(node: TargetNodeForecast): Window {
  return windowOf(node.offSeconds, node.offSeconds + node.effect.commandSeconds[1] + KUBELET_RESTART_POD_STATUS_SECONDS);
}

/** A pod's endpoint through a kubelet restart: never not ready when its readiness is kept, else maybe in the reset window (+ the EndpointSlice write). */
function restartEndpointItem(pod: PreFaultPod, workload: string, node: TargetNodeForecast, readiness: RestartReadiness): ForecastItem {
  const base = { event: 'endpoint-not-ready' as const, node: node.name, pod: `${pod.namespace}/${pod.name}`, workload, mechanism: readiness.mechanism as ItemSpec['mechanism'], setting: 'fault kubelet-restart' };
  if (readiness.fate === 'kept') return item({ ...base, happens: 'never', window: null, assumption: 'the pod stays Ready through the restart', because: readiness.because });
  const reset = restartResetWindow(node);
  const window = windowOf(reset.fromSeconds, reset.toSeconds + OBSERVATION_LATENCY_SECONDS);
  return item({
    ...base, happens: 'maybe', window, outcomes: [{ window, when: 'the restarted kubelet reports the pod not ready until its first readiness probe' }, { window: null, when: 'the probe passes before the status is written' }],
    assumption: `the restarted kubelet writes the pod's status within ${KUBELET_RESTART_POD_STATUS_SECONDS} s of its command's return; the EndpointSlice controller follows within a second`, because: readiness.because,
  });
}

/** A rejected pod's endpoint: not ready when its kubelet rejects it, or earlier when the first restart reset its readiness. */
function rejectedEndpointItem(f: PodFate, workload: string, node: TargetNodeForecast, readiness: RestartReadiness): ForecastItem {
  const rejection = f.rejected!;
  const reset = restartResetWindow(node);
  const outcomes: ForecastOutcome[] = [
    ...(readiness.fate === 'maybe-reset' ? [{ window: windowOf(reset.fromSeconds, reset.toSeconds + OBSERVATION_LATENCY_SECONDS), when: 'the restarted kubelet reports the pod not ready until its first readiness probe' }] : []),
    { window: windowOf(rejection.window.fromSeconds, rejection.window.toSeconds + OBSERVATION_LATENCY_SECONDS), when: rejection.when },
  ];
  return item({
    event: 'endpoint-not-ready', node: node.name, pod: `${f.pod.namespace}/${f.pod.name}`, workload, happens: 'always', window: null, outcomes: mergeOutcomes(outcomes),
    mechanism: 'kubelet-admission', setting: 'the experiment\'s label and restart-kubelet steps',
    assumption: 'the EndpointSlice controller follows the pod\'s status within a second', because: `its kubelet rejects it: ${rejection.when}`,
  });
}

/**
 * The last failed request of a prober of the workload's Service: when every ready endpoint was on a target, clients
 * fail until the first pod is back (replacement Ready, or Ready in place) and kube-proxy programs it
 * (forecast/probe-last-error.ts everyEndpointOnTargetsLastError, with the observation latency); otherwise the
 * requests routed to a dead endpoint fail until that endpoint is no longer ready and kube-proxy drops it, unless a
 * reused conntrack entry keeps sending one there (up to 120 s: nf_conntrack's SYN_SENT timeout).
 */
function probeItems(probe: string, workload: string, input: WorkloadsForecastInput, fates: readonly PodFate[], perPod: ForecastOutcome[][], target: TargetNodeForecast, restart: { allKept: boolean; mechanism: ItemSpec['mechanism'] } | null): ForecastItem[] {
  const all = input.pods.filter((p) => p.workload === workload);
  const onTargets = all.filter((p) => input.targets.some((t) => t.name === p.node));
  const proxy = PROXY_LAG_SECONDS + OBSERVATION_LATENCY_SECONDS;
  const base = { node: target.name, workload: probe, mechanism: 'kube-proxy' as const, setting: `probe ${probe} on Service ${workload}` };
  if (restart?.allKept && onTargets.length === all.length) {
    return [item({
      ...base, event: 'probe-last-error', happens: 'never', window: null, mechanism: restart.mechanism,
      assumption: `every endpoint stays ready through the ${target.effect.detection === 'none' ? 'kubelet restart' : 'short runtime stop'} and its containers keep serving`, because: `${workload}'s pods keep their readiness: its endpoints never leave the Service`,
    })];
  }
  if (onTargets.length === all.length) {
    // A kubelet restart may leave readiness alone (the probe ran before the status was written): then no request fails.
    const unharmed = restart === null ? [] : [{ window: null, when: 'the restarted kubelet never reports the pods not ready' }];
    const lastError = everyEndpointOnTargetsLastError({
      base, backs: perPod.map((o) => o.map((x) => x.window)), proxySeconds: proxy, otherOutcomes: unharmed,
      usualWhen: 'clients reach the first pod back once kube-proxy programs it', conntrackWhen: 'a reused conntrack entry still points at a dead pod',
      assumption: `every ready endpoint was on a target: clients fail until the first pod is back and kube-proxy programs it (within ${PROXY_LAG_SECONDS} s); a request reusing the source port of one that failed toward a dead pod follows its conntrack entry (nf_conntrack keeps an unanswered SYN_SENT entry ${CONNTRACK_SYN_SENT_SECONDS} s)`,
      because: `${workload} has no ready endpoint elsewhere`,
    });
    return lastError === null ? [] : [lastError];
  }
  const detection = fates.map((f) => input.targets.find((t) => t.name === f.pod.node)?.detection?.window).filter((w): w is Window => w !== undefined);
  if (detection.length === 0 || target.effect.containersServe) return [];
  const from = Math.min(...detection.map((d) => d.fromSeconds)) + 1 - 0.1;
  const to = Math.max(...detection.map((d) => d.toSeconds)) + 1 + proxy;
  const conntrack = windowOf(from, to + CONNTRACK_SYN_SENT_SECONDS);
  return [item({
    ...base, event: 'probe-last-error', happens: 'always', window: conntrack,
    outcomes: [{ window: windowOf(from, to), when: 'the dead endpoints leave the Service and kube-proxy drops them' }, { window: conntrack, when: 'a reused conntrack entry still points at a dead pod (nf_conntrack keeps an unanswered SYN_SENT entry 120 s)' }],
    assumption: `requests routed to an endpoint on a target fail until it is not ready (its node's detection) and kube-proxy drops it (within ${PROXY_LAG_SECONDS} s)`,
    because: 'the Service keeps a dead pod\'s endpoint ready until the node is detected',
  })];
}
