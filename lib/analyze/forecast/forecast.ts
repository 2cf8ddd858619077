// The forecast: from the resolved experiment, the effective settings, the Kubernetes version and the pre-fault state,
// every event of the fault's timeline counted from time zero, before anything happened. Pure.
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Experiment } from '../../spec/types.js';
import { msToSeconds } from '../clock.js';
import { hostLoadCondition } from '../host-load.js';
import { unsupportedVersionWarning } from '../mechanisms.js';
import { secondsText } from '../predict-common.js';
import { mechanismFor, mechanismKey, type MechanismId } from './mechanisms.js';
import { hasBehaviourSince } from '../mechanisms.js';
import { OBSERVATION_LATENCY_SECONDS, windowOf } from '../windows.js';
import { item } from './items.js';
import { forecastTargetNodes } from './nodes.js';
import { forecastPods } from './pods.js';
import { faultEffect } from './fault-effects.js';
import { forecastShutdownEvictions, forecastShutdownNode, type ShutdownNodeForecast } from './shutdown-node.js';
import { forecastShutdownApiDrops, forecastShutdownPods } from './shutdown.js';
import { forecastShutdownClients } from './shutdown-clients.js';
import type { Forecast, ForecastItem, PreFaultState } from './types.js';
import { forecastWorkloads } from './workloads.js';
import { forecastTaints } from './zones.js';

/** What a forecast is computed from. */
export interface ForecastInput {
  /** The resolved experiment (one variant). */
  experiment: Experiment;
  /** The settings in effect: requested (`rebootlab predict`) or read back from the cluster (a run), durations in milliseconds. */
  settings: TimeoutSettings;
  /**
   * The API server's Kubernetes version, e.g. `v1.37.2`: the controllers' mechanisms are taken for it, and the
   * kubelet's for a node whose kubeletVersion is not known (lib/analyze/mechanisms.ts).
   */
  kubernetesVersion: string;
  /** The cluster before the fault: synthesized from the experiment, or read from a journal's records before it. */
  preFault: PreFaultState;
}

/** Order of events with the same start: the node's, then the taints', the pods', the Jobs', the workloads'. */
const EVENT_ORDER: readonly ForecastItem['event'][] = [
  'node-deleted', 'node-not-ready', 'node-not-ready-kubelet', 'no-schedule-taint', 'no-execute-taint', 'endpoint-not-ready', 'pod-terminated', 'pod-eviction', 'pod-deleted',
  'replacement-created', 'replacement-ready', 'job-failed', 'node-ready-again', 'workload-unavailable', 'workload-api-unavailable', 'workload-recovered', 'probe-last-error',
];

/**
 * A window derived from the event it follows starts up to this much before that event's window, seconds: the 0.1 s
 * every derived window allows for the clocks' rounding (e.g. `inPassTaintWindow` in lib/analyze/windows.ts, the replacement windows of
 * forecast/pods.ts). Starts this close are one moment for the order of the timeline.
 */
const SAME_START_SECONDS = 0.1;

/**
 * Timeline order: by window start (never-happening items last); items whose starts lie within
 * {@link SAME_START_SECONDS} of the first of a run of such starts are ordered as the causal chain goes
 * ({@link EVENT_ORDER}: an eviction before the replacement derived from it), then by node and pod or workload.
 * @returns a new array; the input is not changed.
 */
export function orderItems(items: readonly ForecastItem[]): ForecastItem[] {
  const byStart = [...items].sort((a, b) => (a.window?.fromSeconds ?? Infinity) - (b.window?.fromSeconds ?? Infinity));
  const groupOf = new Map<ForecastItem, number>();
  let groupStart = -Infinity;
  let group = -1;
  for (const it of byStart) {
    const from = it.window?.fromSeconds ?? Infinity;
    if (!(from === groupStart || from - groupStart <= SAME_START_SECONDS + 1e-9)) {
      group += 1;
      groupStart = from;
    }
    groupOf.set(it, group);
  }
  return byStart.sort(
    (a, b) => groupOf.get(a)! - groupOf.get(b)! || EVENT_ORDER.indexOf(a.event) - EVENT_ORDER.indexOf(b.event) || a.node.localeCompare(b.node) || (a.pod ?? a.workload ?? '').localeCompare(b.pod ?? b.workload ?? '') || (a.window?.fromSeconds ?? Infinity) - (b.window?.fromSeconds ?? Infinity),
  );
}

