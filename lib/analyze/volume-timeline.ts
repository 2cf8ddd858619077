// Attachable volumes through a fault: each VolumeAttachment's attach and detach as journaled, and per pod that held
// one at the fault the chain the attach/detach controller works through (old pod released, detach, Multi-Attach on
// the replacement, attach to its node), joined through the pods' claims and the PersistentVolumes' claimRefs.
import type { ObjectObservation, Observation } from '../observe/types.js';
import { secondsSince } from './clock.js';
import { get, isReady, taints } from './objects.js';
import { OUT_OF_SERVICE_TAINT } from './predict-common.js';
import type { AttachmentTimeline, MultiAttachError, PodTimeline, PodVolume, VolumeAnalysis } from './types.js';

type Obj = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Event reason the attach/detach controller records on a pod whose volume it cannot attach (pkg/kubelet/events FailedAttachVolume). */
export const FAILED_ATTACH_REASON = 'FailedAttachVolume';
/**
 * How that Event's message starts when the volume is exclusively attached elsewhere (reconciler.go
 * reportMultiAttachError): `Multi-Attach error` up to v1.36 (v1.34.4 to v1.36.3), `Waiting for detach` from v1.37
 * (v1.37.2), the same report reworded.
 */
export const MULTI_ATTACH_PREFIXES: readonly string[] = ['Multi-Attach error', 'Waiting for detach'];

function objects(observations: readonly Observation[], kind: ObjectObservation['kind']): ObjectObservation[] {
  return observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === kind).sort((a, b) => a.seq - b.seq);
}

/** Every VolumeAttachment journaled, in order of first record; instants in seconds since `faultMs` (receive times). */
export function buildAttachmentTimelines(observations: readonly Observation[], faultMs: number): AttachmentTimeline[] {
  const byUid = new Map<string, AttachmentTimeline>();
  for (const r of objects(observations, 'VolumeAttachment')) {
    const at = secondsSince(faultMs, r.receivedAtMs);
    let t = byUid.get(r.uid);
    if (!t) {
      t = {
        name: r.name, volume: text(get(r.object, 'spec', 'source', 'persistentVolumeName')) ?? '', node: text(get(r.object, 'spec', 'nodeName')) ?? '',
        attacher: text(get(r.object, 'spec', 'attacher')) ?? '', firstSeenAfterSeconds: at, attachedAfterSeconds: null, detachStartedAfterSeconds: null, detachedAfterSeconds: null,
      };
      byUid.set(r.uid, t);
    }
    if (t.attachedAfterSeconds === null && get(r.object, 'status', 'attached') === true) t.attachedAfterSeconds = at;
    if (t.detachStartedAfterSeconds === null && text(get(r.object, 'metadata', 'deletionTimestamp')) !== null) t.detachStartedAfterSeconds = at;
    if (r.verb === 'DELETED' && t.detachedAfterSeconds === null) t.detachedAfterSeconds = at;
  }
  return [...byUid.values()];
}

/** A Node's state as last journaled at or before an instant: Ready, its taints' keys, the volumes its kubelet reports in use, deleted. */
interface NodeState {
  ready: boolean;
  outOfService: boolean;
  volumesInUse: string[];
  deleted: boolean;
}

function nodeStateAt(records: readonly ObjectObservation[], faultMs: number, atSeconds: number): NodeState | null {
  let last: ObjectObservation | null = null;
  for (const r of records) {
    if (secondsSince(faultMs, r.receivedAtMs) > atSeconds) break;
    last = r;
  }
  if (last === null) return null;
  const inUse = get(last.object, 'status', 'volumesInUse');
  return {
    ready: last.verb !== 'DELETED' && isReady(last.object),
    outOfService: taints(last.object).some((t) => t.key === OUT_OF_SERVICE_TAINT),
    volumesInUse: Array.isArray(inUse) ? inUse.filter((v): v is string => typeof v === 'string') : [],
    deleted: last.verb === 'DELETED',
  };
}

/**
 * Whether a unique volume name of node.status.volumesInUse is this PersistentVolume: the CSI plugin names it
 * `kubernetes.io/csi/<driver>^<volumeHandle>` (k8s.io/kubernetes pkg/volume/csi/csi_plugin.go GetVolumeName).
 */
