// The node lifecycle controller's client-side rate limit (client-go flowcontrol token bucket, --kube-api-qps /
// --kube-api-burst): how long the writes of one monitor pass can hold back the in-pass NoExecute taint.
import { KUBE_API_BURST_DEFAULT, KUBE_API_QPS_DEFAULT, type TimeoutSettings } from '../../spec/settings.js';
import { CONTROLLER_WRITERS, nodeLifecycleWritesForNode } from '../controller-clients.js';
import { round3, secondsText, UNREACHABLE_TAINT } from '../predict-common.js';
import type { Detection } from './limiter.js';
import { SAME_PASS_SECONDS } from './tolerances.js';

/** How long the node lifecycle controller's client-side rate limiter can hold an in-pass taint back, and why. */
export interface ClientThrottle {
  /** Longest wait of the taint's GET and PATCH behind the pass's other writes, seconds (> 0). */
  waitSeconds: number;
  because: string;
}

/**
 * The node lifecycle controller writes through one client whose token bucket holds `--kube-api-burst` requests and
 * refills at `--kube-api-qps` per second (client-go flowcontrol; defaults 20 and 30). In the monitor pass that marks
 * nodes NotReady it writes, per node (lib/analyze/controller-clients.ts nodeLifecycleWritesForNode): for Ready=Unknown
 * its Ready condition, a NodeNotReady Event, the NoSchedule taint (a GET and a PATCH, doNoScheduleTaintingPass) and
 * per pod on it that was Ready its Ready=False status and a NodeNotReady Event (MarkPodsNotReady); for a Ready=False
 * the kubelet wrote, only the NoSchedule taint. The in-pass NoExecute taint needs two
 * more requests (GET, PATCH: SwapNodeControllerTaint). With the bucket full at the pass start (the controller writes
 * nothing while nodes are healthy), the last of the W + 2 requests goes out at most (W + 2 − burst) / qps seconds
 * after the pass started, which is before the first Ready=Unknown of the pass was received. Pods are counted as
 * journaled (NotReady received in or after the pass): pods in namespaces the observer did not watch are not, so the
 * bound can only be short, never wide. The rate limiter serves reservations in order and each other writer goroutine
 * holds at most one, so each of the two requests also waits at most (writers + 1) / qps: the wait is the smaller of
 * both bounds. Null when the pass fits in the burst.
 */
export function clientThrottle(settings: TimeoutSettings, passDetections: readonly Detection[], podNotReadyByNode: ReadonlyMap<string, readonly number[]>): ClientThrottle | null {
  const qps = settings.controllerManager.kubeAPIQPS ?? KUBE_API_QPS_DEFAULT;
  const burst = settings.controllerManager.kubeAPIBurst ?? KUBE_API_BURST_DEFAULT;
  let nodeWrites = 0;
  let podWrites = 0;
  for (const d of passDetections) {
    // A node the kubelet reported Ready=False gets only its NoSchedule taint written in the pass (nodeLifecycleWritesForNode).
    const status = d.key === UNREACHABLE_TAINT ? 'Unknown' : 'False';
    const marked = status === 'False' ? 0 : (podNotReadyByNode.get(d.node.name) ?? []).filter((at) => at >= d.atSeconds - SAME_PASS_SECONDS).length;
    const writes = nodeLifecycleWritesForNode(status, marked);
    podWrites += 2 * marked;
    nodeWrites += writes - 2 * marked;
  }
  const writes = nodeWrites + podWrites;
  const behindAll = (writes + 2 - burst) / qps;
  if (behindAll <= 0) return null;
  // Each of the taint's two requests waits at most behind one pending request per other writer goroutine.
  const behindWriters = (2 * (CONTROLLER_WRITERS + 1)) / qps;
  const waitSeconds = round3(Math.min(behindAll, behindWriters));
  const why = behindAll <= behindWriters
    ? `so its GET + PATCH may wait up to ${secondsText(waitSeconds)} for tokens (${writes} + 2 − --kube-api-burst ${burst}, at --kube-api-qps ${qps}/s)`
    : `so each of its GET and PATCH may wait behind one pending request of each of the controller's ${CONTROLLER_WRITERS} other writers: up to ${secondsText(waitSeconds)} at --kube-api-qps ${qps}/s (--kube-api-burst ${burst})`;
  return {
    waitSeconds,
    because: `that pass wrote ${writes} requests through the controller's client (${passDetections.length} node(s): status, NodeNotReady Event, NoSchedule taint GET + PATCH = ${nodeWrites}; ${podWrites / 2} pod(s) marked Ready=False, each with an Event = ${podWrites}), ${why}`,
  };
}
