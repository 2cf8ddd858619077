// The causal model: every predicted event derived from the observed event it follows, then judged against the journal.
// Mechanisms live in predict-detection.ts (Ready→Unknown, NoSchedule), predict-zones.ts (NoExecute taints, zone
// states, rate limiting) and predict-pods.ts (evictions, PodGC, steps, replacements).
import { DEFAULT_KUBERNETES_VERSION } from '../common/versions.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import { controllerClientRate, noScheduleThrottle, taintEvictionThrottle } from './controller-clients.js';
import { mergeHeartbeats, type Heartbeat } from './heartbeats.js';
import { judgeItem, secondsText, windowOf, type ItemDraft, type LeaderChange } from './predict-common.js';
import { detectionWindowAfterHeartbeat } from './windows.js';
import { leaseRenewIntervalSeconds, predictDetection } from './predict-detection.js';
import { predictJobReplacements } from './predict-jobs.js';
import type { JobFacts } from './jobs.js';
import { predictPods } from './predict-pods.js';
import { predictReadyAgain } from './predict-ready-again.js';
import { predictVolumes } from './predict-volumes.js';
import { blindChoices, observedChoices, predictNoExecuteTaints, SAME_PASS_SECONDS } from './predict-zones.js';
import { mechanismFor, mechanismKey, unsupportedVersionWarning, type MechanismId, type MechanismKey } from './mechanisms.js';
import type { FaultInstant, MechanismRef, NodeTimeline, PodTimeline, PredictionItem, Predictions, StepInstant, VolumeAnalysis } from './types.js';

export { leaseRenewIntervalSeconds } from './predict-detection.js';

/** What the model reads: timelines already built from the journal. Every instant is seconds since time zero. */
export interface PredictInput {
  nodes: readonly NodeTimeline[];
  pods: readonly PodTimeline[];
  faults: readonly FaultInstant[];
  steps: readonly StepInstant[];
  /** Per node name, its Lease renewTimes as journaled (server clock), seconds since time zero, ascending and distinct. */
  leaseRenewals: ReadonlyMap<string, readonly number[]>;
  /**
   * Per node name, its status posts (a changed Ready lastHeartbeatTime, lib/analyze/heartbeats.ts statusPosts),
   * seconds since time zero: heartbeats too for the node lifecycle controller. Absent: none journaled.
   */
  statusPosts?: ReadonlyMap<string, readonly Heartbeat[]>;
  /** kube-controller-manager leader changes after time zero, in order. */
  leaderChanges: readonly LeaderChange[];
  /**
   * Pods evicted through the Eviction API (a drain or another client; their DisruptionTarget condition says
   * EvictionByEvictionAPI), by pod uid → that condition's lastTransitionTime (whole seconds), seconds since time zero; may be absent.
   */
  apiEvictions?: ReadonlyMap<string, number>;
  /**
   * Pods their kubelet ended (DisruptionTarget reason TerminationByKubelet: a graceful node shutdown), by pod uid →
   * receipt of that record, seconds since time zero; may be absent.
   */
  kubeletTerminations?: ReadonlyMap<string, number>;
  /** The observer's delivery lag above its median (Lease renewTime → receipt), seconds, by receipt since time zero; may be empty. */
  observerLag?: readonly { atSeconds: number; lagSeconds: number }[];
  /** The Jobs of the journal as the Job controller acts on them (lib/analyze/jobs.ts); their pods' replacements follow its rules. Absent: none. */
  jobs?: readonly JobFacts[];
  /** Last journal record, seconds since time zero: windows closed before it and not met are misses. */
  endSeconds: number;
  /**
   * The API server's Kubernetes version (run.json cluster.kubernetesVersion), whose mechanisms are used
   * (lib/analyze/mechanisms.ts); null when unknown (older runs): the default version's are used.
   */
  kubernetesVersion?: string | null;
  /** Per node name, its kubeletVersion as journaled: its kubelet mechanisms (the API server's version for a node not listed). */
  kubeletVersions?: ReadonlyMap<string, string>;
  /** Attachable volumes through the fault (lib/analyze/volume-timeline.ts); absent when the run had none. */
  volumes?: VolumeAnalysis;
  /** Whether kube-controller-manager force-detaches after maxWaitForUnmountDuration (no --disable-force-detach-on-timeout); default true. */
  forceDetachOnTimeout?: boolean;
}

