// Predicted windows (detection, NoExecute taint, eviction) from the effective timeout settings.
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds } from './clock.js';
import type { NodePrediction, PodPrediction, PodTimeline, Predictions, Window } from './types.js';

/**
 * Kubelet renews its Lease every 25% of nodeLeaseDurationSeconds (KEP-589 "Efficient Node Heartbeats",
 * https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/589-efficient-node-heartbeats;
 * kubelet `renewIntervalFraction = 0.25`). Seconds.
 */
export function leaseRenewIntervalSeconds(settings: TimeoutSettings): number {
  return msToSeconds(settings.kubelet.nodeLeaseDurationSeconds * 0.25 * 1000);
}

/**
 * When the node lifecycle controller marks a silent node Unknown, seconds since the fault: it checks every
 * `--node-monitor-period` and declares a node Unknown once its last heartbeat (Lease renewTime) is older than
 * `--node-monitor-grace-period`. The last renewal happened 0…renew-interval before the fault, so detection is in
 * [grace − renew interval, grace + monitor period].
 * https://kubernetes.io/docs/concepts/architecture/nodes/#node-controller
 */
export function detectionWindow(settings: TimeoutSettings): Window {
  const grace = msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs);
  const monitor = msToSeconds(settings.controllerManager.nodeMonitorPeriodMs);
  return { fromSeconds: round(grace - leaseRenewIntervalSeconds(settings)), toSeconds: round(grace + monitor) };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function shift(w: Window, bySeconds: number): Window {
  return { fromSeconds: round(w.fromSeconds + bySeconds), toSeconds: round(w.toSeconds + bySeconds) };
}

/**
 * Zone state once every target is NotReady, as ComputeZoneState in the node lifecycle controller
 * (pkg/controller/nodelifecycle): FullDisruption when no node of the cluster stays Ready; PartialDisruption when
 * more than 2 nodes and at least `--unhealthy-zone-threshold` of them are NotReady. A partially disrupted zone of
 * at most `--large-cluster-size-threshold` nodes gets eviction rate 0, so only a taint placed before the state
 * changed happens (case C1). https://kubernetes.io/docs/concepts/architecture/nodes/#rate-limits-on-eviction
 */
export function zoneState(settings: TimeoutSettings, clusterNodes: number, targets: number): { state: Predictions['zoneState']; suppressed: boolean } {
  const cm = settings.controllerManager;
  if (clusterNodes > 0 && targets >= clusterNodes) return { state: 'FullDisruption', suppressed: true };
  if (targets > 2 && targets / Math.max(clusterNodes, 1) >= cm.unhealthyZoneThreshold) {
    return { state: 'PartialDisruption', suppressed: clusterNodes <= cm.largeClusterSizeThreshold || cm.secondaryNodeEvictionRate === 0 };
  }
  return { state: 'Normal', suppressed: false };
}

/** Inputs of `predict` besides the settings. */
export interface PredictInput {
  /** Fault target node names, in the marker's order (= rate-limiter order). */
  targets: string[];
  /** Per target, when the fault hit it, seconds since fault (staggered faults); missing = 0. */
  targetOffsetSeconds?: ReadonlyMap<string, number>;
  /** Number of nodes in the cluster at the fault. */
  clusterNodes: number;
  /** Seconds since fault of the fault-restored marker, or null. */
  restoredAfterSeconds: number | null;
  /** Pods that existed at the fault (their tolerations decide eviction). */
  pods: readonly PodTimeline[];
}

/**
 * Predicted windows, seconds since fault: detection per target node (shifted by when a staggered fault hit it);
 * the NoExecute unreachable taint in the same monitor pass, at least 1 / `--node-eviction-rate` after the previous
 * target's taint (the zone's token
 * bucket; https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/); eviction
 * per pod at taint + that pod's unreachable tolerationSeconds (taint-based evictions,
 * https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions; the
 * DefaultTolerationSeconds admission plugin adds 300 s unless `--default-unreachable-toleration-seconds` says otherwise).
 */
export function predict(settings: TimeoutSettings, input: PredictInput): Predictions {
  const detection = detectionWindow(settings);
  const zone = zoneState(settings, input.clusterNodes, input.targets.length);
  const rate = settings.controllerManager.nodeEvictionRate;
  const restored = input.restoredAfterSeconds;
  // The zone's token bucket lets one node be tainted per 1 / rate seconds: node i is tainted at its own detection
  // or 1 / rate after node i − 1, whichever is later.
  let previousTaint: Window | null = null;
  const nodes: NodePrediction[] = input.targets.map((node, index) => {
    const offset = input.targetOffsetSeconds?.get(node) ?? 0;
    const nodeDetection = shift(detection, offset);
    const expected = restored === null ? true : restored < nodeDetection.fromSeconds ? false : restored > nodeDetection.toSeconds ? true : null;
    const suppressed = expected === false || (zone.suppressed && index > 0) || (index > 0 && rate <= 0);
    let taint: Window | null = null;
    if (!suppressed) {
      const gap = previousTaint && rate > 0 ? 1 / rate : 0;
      taint = previousTaint
        ? { fromSeconds: round(Math.max(nodeDetection.fromSeconds, previousTaint.fromSeconds + gap)), toSeconds: round(Math.max(nodeDetection.toSeconds, previousTaint.toSeconds + gap)) }
        : nodeDetection;
      previousTaint = taint;
    }
    return { node, injectedAfterSeconds: offset, detection: nodeDetection, detectionExpected: expected, noExecuteTaint: taint, rateLimitIndex: index };
  });
  const byNode = new Map(nodes.map((n) => [n.node, n]));
  const pods: PodPrediction[] = [];
  for (const pod of input.pods) {
    const node = pod.nodeBefore === null ? undefined : byNode.get(pod.nodeBefore);
    if (!node) continue;
    const seconds = pod.tolerations.unreachableTolerationSeconds;
    const eviction = node.noExecuteTaint && seconds !== null ? shift(node.noExecuteTaint, seconds) : null;
    // A fault restored before the eviction window opens evicts nothing (the taint is removed first).
    const evictionExpected = eviction && (restored === null || restored > eviction.fromSeconds) ? eviction : null;
    pods.push({ namespace: pod.namespace, name: pod.name, node: node.node, tolerationSeconds: seconds, eviction: evictionExpected });
  }
  return {
    leaseRenewIntervalSeconds: leaseRenewIntervalSeconds(settings),
    gracePeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorGracePeriodMs),
    monitorPeriodSeconds: msToSeconds(settings.controllerManager.nodeMonitorPeriodMs),
    zoneState: zone.state,
    evictionsSuppressed: zone.suppressed,
    nodes,
    pods,
  };
}
