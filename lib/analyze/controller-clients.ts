// The client-side rate limits of kube-controller-manager's controllers: which requests each one sends, and how long
// a burst of them waits for tokens. Each controller gets its own client (ControllerContext.ClientBuilder) with its own
// token bucket of --kube-api-burst tokens refilled at --kube-api-qps per second (client-go flowcontrol).
import { KUBE_API_BURST_DEFAULT, KUBE_API_QPS_DEFAULT, type TimeoutSettings } from '../spec/settings.js';
import { round3, secondsText } from './predict-common.js';

/**
 * Goroutines of the node lifecycle controller that write through its client besides the tainting loop: 8 monitor-pass
 * workers (status, MarkPodsNotReady), 8 node-update workers (NoSchedule taints) and the Event sink
 * (nodeUpdateWorkerSize = 8 in pkg/controller/nodelifecycle/node_lifecycle_controller.go, v1.34). Each blocks on at
 * most one reserved request at a time.
 */
export const CONTROLLER_WRITERS = 8 + 8 + 1;

/** A controller client's token bucket: `qps` tokens per second, at most `burst` at once. */
export interface ClientRate {
  qps: number;
  burst: number;
}

/** kube-controller-manager's per-controller client rate (--kube-api-qps, --kube-api-burst; defaults 20 and 30). */
export function controllerClientRate(settings: TimeoutSettings): ClientRate {
  return { qps: settings.controllerManager.kubeAPIQPS ?? KUBE_API_QPS_DEFAULT, burst: settings.controllerManager.kubeAPIBurst ?? KUBE_API_BURST_DEFAULT };
}

/**
 * Requests the node lifecycle controller sends for one node in the monitor pass that sees it NotReady
 * (pkg/controller/nodelifecycle/node_lifecycle_controller.go monitorNodeHealth, v1.34.4), its in-pass NoExecute taint
 * aside:
 * - Ready=Unknown (the controller marks it): the node's status (tryUpdateNodeHealth UpdateStatus), a NodeNotReady
 *   Event (RecordNodeStatusChange), the NoSchedule taint (a GET and a PATCH, doNoScheduleTaintingPass), and per pod
 *   still Ready its Ready=False status and a NodeNotReady Event (MarkPodsNotReady);
 * - Ready=False (the kubelet wrote it): only the NoSchedule taint. The controller read the kubelet's False as both
 *   the observed and the current condition, so its "changed from True" branch (Event, MarkPodsNotReady) never runs
 *   (recorded runtime-stop: pods still Ready until 101 s, the NodeNotReady Event from the kubelet).
 */
export function nodeLifecycleWritesForNode(readyStatus: 'Unknown' | 'False', podsMarkedNotReady: number): number {
  if (readyStatus === 'False') return 2;
  return 1 + 1 + 2 + 2 * podsMarkedNotReady;
}

/**
 * Requests the taint eviction controller sends per pod it evicts (pkg/controller/tainteviction/taint_eviction.go,
 * v1.34.4): the TaintManagerEviction Event (emitPodDeletionEvent, posted through the same client), then
 * addConditionAndDeletePod's GET, status PATCH (DisruptionTarget) and DELETE. 4.
 */
export const TAINT_EVICTION_REQUESTS_PER_POD = 4;

/**
 * How long the last of `requests` requests sent at once through one client waits for a token, seconds: the bucket
 * holds `burst` (full after a quiet spell), then one token per 1 / qps s. 0 when they fit in the burst.
 */
export function burstWaitSeconds(rate: ClientRate, requests: number): number {
  return round3(Math.max(0, (requests - rate.burst) / rate.qps));
}

/**
 * The taint eviction controller evicting `pods` pods at once (their countdowns fire together: one node's pods with
 * the same toleration): the last eviction's requests wait up to burstWaitSeconds of 4 per pod, seconds; with the
 * reason, or null when they fit in the burst (7 pods at the defaults). The timed workers fire each pod on its own
 * goroutine and the bucket serves them in order, so any pod of the batch may be the late one.
 */
export function taintEvictionThrottle(rate: ClientRate, pods: number): { waitSeconds: number; because: string } | null {
  const requests = TAINT_EVICTION_REQUESTS_PER_POD * pods;
  const waitSeconds = burstWaitSeconds(rate, requests);
  if (waitSeconds <= 0) return null;
  return {
    waitSeconds,
    because: `${pods} pods evicted at once by the taint eviction controller send ${requests} requests (Event, GET, PATCH DisruptionTarget, DELETE each) through its own client: up to ${secondsText(waitSeconds)} for tokens (${requests} − --kube-api-burst ${rate.burst}, at --kube-api-qps ${rate.qps}/s)`,
  };
}

/** One node seen NotReady, for {@link noScheduleThrottle}: its name, when NotReady was received (seconds since time zero), and by whom. */
export interface NotReadyNode {
  name: string;
  atSeconds: number;
  readyStatus: 'Unknown' | 'False';
  /** When each of its pods' Ready=False was received, seconds since time zero. */
  podsNotReadyAtSeconds: readonly number[];
}

/**
 * How long the NoSchedule taint of each node may wait for the node lifecycle controller's client tokens, seconds, by
 * node name (absent: no wait). The taint (a GET and a PATCH by a node-update worker) shares the controller's client
 * with the monitor pass's other writes (nodeLifecycleWritesForNode, for every node NotReady in that pass: receipts
 * within `samePassSeconds` of the first): behind them all at most (W − burst) / qps, and behind one pending request
 * per other writer goroutine at most 2 × (CONTROLLER_WRITERS + 1) / qps; the smaller bound.
 */
export function noScheduleThrottle(rate: ClientRate, nodes: readonly NotReadyNode[], samePassSeconds: number): Map<string, { waitSeconds: number; because: string }> {
  const result = new Map<string, { waitSeconds: number; because: string }>();
  const sorted = [...nodes].sort((a, b) => a.atSeconds - b.atSeconds);
  for (let i = 0; i < sorted.length;) {
    const first = sorted[i]!.atSeconds;
    const pass: NotReadyNode[] = [];
    while (i < sorted.length && sorted[i]!.atSeconds - first <= samePassSeconds) pass.push(sorted[i++]!);
    let writes = 0;
    for (const n of pass) {
      const marked = n.readyStatus === 'False' ? 0 : n.podsNotReadyAtSeconds.filter((at) => at >= n.atSeconds - samePassSeconds).length;
      writes += nodeLifecycleWritesForNode(n.readyStatus, marked);
    }
    const behindAll = burstWaitSeconds(rate, writes);
    if (behindAll <= 0) continue;
    const waitSeconds = round3(Math.min(behindAll, (2 * (CONTROLLER_WRITERS + 1)) / rate.qps));
    for (const n of pass) {
      result.set(n.name, { waitSeconds, because: `the monitor pass that saw ${pass.length} node(s) NotReady wrote ${writes} requests through the node lifecycle controller's client, which the NoSchedule taint shares: up to ${secondsText(waitSeconds)} for tokens (--kube-api-burst ${rate.burst}, --kube-api-qps ${rate.qps}/s)` });
    }
  }
  return result;
}