/**
 * The forecast of one experiment variant: per target node its detection, NoSchedule and NoExecute taints (every
 * outcome where a pass grouping or a token decides), Ready again or deleted; per pod on a target its eviction or
 * PodGC deletion and its replacement created and Ready; per workload what clients see and when it is back; per
 * prober its last failed request. Items in timeline order ({@link orderItems}).
 * Pure: the same input gives the same forecast.
 */
export function forecast(input: ForecastInput): Forecast {
  const { experiment, settings, preFault } = input;
  if (experiment.fault.type === 'shutdown') return gracefulShutdownForecast(input);
  const nodesByName = new Map(preFault.nodes.map((n) => [n.name, n]));
  const targets = forecastTargetNodes({ experiment, settings, targets: preFault.targets, nodes: nodesByName, leadSeconds: preFault.leadSeconds, kubernetesVersion: input.kubernetesVersion });
  const endSeconds = msToSeconds(experiment.observe.until === 'duration' && experiment.observe.durationMs !== null ? experiment.observe.durationMs : experiment.observe.timeoutMs);
  const zones = forecastTaints({ settings, nodes: preFault.nodes, targets: targets.nodes, pods: preFault.pods, endSeconds });
  const workers = preFault.nodes.filter((n) => !n.controlPlane).map((n) => n.name);
  const nodeLabels = new Map(preFault.nodes.map((n) => [n.name, n.labels]));
  const pods = forecastPods({ experiment, settings, targets: targets.nodes, taints: zones.taints, pods: preFault.pods, workers, nodeLabels, kubernetesVersion: input.kubernetesVersion });
  const workloads = forecastWorkloads({ experiment, targets: targets.nodes, pods: preFault.pods, fates: pods.fates, kubernetesVersion: input.kubernetesVersion });
  const items = orderItems([...targets.items, ...zones.items, ...pods.items, ...workloads.items]);
  const notForecast = [...targets.notForecast, ...workloads.notForecast];
  // A version outside the modelled set is forecast with the nearest one's mechanisms, and says so.
  for (const version of new Set([input.kubernetesVersion, ...targets.nodes.map((n) => n.kubeletVersion)])) {
    const warning = unsupportedVersionWarning(version);
    if (warning !== null) notForecast.push(warning);
  }
  if (preFault.source === 'experiment') notForecast.push('pods rebootlab does not deploy (kube-system DaemonSets, selected and manifest workloads\' placement): only the experiment\'s own workloads are placed without a cluster');
  return {
    kubernetesVersion: input.kubernetesVersion,
    conditionedOn: preFault.source,
    conditions: [...targets.conditions, ...zones.zoneNotes, ...hostConditions(preFault)],
    targets: [...preFault.targets],
    mechanisms: Object.fromEntries([...new Set(items.map((i) => i.mechanism))].sort().map((key) => {
      const [id, version] = key.split('@') as [MechanismId, string | undefined];
      return [key, mechanismFor(id, version ?? input.kubernetesVersion)];
    })),
    items,
    notForecast,
  };
}

/** The host's load before the forecast among its conditions, when the run journaled it (lib/analyze/host-load.ts). */
const hostConditions = (preFault: PreFaultState): string[] => (preFault.host ? [hostLoadCondition(preFault.host)] : []);

/** The kubelet's Ready=False after `systemctl poweroff` started: the docker exec, logind's signal and the status patch. */
export const SHUTDOWN_NOT_READY_WITHIN_SECONDS = 5;

