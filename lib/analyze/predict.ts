// The causal model: every predicted event derived from the observed event it follows, then judged against the journal.
// Mechanisms live in predict-detection.ts (Ready→Unknown, NoSchedule), predict-zones.ts (NoExecute taints, zone
// states, rate limiting) and predict-pods.ts (evictions, PodGC, steps, replacements).
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import { judgeItem, type ItemDraft, type LeaderChange } from './predict-common.js';
import { leaseRenewIntervalSeconds, predictDetection } from './predict-detection.js';
import { predictPods } from './predict-pods.js';
import { predictNoExecuteTaints } from './predict-zones.js';
import type { FaultInstant, NodeTimeline, PodTimeline, PredictionItem, Predictions, StepInstant } from './types.js';

export { leaseRenewIntervalSeconds } from './predict-detection.js';

/** What the model reads: timelines already built from the journal. Every instant is seconds since time zero. */
export interface PredictInput {
  nodes: readonly NodeTimeline[];
  pods: readonly PodTimeline[];
  faults: readonly FaultInstant[];
  steps: readonly StepInstant[];
  /** Per node name, its Lease renewTimes as journaled (server clock), seconds since time zero, ascending and distinct. */
  leaseRenewals: ReadonlyMap<string, readonly number[]>;
  /** kube-controller-manager leader changes after time zero, in order. */
  leaderChanges: readonly LeaderChange[];
  /**
   * Pods evicted through the Eviction API (a drain or another client; their DisruptionTarget condition says
   * EvictionByEvictionAPI), by pod uid → that condition's lastTransitionTime (whole seconds), seconds since time zero; may be absent.
   */
  apiEvictions?: ReadonlyMap<string, number>;
  /** The observer's delivery lag above its median (Lease renewTime → receipt), seconds, by receipt since time zero; may be empty. */
  observerLag?: readonly { atSeconds: number; lagSeconds: number }[];
  /** Last journal record, seconds since time zero: windows closed before it and not met are misses. */
  endSeconds: number;
}

/**
 * Predict and judge: detection and NoSchedule per target node (and per node seen NotReady), NoExecute taints from the
 * zone replay, then pod evictions, deletions and replacements. Items are sorted by cause time (then node, pod);
 * `missed` lists those with `held === false`. Pure.
 */
export function predict(settings: TimeoutSettings, input: PredictInput): Predictions {
  const drafts: ItemDraft[] = [];
  const faults = new Map(input.faults.map((f) => [f.node, f]));
  for (const node of input.nodes) {
    if (!faults.has(node.name) && node.notReadyStatus === null) continue;
    drafts.push(...predictDetection({ settings, node, fault: faults.get(node.name), renewals: input.leaseRenewals.get(node.name) ?? [], leaderChanges: input.leaderChanges }));
  }
  const zones = predictNoExecuteTaints(settings, input.nodes, input.endSeconds, input.leaderChanges, input.pods);
  drafts.push(...zones.items);
  drafts.push(...predictPods({ pods: input.pods, nodes: input.nodes, targets: input.faults.map((f) => f.node), steps: input.steps, leaderChanges: input.leaderChanges, apiEvictions: input.apiEvictions ?? new Map() }));
  const items: PredictionItem[] = drafts
    .map((d) => judgeItem(d, input.endSeconds, input.observerLag ?? []))
    .sort((a, b) => (a.cause?.atSeconds ?? -Infinity) - (b.cause?.atSeconds ?? -Infinity) || a.node.localeCompare(b.node) || (a.pod ?? '').localeCompare(b.pod ?? ''));
  return {
    leaseRenewIntervalSeconds: leaseRenewIntervalSeconds(settings),
    gracePeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs),
    monitorPeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorPeriodMs),
    zoneStates: zones.zoneStates,
    items,
    missed: items.filter((i) => i.held === false),
    heldCount: items.filter((i) => i.held === true).length,
    predictedCount: items.filter((i) => i.notModelled === undefined).length,
  };
}
