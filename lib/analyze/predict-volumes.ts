// Causal model, attachable volumes: when kube-controller-manager's attach/detach controller detaches a volume from a
// lost node, whether the replacement pod gets a Multi-Attach error, and when the volume is attached to its node; each
// derived from the observed event it follows. Source: k8s.io/kubernetes pkg/controller/volume/attachdetach
// (reconciler/reconciler.go reconcile and attachDesiredVolumes, attach_detach_controller.go DefaultTimerConfig) and
// pkg/volume/csi/csi_attacher.go, identical in what is modelled here from v1.34.4 to v1.37.2.
import { causeOf, OBSERVATION_LATENCY_SECONDS, secondsText, windowOf, type ItemDraft } from './predict-common.js';
import type { PodVolume, VolumeAnalysis, Window } from './types.js';

/** The reconciler's pass period (DefaultTimerConfig.ReconcilerLoopPeriod, 100 ms), seconds. */
export const RECONCILER_LOOP_SECONDS = 0.1;
/**
 * How long the reconciler waits, from the pass that finds a volume no longer desired on a node, for that node to
 * report it unmounted before it force-detaches from an unhealthy node (DefaultTimerConfig.ReconcilerMaxWaitForUnmountDuration,
 * 6 min; no flag sets it), seconds.
 */
export const MAX_WAIT_FOR_UNMOUNT_SECONDS = 360;
/**
 * After deleting the old VolumeAttachment, the CSI plugin polls its lister until it is gone, first after 500 ms with
 * 10 % jitter, then ×1.05 (csi_attacher.go waitForVolumeAttachDetachStatusWithLister): the tick after the removal
 * comes at most 0.5 × 1.05 × 1.1 s later; only then is the volume detached in the controller's actual state. Seconds.
 */
export const CSI_DETACH_POLL_SECONDS = 0.578;
/**
 * rebootlab's attacher (hack/csi-driver, one worker on a watch) adds its finalizer and sets
 * status.attached within this long of a VolumeAttachment's creation, seconds (the external-attacher's
 * ControllerPublishVolume would take the storage system's time instead).
 */
export const ATTACHER_ACK_SECONDS = 1;

/** What the volume model reads besides the volume chains. */
export interface VolumesPredictInput {
  volumes: VolumeAnalysis;
  /**
   * Whether kube-controller-manager force-detaches after maxWaitForUnmountDuration (false with
   * `--disable-force-detach-on-timeout`, which leaves only the out-of-service taint).
   */
  forceDetachOnTimeout: boolean;
  /** Per node, when it was Ready again after the fault (server time), seconds since time zero; absent if never. */
  readyAgainSeconds: ReadonlyMap<string, number>;
}

/** The detach the reconciler will do for a pod's volume, or why none can be given. */
type DetachPlan =
  | { kind: 'window'; window: Window; cause: { event: string; at: number }; because: string; immediate: boolean }
  | { kind: 'never'; because: string }
  | { kind: 'not-modelled'; because: string };

/**
 * The detach of the old node's VolumeAttachment, from the instant the old pod left the controller's desired state
 * (`released`): the first pass after it sets the detach request time; a pass then detaches when the node no longer
 * reports the volume mounted, or carries the out-of-service taint, or when the node is unhealthy (NotReady, or its
 * Node deleted) and more than maxWaitForUnmountDuration passed (reconciler.go reconcile: forceDetach,
 * hasOutOfServiceTaint). An out-of-service taint added during the wait ends it at the next pass.
 */
function planDetach(v: PodVolume, input: VolumesPredictInput): DetachPlan {
  const released = v.releasedAfterSeconds;
  const lat = OBSERVATION_LATENCY_SECONDS;
  const loop = RECONCILER_LOOP_SECONDS;
  if (released === null) return { kind: 'never', because: `${v.pod} still exists and holds the volume in the controller's desired state for ${v.node} (a pod on a lost node keeps its last running container states): no detach` };
  const pass = (at: number, event: string, because: string): DetachPlan => ({ kind: 'window', window: windowOf(at - lat, at + 2 * loop + lat), cause: { event, at }, because, immediate: true });
  const releasedEvent = `${v.pod} out of the desired state (Failed or deleted)`;
  if (v.nodeReadyWhenReleased) return { kind: 'not-modelled', because: `not modelled: ${v.node} was Ready, the detach waits for its kubelet to unmount and report it (node.status.volumesInUse)` };
  if (v.mountedWhenReleased === false) return pass(released, releasedEvent, `${v.node} no longer reported the volume in use: detached at the next reconciler pass`);
  if (v.outOfServiceWhenReleased) return pass(released, releasedEvent, `${v.node} carries the out-of-service taint: the reconciler detaches at its next pass without waiting for an unmount (hasOutOfServiceTaint)`);
  const deadline = released + MAX_WAIT_FOR_UNMOUNT_SECONDS;
  const taint = v.outOfServiceTaintReceivedAfterSeconds;
  if (taint !== null && taint > released && taint < deadline) return pass(taint, `out-of-service taint on ${v.node}`, `the out-of-service taint on ${v.node} ends the wait for an unmount at the reconciler's next pass`);
  const back = v.node === null ? undefined : input.readyAgainSeconds.get(v.node);
  if (back !== undefined && back > released && back < deadline) return { kind: 'not-modelled', because: `not modelled: ${v.node} was Ready again (${secondsText(back)}) before maxWaitForUnmountDuration ran out; its kubelet's unmount report decides` };
  if (!input.forceDetachOnTimeout) return { kind: 'never', because: `--disable-force-detach-on-timeout: the volume stays attached to the unhealthy ${v.node} until an out-of-service taint` };
  return {
    kind: 'window', window: windowOf(deadline - lat, deadline + 2 * loop + lat), cause: { event: releasedEvent, at: released }, immediate: false,
    because: `${v.node} unhealthy and still reporting the volume in use: force-detached once maxWaitForUnmountDuration (${MAX_WAIT_FOR_UNMOUNT_SECONDS} s) has passed since the pass after the release, at a 100 ms reconciler pass`,
  };
}