/**
 * The first minor whose kubelet shutdown manager is sure to start when logind runs (mechanism
 * `kubelet-graceful-shutdown`): v1.34.4 reads InhibitDelayMaxSec once right after the asynchronous ReloadLogindConf
 * and stays off when logind was slower; v1.35.4 re-reads it with backoff (nodeshutdown_manager_linux.go
 * managerImpl.start). Below it the shutdown is not forecast: it may be graceful or a plain power-off.
 */
export const SHUTDOWN_MANAGER_STARTS_SINCE = 'v1.35';

/**
 * A graceful node shutdown (fault type shutdown): per target, the kubelet's own Ready=False ("node is shutting down"),
 * from k8s.io/kubernetes pkg/kubelet/nodeshutdown (v1.37.2): at logind's PrepareForShutdown the shutdown manager
 * syncs the node status at once; its pods are ended by priority group and a ReplicaSet's replaced
 * (forecast/shutdown.ts). Then the node side (forecast/shutdown-node.ts): the not-ready taints (NoSchedule on the
 * update, NoExecute from the zone replay as for a kubelet-reported Ready=False), the node stop silencing its
 * heartbeats, Ready=Unknown, the swap to the unreachable taints and Ready again after the restore. The clients' view
 * (forecast/shutdown-clients.ts): each workload lost to clients and back at its desired count, each killed pod's
 * endpoint leaving its Service, each prober's last failed request (the requests kube-proxy routes to a pod between
 * its SIGTERM and its endpoint's removal); the API's ready count is listed as not forecast.
 */
