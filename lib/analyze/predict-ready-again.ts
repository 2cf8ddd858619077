// Causal model, node part after the fault: when the kubelet reports its node Ready again once the fault ended.
import type { TimeoutSettings } from '../spec/settings.js';
import { KUBELET_LOOP_JITTER } from '../spec/settings.js';
import { causeOf, OBSERVATION_LATENCY_SECONDS, round3, secondsText, windowOf, type ItemDraft } from './predict-common.js';
import { leaseRenewIntervalSeconds } from './windows.js';
import type { FaultInstant, NodeTimeline, Window } from './types.js';

/**
 * client-go's HTTP/2 connection health check (k8s.io/apimachinery pkg/util/net/http.go readIdleTimeoutSeconds and
 * pingTimeoutSeconds, v0.34.4 to v0.37.2, env HTTP2_READ_IDLE_TIMEOUT_SECONDS / HTTP2_PING_TIMEOUT_SECONDS): a
 * connection that received no frame for 30 s is pinged, and closed when no answer comes within 15 s. Seconds.
 */
export const HTTP2_CONNECTION_LOST_AFTER_SECONDS = 30 + 15;
/**
 * Longest wait of a client-go reflector between two failed list/watch attempts, seconds: its backoff starts at 0.8 s,
 * doubles up to a 30 s cap and is jittered by up to 100 %, counted after the failed attempt returned, so a wait is
 * below 2 × 30 s (tools/cache/reflector.go: NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0) in v0.34.4 and
 * v0.35.4; from v0.36.3 on, wait.Backoff{defaultBackoffInit 800ms, defaultBackoffMax 30s, Factor 2, Jitter 1}
 * DelayWithReset(2m) run by Until(immediate, sliding): the same bounds, read in v0.36.3 and v0.37.2).
 */
export const REFLECTOR_MAX_RETRY_SECONDS = 2 * 30;
/** The kubelet checks its container runtime's status every 5 s (pkg/kubelet/kubelet.go `updateRuntimeUp` loop, v1.34.4 to v1.37.2). Seconds. */
export const KUBELET_RUNTIME_CHECK_SECONDS = 5;
/** Linux TCP's smallest retransmission timeout, seconds (TCP_RTO_MIN, 200 ms); the timeout doubles per retransmission. */
export const TCP_RTO_MIN_SECONDS = 0.2;
/**
 * How long after the heal of a partition that drops packets (iptables DROP: `scope: control-plane`, or the agent
 * backend's partition) a dial begun during it may still fail, seconds. client-go's dialer gives up after 30 s
 * (k8s.io/client-go transport/cache.go, net.Dialer{Timeout: 30 * time.Second}, v0.34.4 to v0.37.2), and Linux
 * sends an unanswered SYN again 1, 3, 7, 15 and 31 s after the first (initial RTO 1 s, doubling; tcp_syn_retries 6):
 * a dial whose SYNs were dropped connects at its next SYN after the heal if that comes within the 30 s, else fails at
 * 30 s, at most 15 s after a heal just past its SYN at 15 s; the reflector then waits its backoff. A partition that
 * removes the node's interface (kind's `docker network disconnect`) fails every dial at once (no route), so nothing
 * hangs.
 */
export const DROPPED_DIAL_FAILS_WITHIN_SECONDS = 30 - 15;

/** What ended the fault, as the kubelet lives through it. */
export type ReadyAgainCase = 'network-partition' | 'freeze' | 'runtime-stop' | 'kubelet-start';

/** A "Ready again" window with the mechanism and assumption behind it; null window = not modelled (`why`). */
export interface ReadyAgainWindow {
  window: Window | null;
  because: string;
  notModelled?: string;
}

/**
 * When a fault ended, as {@link readyAgainWindowIn} counts from it: known instants (the causal model, from the
 * journal's markers) or ranges (the forecast, before the fault). Seconds since time zero, each pair [earliest, latest].
 */
export interface FaultEnd {
  /** The undo command started (`fault-restoring` marker). */
  restoringSeconds: readonly [number, number];
  /** The undo command returned (`fault-restored` marker). */
  restoredSeconds: readonly [number, number];
  /** How long the fault held (a partition: the node cut off), [shortest, longest], seconds. */
  faultSeconds: readonly [number, number];
  /**
   * A network partition that drops packets (iptables DROP) rather than removing the node's interface: a dial begun
   * during it may still fail up to {@link DROPPED_DIAL_FAILS_WITHIN_SECONDS} after the heal. False for kind's
   * `docker network disconnect`.
   */
  trafficDropped: boolean;
}