/**
 * Per pod volume (VolumeAnalysis.pods): the old node's detach (`volume-detach`), a Multi-Attach error on the
 * replacement (`multi-attach-error`) and the attach to the replacement's node (`volume-attach`). Observed values are
 * client receive times. Pure.
 */
export function predictVolumes(input: VolumesPredictInput): ItemDraft[] {
  const items: ItemDraft[] = [];
  const lat = OBSERVATION_LATENCY_SECONDS;
  for (const v of input.volumes.pods) {
    const node = v.node ?? '';
    const base = { node, pod: v.pod, taintKey: null };
    const plan = planDetach(v, input);
    if (plan.kind === 'window') {
      items.push({ ...base, event: 'volume-detach', expected: true, window: plan.window, observedSeconds: v.detachStartedAfterSeconds, cause: causeOf(plan.cause.event, plan.cause.at), because: plan.because });
    } else if (plan.kind === 'never') {
      items.push({ ...base, event: 'volume-detach', expected: false, window: null, observedSeconds: v.detachStartedAfterSeconds, cause: null, because: plan.because });
    } else {
      items.push({ ...base, event: 'volume-detach', expected: false, window: null, observedSeconds: v.detachStartedAfterSeconds, cause: null, because: plan.because, notModelled: plan.because });
    }
    const rep = v.replacement;
    if (rep === null || rep.node === null || rep.node === v.node || rep.scheduledAfterSeconds === null) continue;
    const scheduled = rep.scheduledAfterSeconds;
    const repBase = { ...base, pod: rep.pod, node: rep.node };
    // Multi-Attach: the reconciler reports it when the replacement is desired on its node while the volume is attached
    // elsewhere with no detach pending (attachDesiredVolumes: IsOperationPending, then GetNodesForAttachedVolume).
    // A replacement created before the old pod was released (a ReplicaSet's, at the deletionTimestamp) always meets
    // it; one created after (a StatefulSet's, after the deletion) meets it only if the detach is not started at once:
    // the controller's one pod informer delivers the old pod's release first, and the next pass starts the detach.
    const before = v.releasedAfterSeconds === null || scheduled < v.releasedAfterSeconds;
    if (plan.kind === 'not-modelled') {
      items.push({ ...repBase, event: 'multi-attach-error', expected: false, window: null, observedSeconds: rep.multiAttach?.firstAfterSeconds ?? null, cause: null, because: plan.because, notModelled: plan.because });
    } else if (before || plan.kind === 'never' || !plan.immediate) {
      items.push({
        ...repBase, event: 'multi-attach-error', expected: true, window: windowOf(scheduled - lat, scheduled + 2 * RECONCILER_LOOP_SECONDS + lat), observedSeconds: rep.multiAttach?.firstAfterSeconds ?? null,
        cause: causeOf(`${rep.pod} scheduled on ${rep.node}`, scheduled),
        because: `the volume is still attached to ${node} with no detach started when the replacement is desired on ${rep.node}: the reconciler's next pass reports Multi-Attach (reportMultiAttachError)`,
      });
    } else {
      items.push({
        ...repBase, event: 'multi-attach-error', expected: false, window: null, observedSeconds: rep.multiAttach?.firstAfterSeconds ?? null, cause: null,
        because: `the replacement was created after ${v.pod} was released, and the detach from ${node} starts at the pass that sees the release: the reconciler skips a volume with an operation pending, so no Multi-Attach error`,
      });
    }
    // Attach: once the old VolumeAttachment is gone and the detach has completed (the CSI plugin's next poll), the next
    // pass attaches to the replacement's node; the attacher acknowledges.
    const detached = v.detachedAfterSeconds;
    if (plan.kind === 'never') {
      items.push({ ...repBase, event: 'volume-attach', expected: false, window: null, observedSeconds: rep.attachedAfterSeconds, cause: null, because: `the volume is never detached from ${node}: it cannot be attached to ${rep.node}` });
      continue;
    }
    if (detached === null) {
      const because = `not modelled: the VolumeAttachment on ${node} was not seen removed, so there is no instant to count the attach from`;
      items.push({ ...repBase, event: 'volume-attach', expected: false, window: null, observedSeconds: rep.attachedAfterSeconds, cause: null, because, notModelled: because });
      continue;
    }
    const afterSchedule = scheduled > detached + CSI_DETACH_POLL_SECONDS;
    const at = afterSchedule ? scheduled : detached;
    const window = afterSchedule
      ? windowOf(at - lat, at + 2 * RECONCILER_LOOP_SECONDS + ATTACHER_ACK_SECONDS + lat)
      : windowOf(at - lat, at + CSI_DETACH_POLL_SECONDS + 2 * RECONCILER_LOOP_SECONDS + ATTACHER_ACK_SECONDS + lat);
    items.push({
      ...repBase, event: 'volume-attach', expected: true, window, observedSeconds: rep.attachedAfterSeconds,
      cause: causeOf(afterSchedule ? `${rep.pod} scheduled on ${rep.node}` : `the VolumeAttachment on ${node} removed`, at),
      because: afterSchedule
        ? `the volume was free: the reconciler's next pass creates the VolumeAttachment and rebootlab's attacher acknowledges within ${ATTACHER_ACK_SECONDS} s`
        : `the CSI plugin sees the old VolumeAttachment gone at its next poll (≤ ${CSI_DETACH_POLL_SECONDS} s), the next pass attaches to ${rep.node} and rebootlab's attacher acknowledges within ${ATTACHER_ACK_SECONDS} s`,
    });
  }
  return items;
}

