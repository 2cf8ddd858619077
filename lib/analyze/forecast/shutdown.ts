// The pods of a node in a graceful node shutdown (fault type shutdown): the kubelet's shutdown manager ends them in
// priority groups (k8s.io/kubernetes pkg/kubelet/nodeshutdown/nodeshutdown_manager.go v1.37.2: migrateConfig,
// groupByPriority, podManager.killPods), and a ReplicaSet replaces a terminal pod at once.
import type { Experiment } from '../../spec/types.js';
import { secondsText } from '../predict-common.js';
import { REPLACEMENT_SECONDS } from '../predict-pods.js';
import { OBSERVATION_LATENCY_SECONDS, windowOf } from '../windows.js';
import { item, type ItemSpec } from './items.js';
import { mechanismKey } from './mechanisms.js';
import { KUBELET_POD_KILL_SECONDS, REPLACEMENT_READY_SECONDS } from './pods.js';
import type { ForecastItem, PreFaultPod } from './types.js';

/**
 * Priority from which a pod is in the kubelet's critical shutdown group, `scheduling.SystemCriticalPriority`
 * (2 × HighestUserDefinablePriority = 2000000000; pkg/apis/scheduling/types.go v1.37.2), the second group
 * migrateConfig makes from shutdownGracePeriodCriticalPods.
 */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** Pod `terminationGracePeriodSeconds` when the record does not hold it: the API default, 30 s (pkg/apis/core/v1 defaults). */
const API_DEFAULT_TERMINATION_GRACE_SECONDS = 30;

/** What {@link forecastShutdownPods} needs for one target node. */
export interface ShutdownPodsInput {
  experiment: Experiment;
  node: string;
  /** When this node's `systemctl poweroff` starts, seconds since time zero (its place in a staggered fault). */
  offSeconds: number;
  /** Within how long of the command's start logind sends PrepareForShutdown and the kubelet acts, seconds. */
  preparedWithinSeconds: number;
  /** shutdownGracePeriod and shutdownGracePeriodCriticalPods, seconds (critical ≤ grace, as validation ensures). */
  graceSeconds: number;
  criticalSeconds: number;
  /** The pods on this node before the fault. */
  pods: readonly PreFaultPod[];
  /** Whether a worker that is not a target can take replacements. */
  otherWorkerExists: boolean;
  kubeletVersion: string;
  kubernetesVersion: string;
}

/**
 * Per pod on the node: `pod-terminated` (its record first in phase Failed, or Succeeded, with no deletionTimestamp),
 * and for a ReplicaSet's pod its replacement created and Ready. The regular group (priority below
 * {@link SYSTEM_CRITICAL_PRIORITY}) is killed at PrepareForShutdown with a grace period of
 * min(terminationGracePeriodSeconds, shutdownGracePeriod − shutdownGracePeriodCriticalPods); the critical group after
 * the regular one ended (every regular pod killed, at most its period later), with min(its grace, the critical
 * period). Window: from the command's start (0.1 s early for the clocks) to the group's deadline + the kill's status
 * write ({@link KUBELET_POD_KILL_SECONDS}) + the observation latency. A pod whose priority the journal does not
 * hold gets the hull of both groups.
 * @returns the items and what is not forecast (replacements of other owners).
 */