/**
 * When the kubelet posts its node Ready=True again after the fault ended (server lastTransitionTime, seconds since
 * time zero), from when the undo started and returned (`end`). The one formula of the causal model
 * ({@link readyAgainWindow}, instants from the journal) and the forecast (lib/analyze/forecast/nodes.ts, ranges).
 *
 * Why it can take long: the kubelet builds each status post as a patch against the Node in its own informer cache
 * (pkg/kubelet/kubelet_node_status.go tryUpdateNodeStatus reads kl.nodeLister on its first try and patches the
 * difference, v1.34.4 to v1.37.2; component-helpers node/util/status.go PatchNodeStatus sends a two-way strategic
 * merge patch). While that cache still shows the Ready=True the kubelet last wrote, not the controller's
 * Ready=Unknown, its freshly computed Ready=True looks unchanged: no post (or one that patches lastHeartbeatTime
 * only), so the node stays Unknown although its Lease is renewed again. The node turns Ready at the first status
 * sync (every nodeStatusUpdateFrequency U, + 4 % jitter) after the kubelet's Node informer delivered the
 * controller's write. Per case:
 * - `network-partition`: once the kubelet's HTTP/2 connection got no frame for 45 s it is closed
 *   (HTTP2_CONNECTION_LOST_AFTER_SECONDS) and its reflectors retry with a backoff of up to 60 s
 *   (REFLECTOR_MAX_RETRY_SECONDS): Ready within [restoring − 1, restored + 60 + U' + latency], and 15 s more when
 *   the partition dropped packets (DROPPED_DIAL_FAILS_WITHIN_SECONDS) (measured on kind, 3 Dec 2026: connection lost
 *   44.7 s into a 120 s partition; Node reflector attempts 2.8, 4.7, 7.1, 19.9 and 46.6 s apart; the one 4.9 s
 *   after the heal listed the Node, Ready 9.5 s later at the next status sync). A partition shorter than 45 s minus
 *   one Lease renew interval (the last frame, a renewal answer, came at most that long before it) keeps the
 *   connection; its next TCP retransmission after the heal comes within one retransmission timeout, at most the
 *   partition's length + 200 ms (Linux doubles it from 200 ms), and the watch resumes then (measured: a 35 s
 *   partition kept the connection; Ready 12.9 s after the heal). In between, or when the length is only known within
 *   a range (the forecast), either.
 * - `freeze`: the kernel kept the frozen kubelet's connections (and froze its HTTP/2 health check with it): the
 *   watch resumes at the unfreeze, Ready within [restoring − 1, restored + U' + latency].
 * - `runtime-stop`: the kubelet ran throughout and its cache is current; it sees the runtime back at its next runtime
 *   check (every 5 s) and posts at the next status sync: [restoring − 1, restored + 5 + U' + latency].
 * - `kubelet-start` (kubelet-stop, power-off, reboot, node-delete): a starting kubelet lists its Node afresh and posts
 *   Ready as soon as its runtime, network and PLEG are ready (fastStatusUpdateOnce, every 100 ms): when that is
 *   depends on the node's boot and the runtime's start, not on a Kubernetes setting: not modelled here (the forecast
 *   takes measured spans for it: lib/analyze/forecast/fault-effects.ts).
 * −1 s: lastTransitionTime is truncated to whole seconds; latency: OBSERVATION_LATENCY_SECONDS for the patch.
 */