function gracefulShutdownForecast(input: ForecastInput): Forecast {
  const { experiment, settings, preFault } = input;
  const grace = msToSeconds(settings.kubelet.shutdownGracePeriodMs);
  const critical = msToSeconds(settings.kubelet.shutdownGracePeriodCriticalPodsMs);
  const items: ForecastItem[] = [];
  const notForecast: string[] = [];
  const nodesByName = new Map(preFault.nodes.map((n) => [n.name, n]));
  const kubeletVersionOf = (node: string) => nodesByName.get(node)?.kubeletVersion ?? input.kubernetesVersion;
  const shutdowns: ShutdownNodeForecast[] = [];
  preFault.targets.forEach((node, index) => {
    const off = index * msToSeconds(experiment.fault.staggerMs);
    const kubeletVersion = kubeletVersionOf(node);
    if (grace <= 0 || !hasBehaviourSince(kubeletVersion, SHUTDOWN_MANAGER_STARTS_SINCE)) {
      notForecast.push(`${node} Ready=False "node is shutting down": ${grace <= 0 ? 'the kubelet has no shutdownGracePeriod' : `kubelet ${kubeletVersion}'s shutdown manager may not have started (before v1.35 it reads logind's InhibitDelayMaxSec once, right after an asynchronous reload, and stays off when logind was slower: kubelet-graceful-shutdown); the shutdown is graceful or a plain power-off for its pods`}`);
      return;
    }
    const notReadyWindow = windowOf(off - 1, off + SHUTDOWN_NOT_READY_WITHIN_SECONDS + OBSERVATION_LATENCY_SECONDS);
    items.push(item({
      event: 'node-not-ready-kubelet', node, happens: 'always', window: notReadyWindow,
      mechanism: mechanismKey('kubelet-graceful-shutdown', kubeletVersion, input.kubernetesVersion),
      setting: `kubelet shutdownGracePeriod ${secondsText(grace)}`,
      assumption: `logind runs on the node when its kubelet starts (rebootlab starts it on kind: lib/cluster/kind/logind.ts), so the kubelet holds its delay inhibitor lock; logind sends PrepareForShutdown as \`systemctl poweroff\` starts and the kubelet posts its status within ${SHUTDOWN_NOT_READY_WITHIN_SECONDS} s of the command's start; lastTransitionTime is truncated to the second`,
      because: 'the kubelet\'s shutdown manager syncs the node status at once on PrepareForShutdown(true): Ready=False, "node is shutting down" (nodeshutdown_manager_linux.go managerImpl.start)',
    }));
    const pods = forecastShutdownPods({
      experiment, node, offSeconds: off, preparedWithinSeconds: SHUTDOWN_NOT_READY_WITHIN_SECONDS, graceSeconds: grace, criticalSeconds: critical, pods: preFault.pods,
      otherWorkerExists: preFault.nodes.some((n) => !n.controlPlane && !preFault.targets.includes(n.name)), kubeletVersion, kubernetesVersion: input.kubernetesVersion,
    });
    items.push(...pods.items);
    notForecast.push(...pods.notForecast);
    const side = forecastShutdownNode({
      experiment, settings, node, offSeconds: off, preparedWithinSeconds: SHUTDOWN_NOT_READY_WITHIN_SECONDS, graceSeconds: grace, notReadyWindow,
      effect: faultEffect(experiment.fault.type, experiment.cluster.provider, experiment.fault.scope), kubeletVersion, kubernetesVersion: input.kubernetesVersion,
    });
    shutdowns.push(side);
    items.push(...side.items);
    notForecast.push(...side.notForecast);
  });
  // The not-ready NoExecute taints: the causal model's zone replay, as for any kubelet-reported Ready=False.
  const endSeconds = msToSeconds(experiment.observe.until === 'duration' && experiment.observe.durationMs !== null ? experiment.observe.durationMs : experiment.observe.timeoutMs);
  const zones = forecastTaints({ settings, nodes: preFault.nodes, targets: shutdowns.map((s) => s.target), pods: preFault.pods, endSeconds });
  items.push(...zones.items);
  for (const side of shutdowns) {
    if (side.unreachableNoExecute === null) continue;
    const swapped = side.unreachableNoExecute(zones.items.find((i) => i.node === side.target.name && i.event === 'no-execute-taint'));
    if (typeof swapped === 'string') notForecast.push(swapped);
    else items.push(swapped);
  }
  // The pods the shutdown left terminal on a target: deleted by the taint eviction controller (no phase filter).
  const evictions = forecastShutdownEvictions({ targets: shutdowns.map((s) => s.target), taints: zones.taints, pods: preFault.pods });
  items.push(...evictions.items);
  notForecast.push(...evictions.notForecast);
  // The clients' view: the killed pods' endpoints and the probers' last failed request (forecast/shutdown-clients.ts).
  const clients = forecastShutdownClients({ experiment, targets: preFault.targets, pods: preFault.pods, podItems: items });
  items.push(...clients.items);
  notForecast.push(...clients.notForecast);
  // The API's view: each workload's first drop below its desired count of available pods.
  const apiDrops = forecastShutdownApiDrops(items, preFault.pods, (node) => mechanismKey('kubelet-graceful-shutdown', kubeletVersionOf(node), input.kubernetesVersion));
  items.push(...apiDrops.items);
  notForecast.push(...apiDrops.notForecast);
  for (const version of new Set([input.kubernetesVersion, ...preFault.nodes.map((n) => n.kubeletVersion).filter((v): v is string => typeof v === 'string')])) {
    const warning = unsupportedVersionWarning(version);
    if (warning !== null) notForecast.push(warning);
  }
  return {
    kubernetesVersion: input.kubernetesVersion, conditionedOn: preFault.source, conditions: [...zones.zoneNotes, ...hostConditions(preFault)], targets: [...preFault.targets],
    mechanisms: Object.fromEntries([...new Set(items.map((i) => i.mechanism))].sort().map((key) => {
      const [id, version] = key.split('@') as [MechanismId, string | undefined];
      return [key, mechanismFor(id, version ?? input.kubernetesVersion)];
    })),
    items: orderItems(items), notForecast,
  };
}