export function forecastShutdownPods(input: ShutdownPodsInput): { items: ForecastItem[]; notForecast: string[] } {
  const { node, offSeconds: off, preparedWithinSeconds: prepared } = input;
  const regular = Math.max(0, input.graceSeconds - input.criticalSeconds);
  const critical = input.criticalSeconds;
  const mechanism = mechanismKey('kubelet-graceful-shutdown', input.kubeletVersion, input.kubernetesVersion);
  const items: ForecastItem[] = [];
  const unreplaced = new Set<string>();
  for (const pod of input.pods.filter((p) => p.node === node)) {
    const id = `${pod.namespace}/${pod.name}`;
    const grace = pod.terminationGracePeriodSeconds ?? API_DEFAULT_TERMINATION_GRACE_SECONDS;
    const graceText = pod.terminationGracePeriodSeconds === null || pod.terminationGracePeriodSeconds === undefined ? `${API_DEFAULT_TERMINATION_GRACE_SECONDS} s (the API default; not recorded)` : `${grace} s`;
    const regularDeadline = off + prepared + Math.min(grace, regular);
    const criticalDeadline = off + prepared + regular + Math.min(grace, critical);
    const group = pod.priority === null || pod.priority === undefined ? 'unknown' : pod.priority >= SYSTEM_CRITICAL_PRIORITY ? 'critical' : 'regular';
    const deadline = group === 'regular' ? regularDeadline : criticalDeadline;
    const terminated = windowOf(off - 0.1, deadline + KUBELET_POD_KILL_SECONDS + OBSERVATION_LATENCY_SECONDS);
    const groupText = group === 'regular'
      ? `regular group (priority ${pod.priority}): killed at PrepareForShutdown with grace min(${graceText}, shutdownGracePeriod − shutdownGracePeriodCriticalPods = ${secondsText(regular)})`
      : group === 'critical'
        ? `critical group (priority ${pod.priority} ≥ ${SYSTEM_CRITICAL_PRIORITY}): killed once the regular group ended (at most ${secondsText(regular)} after PrepareForShutdown) with grace min(${graceText}, shutdownGracePeriodCriticalPods ${secondsText(critical)})`
        : `priority not recorded in this journal: the regular group's deadline or the critical group's, whichever it is in`;
    items.push(item({
      event: 'pod-terminated', node, pod: id, workload: pod.workload, happens: 'always', window: terminated, mechanism,
      setting: `kubelet shutdownGracePeriod ${secondsText(input.graceSeconds)}, shutdownGracePeriodCriticalPods ${secondsText(critical)}; pod terminationGracePeriodSeconds ${graceText}`,
      assumption: `logind's PrepareForShutdown reaches the kubelet within ${secondsText(prepared)} of the command's start; its containers exit by the kill deadline (SIGKILL at it) and the kubelet writes the terminal phase within ${KUBELET_POD_KILL_SECONDS} s of it, before it stops`,
      because: `${groupText}; marked Failed (Succeeded if its containers exited 0), reason Terminated, DisruptionTarget=True (podManager.killPods)`,
    }));
    if (pod.ownerKind !== 'ReplicaSet') {
      unreplaced.add(pod.ownerKind ?? 'standalone');
      continue;
    }
    if (!input.otherWorkerExists) {
      unreplaced.add('ReplicaSet (no worker outside the targets)');
      continue;
    }
    const created = windowOf(terminated.fromSeconds, terminated.toSeconds + REPLACEMENT_SECONDS);
    const workload = input.experiment.workloads.find((w) => w.name === pod.workload);
    const probe = workload?.readinessProbe;
    const extra = probe ? probe.initialDelaySeconds + probe.periodSeconds : 0;
    items.push(item({
      event: 'replacement-created', node, pod: id, workload: pod.workload, happens: 'always', window: created,
      mechanism: 'replicaset', setting: 'none',
      assumption: `the controller creates it within ${REPLACEMENT_SECONDS} s of the old pod's terminal phase`,
      because: 'a terminal pod (Failed or Succeeded) no longer counts as active (controller.FilterActivePods): the ReplicaSet controller replaces it without waiting for its deletion',
    }));
    items.push(item({
      event: 'replacement-ready', node, pod: id, workload: pod.workload, happens: 'always', window: windowOf(created.fromSeconds, created.toSeconds + REPLACEMENT_READY_SECONDS + extra),
      mechanism: 'pod-start', setting: probe ? `readinessProbe initialDelaySeconds ${probe.initialDelaySeconds}, periodSeconds ${probe.periodSeconds}` : 'built-in readiness probe (every 1 s)',
      assumption: `scheduled on a worker that is not shutting down with its image present, Ready within ${REPLACEMENT_READY_SECONDS} s of creation${extra > 0 ? ` + ${extra} s of its readiness probe` : ''}`,
      because: 'the scheduler places it on a Ready node (the shutting-down node is Ready=False), the kubelet starts it, its readiness probe passes',
    }));
  }
  const notForecast = unreplaced.size === 0 ? [] : [`${node}: replacements of ${[...unreplaced].sort().join(', ')} pods after the graceful shutdown: not forecast yet`];
  return { items, notForecast };
}

/**
 * Per workload with pods on the shut-down nodes, `workload-api-unavailable`: the first drop of its count of available
 * pods in the API (WorkloadTimeline.readySeries: Ready and not terminating; a Job's Succeeded pod counts) below its
 * desired count. A killed pod stops counting once the kubelet writes it not Ready or terminal (a ReplicaSet's,
 * StatefulSet's or DaemonSet's Succeeded pod is not active: controller_utils.go FilterActivePods, v1.37.2), at the
 * latest with its terminal phase; its replacement is created only after that (the ReplicaSet counts it until then),
 * so the count always drops first. Window, seconds since time zero: from the earliest `pod-terminated` window's start
 * to the earliest end among them (the first pod to stop counting).
 * A Job's killed pod counts while Succeeded (its containers exited 0) and not when Failed: which one is not forecast.
 * @param podItems the `pod-terminated` items of {@link forecastShutdownPods}, every target's
 * @param mechanismOf the `kubelet-graceful-shutdown` key of a target node, as its pod items have it (mechanismKey with
 *   that node's kubelet version, lib/analyze/mechanisms.ts)
 * @returns the items and what is not forecast
 */
export function forecastShutdownApiDrops(podItems: readonly ForecastItem[], pods: readonly PreFaultPod[], mechanismOf: (node: string) => ItemSpec['mechanism']): { items: ForecastItem[]; notForecast: string[] } {
  const items: ForecastItem[] = [];
  const notForecast: string[] = [];
  const ownerOf = new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p.ownerKind]));
  const byWorkload = new Map<string, ForecastItem[]>();
  for (const t of podItems) {
    if (t.event !== 'pod-terminated' || t.workload === null || t.window === null) continue;
    byWorkload.set(t.workload, [...(byWorkload.get(t.workload) ?? []), t]);
  }
  for (const [workload, terminated] of byWorkload) {
    if (terminated.some((t) => ownerOf.get(t.pod ?? '') === 'Job')) {
      notForecast.push(`workload ${workload}: the API's count of its pods killed by the shutdown (a Job's pod counts while Succeeded, exit 0, not when Failed): not forecast`);
      continue;
    }
    const first = terminated.reduce((a, b) => (b.window!.toSeconds < a.window!.toSeconds ? b : a));
    items.push(item({
      event: 'workload-api-unavailable', node: first.node, workload, happens: 'always',
      window: windowOf(Math.min(...terminated.map((t) => t.window!.fromSeconds)), first.window!.toSeconds),
      mechanism: mechanismOf(first.node), setting: first.setting,
      assumption: `the kubelet writes ${first.pod} not Ready or terminal by its kill deadline + the status write (its pod-terminated window); no replacement is created before that`,
      because: `the API counts ${workload} below its desired pods once one of its pods on a target is killed by the shutdown manager (not Ready, then Failed or Succeeded: no longer active)`,
    }));
  }
  return { items, notForecast };
}