/**
 * Predict and judge: detection and NoSchedule per target node (and per node seen NotReady), NoExecute taints from the
 * zone replay, then pod evictions, deletions and replacements, and attachable volumes' detach, Multi-Attach and attach
 * (lib/analyze/predict-volumes.ts). Items are sorted by cause time (then node, pod);
 * `missed` lists those with `held === false`. Pure.
 */
export function predict(settings: TimeoutSettings, input: PredictInput): Predictions {
  const drafts: ItemDraft[] = [];
  const faults = new Map(input.faults.map((f) => [f.node, f]));
  const detections: ItemDraft[] = [];
  for (const node of input.nodes) {
    if (!faults.has(node.name) && node.notReadyStatus === null) continue;
    const heartbeats = mergeHeartbeats(input.leaseRenewals.get(node.name) ?? [], input.statusPosts?.get(node.name) ?? []);
    detections.push(...predictDetection({ settings, node, fault: faults.get(node.name), heartbeats, leaderChanges: input.leaderChanges }));
    const readyAgain = predictReadyAgain(settings, node, faults.get(node.name));
    if (readyAgain) drafts.push(readyAgain);
  }
  const zones = predictNoExecuteTaints(settings, input.nodes, input.endSeconds, input.leaderChanges, input.pods, observedChoices);
  // The same replay never reading an outcome: where its item differs, the observation chose the window.
  const blind = predictNoExecuteTaints(settings, input.nodes, input.endSeconds, input.leaderChanges, input.pods, blindChoices);
  drafts.push(...detections.map((d) => afterMasterDisruption(settings, d, zones.leftMasterDisruptionAtSeconds)));
  drafts.push(...markChosenByObservation(zones.items, blind.items));
  if (input.volumes) {
    const readyAgainSeconds = new Map(input.nodes.flatMap((n) => (n.readyAgainAfterSeconds === null ? [] : [[n.name, n.readyAgainAfterSeconds] as const])));
    drafts.push(...predictVolumes({ volumes: input.volumes, forceDetachOnTimeout: input.forceDetachOnTimeout ?? true, readyAgainSeconds }));
  }
  const jobPods = new Set((input.jobs ?? []).flatMap((j) => j.pods.map((p) => p.uid)));
  drafts.push(...predictPods({ pods: input.pods, nodes: input.nodes, targets: input.faults.map((f) => f.node), steps: input.steps, leaderChanges: input.leaderChanges, apiEvictions: input.apiEvictions ?? new Map(), kubeletTerminations: input.kubeletTerminations ?? new Map(), jobPods }));
  drafts.push(...predictJobReplacements(input.jobs ?? [], input.pods));
  applyClientThrottles(settings, input, drafts);
  const version = input.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const ownerKinds = new Map(input.pods.map((p) => [`${p.namespace}/${p.name}`, p.ownerKind]));
  const items: PredictionItem[] = drafts
    // A draft that names its mechanism keeps it (job-index-backoff); the others get theirs by event and owner.
    .map((d) => ({ ...d, mechanism: d.mechanism ?? keyOf(d, ownerKinds, version, input.kubeletVersions) }))
    .map((d) => judgeItem(d, input.endSeconds, input.observerLag ?? []))
    .sort((a, b) => (a.cause?.atSeconds ?? -Infinity) - (b.cause?.atSeconds ?? -Infinity) || a.node.localeCompare(b.node) || (a.pod ?? '').localeCompare(b.pod ?? ''));
  const mechanisms: Record<string, MechanismRef> = {};
  for (const key of [...new Set(items.map((i) => i.mechanism!))].sort()) {
    const [id, kubelet] = key.split('@') as [MechanismId, string | undefined];
    mechanisms[key] = mechanismFor(id, kubelet ?? version);
  }
  return {
    kubernetesVersion: input.kubernetesVersion ?? null,
    mechanisms,
    leaseRenewIntervalSeconds: leaseRenewIntervalSeconds(settings),
    gracePeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs),
    monitorPeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorPeriodMs),
    zoneStates: zones.zoneStates,
    items,
    missed: items.filter((i) => i.held === false),
    heldCount: items.filter((i) => i.held === true).length,
    predictedCount: items.filter((i) => i.notModelled === undefined).length,
    explainedCount: items.filter((i) => i.notModelled === undefined && i.chosenBy === 'observation').length,
    explainedHeldCount: items.filter((i) => i.held === true && i.chosenBy === 'observation').length,
  };
}