function inUse(state: NodeState | null, volumeHandle: string): boolean | null {
  return state === null ? null : state.volumesInUse.some((v) => v.endsWith(`^${volumeHandle}`));
}

/** The claims (namespace/claimName) a pod record mounts. */
function claimsOf(pod: Obj): string[] {
  const volumes = get(pod, 'spec', 'volumes');
  const namespace = text(get(pod, 'metadata', 'namespace')) ?? '';
  if (!Array.isArray(volumes)) return [];
  return volumes.flatMap((v) => {
    const claim = text(get(v, 'persistentVolumeClaim', 'claimName'));
    return claim ? [`${namespace}/${claim}`] : [];
  });
}

/**
 * The instant a pod left the attach/detach controller's desired state of the world, seconds since `faultMs`: its first
 * record after the fault with phase Failed or Succeeded, or with a deletionTimestamp and no container running, or its
 * deletion (k8s.io/kubernetes pkg/controller/volume/attachdetach/util DetermineVolumeAction → IsPodTerminated, and
 * podDelete; v1.34.4 to v1.37.2). A pod on a powered-off node keeps the container states its kubelet last reported
 * (running), so only its deletion or a Failed phase written by someone else (PodGC) releases it. Null if neither.
 */
function releasedAfterSeconds(records: readonly ObjectObservation[], faultMs: number): number | null {
  for (const r of records) {
    if (r.receivedAtMs < faultMs) continue;
    const at = secondsSince(faultMs, r.receivedAtMs);
    if (r.verb === 'DELETED') return at;
    const phase = get(r.object, 'status', 'phase');
    if (phase === 'Failed' || phase === 'Succeeded') return at;
    const statuses = get(r.object, 'status', 'containerStatuses');
    const running = Array.isArray(statuses) && statuses.some((c) => get(c, 'state', 'running') !== undefined);
    if (text(get(r.object, 'metadata', 'deletionTimestamp')) !== null && Array.isArray(statuses) && statuses.length > 0 && !running) return at;
  }
  return null;
}

/** The Multi-Attach FailedAttachVolume Events recorded on the pod `uid` (`namespace/name`), received after the fault; null if none. */
function multiAttachOf(events: readonly ObjectObservation[], faultMs: number, pod: { namespace: string; name: string; uid: string }): MultiAttachError | null {
  let first: number | null = null;
  let count = 0;
  let message = '';
  for (const e of events) {
    if (e.receivedAtMs < faultMs || e.object.reason !== FAILED_ATTACH_REASON) continue;
    const msg = text(e.object.message) ?? '';
    if (!MULTI_ATTACH_PREFIXES.some((prefix) => msg.startsWith(prefix))) continue;
    const involved = e.object.involvedObject;
    const uid = text(get(involved, 'uid'));
    if (uid !== null ? uid !== pod.uid : text(get(involved, 'name')) !== pod.name || (e.namespace ?? '') !== pod.namespace) continue;
    const at = secondsSince(faultMs, e.receivedAtMs);
    if (first === null || at < first) first = at;
    count = Math.max(count, typeof e.object.count === 'number' ? e.object.count : 1);
    message = msg;
  }
  return first === null ? null : { firstAfterSeconds: first, count, message };
}

/**
 * The attachable volumes of a run: every VolumeAttachment, and per pod existing at the fault whose claim is bound to a
 * PersistentVolume that was attached through one (a CSI driver with attachRequired), the chain the attach/detach
 * controller went through. Pure. Returns null when the journal holds no VolumeAttachment (runs without attachable
 * volumes do not watch them).
 */