export function readyAgainWindowIn(settings: TimeoutSettings, kind: ReadyAgainCase, end: FaultEnd): ReadyAgainWindow {
  const statusSync = round3((settings.kubelet.nodeStatusUpdateFrequencyMs / 1000) * (1 + KUBELET_LOOP_JITTER));
  const tail = statusSync + OBSERVATION_LATENCY_SECONDS;
  const from = end.restoringSeconds[0] - 1;
  const restored = end.restoredSeconds[1];
  const sync = `the next status sync (nodeStatusUpdateFrequency, ≤ ${secondsText(statusSync)})`;
  switch (kind) {
    case 'network-partition': {
      const [shortest, longest] = end.faultSeconds;
      const lostSurely = shortest >= HTTP2_CONNECTION_LOST_AFTER_SECONDS;
      const keptSurely = longest < HTTP2_CONNECTION_LOST_AFTER_SECONDS - leaseRenewIntervalSeconds(settings);
      const dial = end.trafficDropped ? DROPPED_DIAL_FAILS_WITHIN_SECONDS : 0;
      const lost = restored + dial + REFLECTOR_MAX_RETRY_SECONDS + tail;
      const kept = restored + longest + TCP_RTO_MIN_SECONDS + tail;
      const to = lostSurely ? lost : keptSurely ? kept : Math.max(lost, kept);
      const length = shortest === longest ? secondsText(shortest) : `${secondsText(shortest)} to ${secondsText(longest)}`;
      const retry = `its Node informer relists only at its reflector's next retry after the heal (backoff up to ${REFLECTOR_MAX_RETRY_SECONDS} s${dial > 0 ? `, after a dial begun while packets were dropped gave up, up to ${dial} s after the heal` : ''})`;
      const how = lostSurely
        ? `the partition (${length}) outlasted client-go's HTTP/2 health check (${HTTP2_CONNECTION_LOST_AFTER_SECONDS} s without a frame): the kubelet's connection was closed and ${retry}`
        : keptSurely
          ? `the partition (${length}) was shorter than client-go's HTTP/2 health check (${HTTP2_CONNECTION_LOST_AFTER_SECONDS} s without a frame): the kubelet's connection survived and its watch resumes at the next TCP retransmission after the heal (≤ the partition's length + ${TCP_RTO_MIN_SECONDS} s)`
          : `the partition (${length}) may or may not have outlasted client-go's HTTP/2 health check (${HTTP2_CONNECTION_LOST_AFTER_SECONDS} s without a frame; the last frame came up to one Lease renew interval before it): the kubelet's watch resumes at the next TCP retransmission, or ${retry}`;
      return { window: windowOf(from, to), because: `the kubelet reports Ready once its Node informer shows the controller's Ready=Unknown (it patches its status against that cache): ${how}; then ${sync}` };
    }
    case 'freeze':
      return { window: windowOf(from, restored + tail), because: `the frozen kubelet's connections survived in its kernel: its Node informer catches up at the unfreeze and it reports Ready at ${sync}` };
    case 'runtime-stop':
      return { window: windowOf(from, restored + KUBELET_RUNTIME_CHECK_SECONDS + tail), because: `the kubelet sees the container runtime back at its next runtime check (every ${KUBELET_RUNTIME_CHECK_SECONDS} s, updateRuntimeUp) and reports Ready at ${sync}` };
    case 'kubelet-start':
      return { window: null, because: 'a starting kubelet reports Ready as soon as its runtime, network and PLEG are ready (fastStatusUpdateOnce)', notModelled: 'not modelled: when a starting kubelet finds its runtime ready depends on the node\'s boot and the runtime\'s start, not on a Kubernetes setting' };
  }
}

/**
 * {@link readyAgainWindowIn} for a fault whose end the journal gives: the undo started at `restoringSeconds` and
 * returned at `restoredSeconds` (seconds since time zero), the fault held `faultSeconds`; `trafficDropped` for a
 * partition made of iptables DROP rules (see FaultEnd).
 */
export function readyAgainWindow(settings: TimeoutSettings, kind: ReadyAgainCase, restoringSeconds: number, restoredSeconds: number, faultSeconds: number, trafficDropped = false): ReadyAgainWindow {
  return readyAgainWindowIn(settings, kind, { restoringSeconds: [restoringSeconds, restoringSeconds], restoredSeconds: [restoredSeconds, restoredSeconds], faultSeconds: [faultSeconds, faultSeconds], trafficDropped });
}

/** The Ready-again case of a fault type, or null when the fault has no end (or none the kubelet lives through). */
export function readyAgainCase(faultType: string | null): ReadyAgainCase | null {
  switch (faultType) {
    case 'network-partition':
    case 'freeze':
    case 'runtime-stop':
      return faultType;
    case 'kubelet-stop':
    case 'power-off':
    case 'reboot':
    case 'node-delete':
    case 'kubelet-restart':
    case 'shutdown':
      return 'kubelet-start';
    default:
      return null;
  }
}

/**
 * The `node-ready-again` item of a fault target that went NotReady and whose fault was undone (a fault-restored
 * marker): readyAgainWindow for its fault type, on the Ready condition's lastTransitionTime. Null when the node never
 * went NotReady, was not restored, or was deleted (a new Node is not "Ready again").
 */
export function predictReadyAgain(settings: TimeoutSettings, node: NodeTimeline, fault: FaultInstant | undefined): ItemDraft | null {
  if (!fault || fault.restoredAfterSeconds === null || node.notReadyStatus === null || node.deletedAfterSeconds !== null) return null;
  const kind = readyAgainCase(fault.type);
  if (kind === null) return null;
  const restoring = fault.restoringAfterSeconds ?? fault.restoredAfterSeconds;
  const faultSeconds = Math.max(0, restoring - fault.issuedAfterSeconds);
  const w = readyAgainWindow(settings, kind, restoring, fault.restoredAfterSeconds, faultSeconds, fault.trafficDropped === true);
  return {
    event: 'node-ready-again', node: node.name, pod: null, taintKey: null, expected: true, window: w.window,
    observedSeconds: node.readyAgainAfterSeconds, cause: causeOf(`${fault.type} on ${node.name} undone (fault-restoring marker)`, restoring), because: w.because,
    ...(w.notModelled ? { notModelled: w.notModelled } : {}),
  };
}