/** Kubelet mechanisms: keyed by the node's kubeletVersion where it differs from the API server's. */
const KUBELET_MECHANISMS: ReadonlySet<MechanismId> = new Set(['kubelet-runtime-health', 'kubelet-status', 'kubelet-restart-readiness', 'kubelet-ready-again', 'kubelet-admission']);

/**
 * The mechanism that gives a causal-model item: one per event, a deletion by its deleter (PodGC or a
 * force-delete-pods step), a replacement by its pod's owner (ReplicaSet, StatefulSet, Job, none); keyed
 * `id@<kubeletVersion>` for a kubelet mechanism on a node whose kubelet runs another version (lib/analyze/mechanisms.ts).
 */
function keyOf(item: ItemDraft, ownerKinds: ReadonlyMap<string, string | null>, version: string, kubeletVersions: ReadonlyMap<string, string> | undefined): MechanismKey {
  const id = mechanismIdOf(item, ownerKinds);
  return KUBELET_MECHANISMS.has(id) ? mechanismKey(id, kubeletVersions?.get(item.node) ?? version, version) : id;
}

function mechanismIdOf(item: ItemDraft, ownerKinds: ReadonlyMap<string, string | null>): MechanismId {
  switch (item.event) {
    case 'node-not-ready': return 'node-health';
    case 'node-not-ready-kubelet': return 'kubelet-runtime-health';
    case 'node-ready-again': return 'kubelet-ready-again';
    case 'no-schedule-taint': return 'no-schedule-taint';
    case 'no-execute-taint': return 'no-execute-taint';
    case 'pod-eviction': return 'taint-eviction';
    case 'pod-deleted': return item.cause?.event.startsWith('force-delete-pods step') ? 'step' : 'pod-gc';
    case 'volume-detach':
    case 'volume-attach':
    case 'multi-attach-error': return 'attach-detach';
    case 'replacement-created': {
      const owner = item.pod === null ? null : ownerKinds.get(item.pod) ?? null;
      return owner === 'StatefulSet' ? 'statefulset' : owner === 'Job' ? 'job' : owner === null ? 'standalone-pod' : 'replicaset';
    }
  }
}

/** The analysis warning for `version`: outside the modelled set, or unknown. Null for a modelled version. */
export function versionWarning(version: string | null): string | null {
  if (version === null) return `the cluster's Kubernetes version is not recorded (run.json predates it): the mechanisms of ${DEFAULT_KUBERNETES_VERSION} are used`;
  return unsupportedVersionWarning(version);
}

/**
 * A Ready→Unknown window after the controller left master disruption mode at `leftAtSeconds` (seconds since time
 * zero): leaving it sets every node's probeTimestamp to the controller's clock (handleDisruption,
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go, v1.34), so a silent node not yet marked Unknown gets a
 * whole grace period again from that pass. A window wholly after it restarts there; one straddling it ends there
 * (the node may have been marked before). Unchanged otherwise.
 */
function afterMasterDisruption(settings: TimeoutSettings, item: ItemDraft, leftAtSeconds: number | null): ItemDraft {
  const w = item.window;
  if (leftAtSeconds === null || item.event !== 'node-not-ready' || !item.expected || w === null || w.toSeconds <= leftAtSeconds || (item.cause?.atSeconds ?? -Infinity) >= leftAtSeconds) return item;
  const restarted = detectionWindowAfterHeartbeat(settings, leftAtSeconds);
  return {
    ...item, window: windowOf(w.fromSeconds < leftAtSeconds ? w.fromSeconds : restarted.fromSeconds, restarted.toSeconds),
    because: `${item.because}; the controller left master disruption mode at ${secondsText(leftAtSeconds)}, which restarts every node's grace period from that pass${w.fromSeconds < leftAtSeconds ? ' (unless it was marked before)' : ''}`,
  };
}