export function buildVolumeAnalysis(observations: readonly Observation[], faultMs: number, pods: readonly PodTimeline[]): VolumeAnalysis | null {
  const attachments = buildAttachmentTimelines(observations, faultMs);
  if (attachments.length === 0) return null;
  // Claim (namespace/name) → PersistentVolume name and volume handle, from the last record of each PersistentVolume.
  const volumeOfClaim = new Map<string, { volume: string; handle: string }>();
  for (const r of objects(observations, 'PersistentVolume')) {
    const ref = get(r.object, 'spec', 'claimRef');
    const claim = `${text(get(ref, 'namespace')) ?? ''}/${text(get(ref, 'name')) ?? ''}`;
    if (claim !== '/') volumeOfClaim.set(claim, { volume: r.name, handle: text(get(r.object, 'spec', 'csi', 'volumeHandle')) ?? r.name });
  }
  const podRecords = new Map<string, ObjectObservation[]>();
  for (const r of objects(observations, 'Pod')) podRecords.set(r.uid, [...(podRecords.get(r.uid) ?? []), r]);
  const nodeRecords = new Map<string, ObjectObservation[]>();
  for (const r of objects(observations, 'Node')) nodeRecords.set(r.name, [...(nodeRecords.get(r.name) ?? []), r]);
  const events = objects(observations, 'Event');
  const attached = new Set(attachments.map((a) => a.volume));
  const result: PodVolume[] = [];
  for (const pod of pods) {
    const records = podRecords.get(pod.uid) ?? [];
    const claims = records.length > 0 ? claimsOf(records[records.length - 1]!.object) : [];
    for (const claim of claims) {
      const pv = volumeOfClaim.get(claim);
      if (!pv || !attached.has(pv.volume)) continue;
      const old = attachments.find((a) => a.volume === pv.volume && a.node === pod.nodeBefore && a.firstSeenAfterSeconds <= 0) ?? null;
      const released = releasedAfterSeconds(records, faultMs);
      const nodes = nodeRecords.get(pod.nodeBefore ?? '') ?? [];
      const atRelease = released === null ? null : nodeStateAt(nodes, faultMs, released);
      const detachStarted = old?.detachStartedAfterSeconds ?? null;
      const atDetach = detachStarted === null ? null : nodeStateAt(nodes, faultMs, detachStarted);
      const mountedWhenDetached = atDetach === null ? null : inUse(atDetach, pv.handle);
      const forced = detachStarted === null || !mountedWhenDetached ? null : atDetach!.outOfService ? 'out-of-service' : !atDetach!.ready ? 'timeout' : null;
      const outOfService = nodes.find((r) => r.receivedAtMs >= faultMs && taints(r.object).some((t) => t.key === OUT_OF_SERVICE_TAINT));
      const rep = pod.replacement;
      const repAttach = rep?.node ? attachments.find((a) => a.volume === pv.volume && a.node === rep.node && a.attachedAfterSeconds !== null && a.attachedAfterSeconds > 0) ?? null : null;
      result.push({
        pod: `${pod.namespace}/${pod.name}`, uid: pod.uid, workload: pod.workload, claim: claim.slice(claim.indexOf('/') + 1), volume: pv.volume, node: pod.nodeBefore,
        releasedAfterSeconds: released,
        nodeReadyWhenReleased: atRelease === null ? null : atRelease.ready,
        mountedWhenReleased: atRelease === null ? null : inUse(atRelease, pv.handle),
        outOfServiceWhenReleased: atRelease === null ? null : atRelease.outOfService,
        outOfServiceTaintReceivedAfterSeconds: outOfService ? secondsSince(faultMs, outOfService.receivedAtMs) : null,
        detachStartedAfterSeconds: detachStarted,
        detachedAfterSeconds: old?.detachedAfterSeconds ?? null,
        detachWaitSeconds: detachStarted === null || released === null ? null : Math.round((detachStarted - released) * 1000) / 1000,
        mountedWhenDetached,
        forcedDetach: forced,
        replacement: rep === null ? null : {
          pod: `${pod.namespace}/${rep.name}`, uid: rep.uid, node: rep.node, scheduledAfterSeconds: rep.scheduledAfterSeconds,
          multiAttach: multiAttachOf(events, faultMs, { namespace: pod.namespace, name: rep.name, uid: rep.uid }),
          attachedAfterSeconds: repAttach?.attachedAfterSeconds ?? null,
          readyAfterSeconds: rep.readyAfterSeconds,
        },
      });
    }
  }
  return { attachments, pods: result };
}
