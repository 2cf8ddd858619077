// Projection of watched objects to the fields analysis and reports read, applied as objects arrive (before the
// informer caches them and before the journal writes them): a kwok Pod shrinks from about 3.8 KB of JSON to
// about 1.4 KB, a kind Node from 3 KB to under 1 KB, which keeps the observer's memory and the journal small at
// 10,000 pods. Leases, Events and EndpointSlices are small and kept whole; a Job keeps its status and replacement settings.
//
// What is kept is every field a reader in lib/analyze (objects.ts, events.ts, endpoint-timeline.ts, analyze.ts)
// or lib/run/progress.ts takes from `ObjectObservation.object`; test/unit/observe/project.test.ts re-analyzes every
// recorded journal projected and asserts the same result. A field a new analyzer reads must be added here.
import type { RawObject } from './raw-types.js';
import type { WatchedKind } from './types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Copy of `from` with only `keys` (absent keys stay absent). */
function pick(from: unknown, keys: readonly string[]): Obj | undefined {
  if (!isObj(from)) return undefined;
  const out: Obj = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** Metadata fields kept for every projected kind: identity, labels (workload, zone, Service name), owner and deletion. */
const METADATA_KEYS = ['name', 'namespace', 'uid', 'resourceVersion', 'labels', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences'] as const;
const OWNER_KEYS = ['kind', 'name', 'uid', 'controller'] as const;

function metadata(obj: RawObject): Obj {
  const md = pick(obj.metadata, METADATA_KEYS) ?? {};
  if (Array.isArray(md.ownerReferences)) md.ownerReferences = md.ownerReferences.map((r) => pick(r, OWNER_KEYS));
  return md;
}

/**
 * Container status: restarts, the waiting reason (pendingReason) and the runtime's container ID (whether a container
 * is the same one after a fault: resumed, or started again); state is small and kept whole.
 */
const CONTAINER_STATUS_KEYS = ['name', 'ready', 'started', 'restartCount', 'state', 'containerID'] as const;

/** A pod's volumes that name a PersistentVolumeClaim, as `{name, persistentVolumeClaim: {claimName}}` (the claim joins it to its PersistentVolume). */
function claimVolumes(spec: unknown): Obj[] | undefined {
  if (!isObj(spec) || !Array.isArray(spec.volumes)) return undefined;
  const claims = spec.volumes.flatMap((v) => {
    const claim = isObj(v) && isObj(v.persistentVolumeClaim) ? v.persistentVolumeClaim.claimName : undefined;
    return typeof claim === 'string' ? [{ name: v.name, persistentVolumeClaim: { claimName: claim } }] : [];
  });
  return claims.length > 0 ? claims : undefined;
}

/**
 * The pod annotations an Indexed Job's controller reads (k8s.io/api batch/v1 types.go, v1.37.2): the completion
 * index and the index's failure counts, whose sum + 1 is the per-index pod failure backoff's failure count
 * (pkg/controller/job/backoff_utils.go getRemainingTimePerIndex). Every other annotation is dropped.
 */
const JOB_POD_ANNOTATIONS = ['batch.kubernetes.io/job-completion-index', 'batch.kubernetes.io/job-index-failure-count', 'batch.kubernetes.io/job-index-ignored-failure-count'] as const;

function projectPod(obj: RawObject): RawObject {
  // priority and terminationGracePeriodSeconds: the graceful node shutdown's groups and kill deadlines (forecast).
  const spec = pick(obj.spec, ['nodeName', 'tolerations', 'priority', 'terminationGracePeriodSeconds']);
  const volumes = claimVolumes(obj.spec);
  if (spec && volumes) spec.volumes = volumes;
  const status = pick(obj.status, ['phase', 'podIP', 'conditions', 'containerStatuses', 'reason', 'message']);
  if (status && Array.isArray(status.containerStatuses)) status.containerStatuses = status.containerStatuses.map((c) => pick(c, CONTAINER_STATUS_KEYS));
  const md = metadata(obj);
  const annotations = pick((obj.metadata as Obj | undefined)?.annotations, JOB_POD_ANNOTATIONS);
  if (annotations && Object.keys(annotations).length > 0) md.annotations = annotations;
  return { metadata: md, ...(spec ? { spec } : {}), ...(status ? { status } : {}) };
}

function projectNode(obj: RawObject): RawObject {
  const spec = pick(obj.spec, ['taints', 'unschedulable']);
  const status = pick(obj.status, ['conditions', 'addresses', 'volumesInUse', 'volumesAttached']);
  // The kubelet's version chooses its mechanisms (lib/analyze/mechanisms.ts); a node of an existing cluster may lag the API server's.
  const nodeInfo = isObj(obj.status) ? pick(obj.status.nodeInfo, ['kubeletVersion']) : undefined;
  if (status && nodeInfo && nodeInfo.kubeletVersion !== undefined) status.nodeInfo = nodeInfo;
  return { metadata: metadata(obj), ...(spec ? { spec } : {}), ...(status ? { status } : {}) };
}

/** Job: metadata, the spec fields that decide replacements, and the whole status (counts and conditions; small). */
function projectJob(obj: RawObject): RawObject {
  const spec = pick(obj.spec, ['parallelism', 'completions', 'backoffLimit', 'podReplacementPolicy', 'podFailurePolicy', 'completionMode', 'backoffLimitPerIndex', 'maxFailedIndexes', 'suspend']);
  const status = pick(obj.status, ['active', 'ready', 'failed', 'succeeded', 'terminating', 'conditions', 'startTime', 'completionTime', 'uncountedTerminatedPods', 'failedIndexes']);
  return { metadata: metadata(obj), ...(spec ? { spec } : {}), ...(status ? { status } : {}) };
}

/** Drops the server-side apply bookkeeping (metadata.managedFields), which no reader uses and which is often half an object. */
export function withoutManagedFields(obj: RawObject): RawObject {
  if (!obj.metadata || obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = obj.metadata;
  return { ...obj, metadata: rest };
}

/**
 * The part of a watched object rebootlab journals. Node: metadata (identity, labels, deletion), spec.taints and
 * unschedulable, status.conditions, addresses, nodeInfo.kubeletVersion, volumesInUse (the kubelet's mounted volumes)
 * and volumesAttached (the attach/detach controller's). Pod: metadata (identity, labels, ownerReferences, deletion, an Indexed Job's index annotations),
 * spec.nodeName, tolerations and the volumes naming a claim, status phase/podIP/conditions/reason/message and per
 * container name, ready, started, restartCount, state and containerID. Job: metadata, spec parallelism/completions/
 * backoffLimit/podReplacementPolicy/podFailurePolicy/completionMode/backoffLimitPerIndex/maxFailedIndexes/suspend, and its status. Lease, Event,
 * EndpointSlice, VolumeAttachment, PersistentVolume: the whole object without managedFields.
 * Pure; returns a new object (shares nested values with `obj`).
 */
export function projectObject(kind: WatchedKind, obj: RawObject): RawObject {
  switch (kind) {
    case 'Pod':
      return projectPod(obj);
    case 'Node':
      return projectNode(obj);
    case 'Job':
      return projectJob(obj);
    default:
      return withoutManagedFields(obj);
  }
}