/** The kubelet's first retry delay of a failed volume operation (pkg/util/goroutinemap/exponentialbackoff initialDurationBeforeRetry, 500 ms), seconds. */
export const KUBELET_RETRY_INITIAL_SECONDS = 0.5;
/** Its longest retry delay (maxDurationBeforeRetry, 2 min 2 s), seconds; the delay doubles after each failure up to it. */
export const KUBELET_RETRY_MAX_SECONDS = 122;

/**
 * How long after an instant the kubelet may next retry a volume operation that has failed since `failingSeconds`
 * before it (seconds): its volume manager retries VerifyControllerAttachedVolume with exponential backoff, 0.5 s
 * doubling to 122 s (exponential_backoff.go; v1.34.4 to v1.37.2), so after 6 min of Multi-Attach a retry can be 2 min
 * away. Returns the length of the backoff interval `failingSeconds` falls in.
 */
export function mountRetryBoundSeconds(failingSeconds: number): number {
  let elapsed = 0;
  let delay = KUBELET_RETRY_INITIAL_SECONDS;
  while (elapsed + delay < failingSeconds) {
    elapsed += delay;
    delay = Math.min(delay * 2, KUBELET_RETRY_MAX_SECONDS);
  }
  return delay;
}

/**
 * The detach of a lost node's volume (power-off: the node unhealthy, its kubelet never reporting the volume unmounted)
 * from the window of the old pod's removal (`removal`, seconds since time zero): at once when an out-of-service taint
 * is on the node by then (`outOfServiceAtSeconds`, null for none), at the taint when it comes during the wait, else
 * maxWaitForUnmountDuration after the removal (reconciler.go reconcile; v1.34.4 to v1.37.2).
 */
export function lostNodeDetachWindow(removal: Window, outOfServiceAtSeconds: number | null): Window {
  const loop = 2 * RECONCILER_LOOP_SECONDS;
  const timeout = windowOf(removal.fromSeconds + MAX_WAIT_FOR_UNMOUNT_SECONDS, removal.toSeconds + MAX_WAIT_FOR_UNMOUNT_SECONDS + loop);
  const taint = outOfServiceAtSeconds;
  if (taint === null || taint >= timeout.toSeconds) return timeout;
  return windowOf(Math.min(timeout.fromSeconds, Math.max(removal.fromSeconds, taint)), Math.min(timeout.toSeconds, Math.max(removal.toSeconds, taint) + loop));
}

/**
 * When a replacement whose volume must first be detached elsewhere can be Ready, seconds since time zero: not before
 * the detach (`detach`); at the latest, once the volume is attached to its node (the CSI plugin's poll, a reconciler
 * pass, the attacher's acknowledgement, and the controller's own poll before it reports it in node.status.volumesAttached)
 * and its kubelet has reported the volume in use (its next node status update, `statusUpdateSeconds` =
 * nodeStatusUpdateFrequency after the pod arrived, `created`), the kubelet's next retry (mountRetryBoundSeconds of how
 * long it has been failing), then `readySeconds` to start the container and pass the readiness probe.
 */
export function attachableReplacementReadyWindow(input: { created: Window; detach: Window; statusUpdateSeconds: number; readySeconds: number }): Window {
  const attached = input.detach.toSeconds + 2 * CSI_DETACH_POLL_SECONDS + 4 * RECONCILER_LOOP_SECONDS + ATTACHER_ACK_SECONDS;
  const verifiable = Math.max(attached, input.created.toSeconds + input.statusUpdateSeconds);
  return windowOf(input.detach.fromSeconds, verifiable + mountRetryBoundSeconds(verifiable - input.created.fromSeconds) + input.readySeconds);
}