/**
 * `observed` items (the zone replay with observedChoices) marked `chosenBy: 'observation'` where the blind replay
 * (blindChoices, never reading an outcome) gives a different verdict shape: another expectation, window or
 * not-modelled reason; `otherwise` then holds the blind item's. Matched by event, node and taint key (one zone item
 * per detected node).
 */
export function markChosenByObservation(observed: readonly ItemDraft[], blind: readonly ItemDraft[]): ItemDraft[] {
  const key = (i: ItemDraft) => `${i.event}|${i.node}|${i.pod ?? ''}|${i.taintKey ?? ''}`;
  const blindByKey = new Map(blind.map((i) => [key(i), i]));
  return observed.map((item) => {
    const other = blindByKey.get(key(item));
    const same = other !== undefined && other.expected === item.expected && other.window?.fromSeconds === item.window?.fromSeconds &&
      other.window?.toSeconds === item.window?.toSeconds && (other.notModelled === undefined) === (item.notModelled === undefined);
    if (same) return item;
    const otherwise = other === undefined
      ? { expected: false, window: null, held: null, because: 'the model alone has no item for this node' }
      : { expected: other.expected, window: other.window, held: null, because: other.because, ...(other.notModelled !== undefined ? { notModelled: other.notModelled } : {}) };
    return { ...item, chosenBy: 'observation' as const, otherwise };
  });
}

/** Evictions whose countdowns end within this long of each other fire together, seconds (the timed workers fire on their own). */
const SAME_FIRING_SECONDS = 1;

/**
 * Widens, in place, the windows the controllers' client rate limits can delay (lib/analyze/controller-clients.ts):
 * the NoSchedule taints of a monitor pass with more writes than --kube-api-burst (node lifecycle controller's client),
 * and the evictions of pods whose countdowns end together (the taint eviction controller's own client, 4 requests per
 * pod: 8 or more at once wait at the defaults). Each widened item says why.
 */
function applyClientThrottles(settings: TimeoutSettings, input: PredictInput, drafts: ItemDraft[]): void {
  const rate = controllerClientRate(settings);
  const podsByNode = new Map<string, number[]>();
  for (const p of input.pods) {
    if (p.nodeBefore === null || p.notReadyReceivedAfterSeconds === null) continue;
    podsByNode.set(p.nodeBefore, [...(podsByNode.get(p.nodeBefore) ?? []), p.notReadyReceivedAfterSeconds]);
  }
  const notReady = input.nodes.flatMap((n) => (n.notReadyReceivedAfterSeconds === null || n.notReadyStatus === null ? [] : [{
    name: n.name, atSeconds: n.notReadyReceivedAfterSeconds, readyStatus: n.notReadyStatus, podsNotReadyAtSeconds: podsByNode.get(n.name) ?? [],
  }]));
  const noSchedule = noScheduleThrottle(rate, notReady, SAME_PASS_SECONDS);
  for (const d of drafts) {
    if (d.event !== 'no-schedule-taint' || d.window === null) continue;
    const wait = noSchedule.get(d.node);
    if (!wait) continue;
    d.window = windowOf(d.window.fromSeconds, d.window.toSeconds + wait.waitSeconds);
    d.because += `; ${wait.because}`;
  }
  const evictions = drafts.filter((d) => d.event === 'pod-eviction' && d.expected && d.window !== null && d.notModelled === undefined).sort((a, b) => a.window!.toSeconds - b.window!.toSeconds);
  for (let i = 0; i < evictions.length;) {
    const first = evictions[i]!.window!.toSeconds;
    const batch: ItemDraft[] = [];
    while (i < evictions.length && evictions[i]!.window!.toSeconds - first <= SAME_FIRING_SECONDS) batch.push(evictions[i++]!);
    const wait = taintEvictionThrottle(rate, batch.length);
    if (!wait) continue;
    for (const d of batch) {
      d.window = windowOf(d.window!.fromSeconds, d.window!.toSeconds + wait.waitSeconds);
      d.because += `; ${wait.because}`;
    }
  }
}
