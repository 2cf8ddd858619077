// Picks the Kubernetes Events that cross-check the timelines (node lifecycle, taint eviction, kubelet kills and
// probe failures) out of the journal and times them from the fault.
import type { Observation, ObjectObservation } from '../observe/types.js';
import { secondsSince } from './clock.js';
import type { RunContext } from './context.js';
import type { EventRecord } from './types.js';

/**
 * Event reasons kept, with who records them (core/v1 Events):
 * - node lifecycle controller (`node-controller`): `NodeNotReady` on the Node (namespace default) and on each of
 *   its pods (pod namespace), `RegisteredNode`, `RemovingNode` (Node object deleted);
 * - kubelet: `NodeReady`, `NodeNotReady` (the kubelet reporting its own node not ready), `Rebooted`,
 *   `Killing` (container stopped), `Unhealthy` (readiness or liveness probe failed; the message says which);
 * - taint eviction controller (`taint-eviction-controller`): `TaintManagerEviction`, "Marking for deletion Pod …"
 *   and "Cancelling deletion of Pod …";
 * - attach/detach controller (`attachdetach-controller`): `FailedAttachVolume` (e.g. "Multi-Attach error for volume …", from v1.37 "Waiting for detach for volume …")
 *   and `SuccessfulAttachVolume` on the pod.
 * The pod garbage collector (PodGC) records no Event: it sets the pod condition DisruptionTarget (reason
 * DeletionByPodGC) and force-deletes; see disruptionConditions.
 */
export const EVENT_REASONS: ReadonlySet<string> = new Set([
  'NodeNotReady', 'NodeReady', 'RegisteredNode', 'RemovingNode', 'Rebooted', 'TaintManagerEviction', 'Killing', 'Unhealthy',
  'FailedAttachVolume', 'SuccessfulAttachVolume',
]);

/**
 * Reasons of the Warning Event a kubelet records when it refuses (or stops) a pod bound to it, also when it re-admits
 * its pods after a restart: the failing admission predicate (pkg/kubelet/lifecycle/predicate.go, v1.34: NodeAffinity,
 * NodeName, NodePorts, TaintToleration, OutOf<resource>, UnexpectedAdmissionError), a graceful shutdown's
 * NodeShutdown, and Evicted (node-pressure eviction). Kept in the events list and read as a terminated pod's reason.
 */
export function isKubeletRejection(reason: string): boolean {
  return ['NodeAffinity', 'NodeName', 'NodePorts', 'TaintToleration', 'UnexpectedAdmissionError', 'NodeShutdown', 'Evicted'].includes(reason) || /^OutOf[a-z.]+$/i.test(reason);
}

/**
 * Per pod uid, the reason of the first kubelet rejection Event ({@link isKubeletRejection}) received at or after
 * `faultMs` (Unix epoch milliseconds).
 */
export function kubeletRejections(observations: readonly Observation[], faultMs: number): Map<string, string> {
  const byUid = new Map<string, string>();
  for (const o of observations) {
    if (o.type !== 'object' || o.kind !== 'Event' || o.receivedAtMs < faultMs) continue;
    const reason = text(o.object.reason);
    const involved = isObj(o.object.involvedObject) ? o.object.involvedObject : {};
    const uid = text(involved.uid);
    if (reason && uid && involved.kind === 'Pod' && isKubeletRejection(reason) && !byUid.has(uid)) byUid.set(uid, reason);
  }
  return byUid;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Resolution of each time field, seconds: MicroTime keeps microseconds, metav1.Time whole seconds. */
const RESOLUTION_SECONDS: Record<EventRecord['timeField'], number> = {
  'series.lastObservedTime': 0.000001, eventTime: 0.000001, lastTimestamp: 1, firstTimestamp: 1, lastTransitionTime: 1, received: 0.001,
};

/** The latest occurrence of an event: the most precise time field set, else the receive time (Unix epoch milliseconds). */
function latestTime(event: Obj, receivedAtMs: number): { field: EventRecord['timeField']; ms: number } {
  const series = isObj(event.series) ? event.series : {};
  const candidates: [EventRecord['timeField'], unknown][] = [
    ['series.lastObservedTime', series.lastObservedTime], ['eventTime', event.eventTime],
    ['lastTimestamp', event.lastTimestamp], ['firstTimestamp', event.firstTimestamp],
  ];
  for (const [field, value] of candidates) {
    const ms = typeof value === 'string' ? Date.parse(value) : NaN;
    if (!Number.isNaN(ms)) return { field, ms };
  }
  return { field: 'received', ms: receivedAtMs };
}

/** First occurrence: firstTimestamp, else eventTime, else the latest occurrence (Unix epoch milliseconds). */
function firstTime(event: Obj, latestMs: number): number {
  for (const value of [event.firstTimestamp, event.eventTime]) {
    const ms = typeof value === 'string' ? Date.parse(value) : NaN;
    if (!Number.isNaN(ms)) return ms;
  }
  return latestMs;
}

/** `Kind/name` for cluster-scoped objects, `Kind/namespace/name` for namespaced ones. */
function describeObject(involved: Obj): string {
  const kind = text(involved.kind) ?? 'Object';
  const name = text(involved.name) ?? '?';
  const namespace = text(involved.namespace);
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** One journaled Event object as an EventRecord timed from `faultMs` (Unix epoch milliseconds). */
export function toEventRecord(record: ObjectObservation, faultMs: number): EventRecord {
  const event = record.object;
  const involved = isObj(event.involvedObject) ? event.involvedObject : isObj(event.regarding) ? event.regarding : {};
  const source = isObj(event.source) ? event.source : {};
  const series = isObj(event.series) ? event.series : {};
  const latest = latestTime(event, record.receivedAtMs);
  const count = typeof series.count === 'number' ? series.count : typeof event.count === 'number' ? event.count : 1;
  return {
    recordedAs: 'Event',
    reason: text(event.reason) ?? '',
    type: text(event.type) ?? 'Normal',
    object: describeObject(involved),
    namespace: record.namespace ?? text(isObj(event.metadata) ? event.metadata.namespace : null) ?? '',
    source: text(event.reportingController) ?? text(event.reportingComponent) ?? text(source.component) ?? '',
    message: text(event.message) ?? text(event.note) ?? '',
    count,
    afterSeconds: secondsSince(faultMs, latest.ms),
    firstAfterSeconds: secondsSince(faultMs, firstTime(event, latest.ms)),
    timeField: latest.field,
    resolutionSeconds: RESOLUTION_SECONDS[latest.field],
    receivedAfterSeconds: secondsSince(faultMs, record.receivedAtMs),
  };
}

/**
 * Who sets each DisruptionTarget reason (core/v1 PodConditionType DisruptionTarget, KEP-3329 "Retriable and
 * non-retriable Pod failures for Jobs"; https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions).
 */
const DISRUPTION_SOURCES: Record<string, string> = {
  DeletionByPodGC: 'pod-garbage-collector',
  DeletionByTaintManager: 'taint-eviction-controller',
  EvictionByEvictionAPI: 'eviction API',
  PreemptionByScheduler: 'default-scheduler',
  TerminationByKubelet: 'kubelet',
};

/** A pod's DisruptionTarget condition as first seen True: the pod's uid, the record and the condition. */
interface PodDisruption {
  uid: string;
  record: ObjectObservation;
  condition: Obj;
  /** lastTransitionTime (1 s resolution), else the record's receipt: Unix epoch milliseconds. */
  atMs: number;
  timeField: EventRecord['timeField'];
}

/** Per pod (by uid), the first record whose DisruptionTarget condition is True, when received at or after `faultMs` (Unix epoch milliseconds). */
function podDisruptions(observations: readonly Observation[], faultMs: number): PodDisruption[] {
  const seen = new Set<string>();
  const result: PodDisruption[] = [];
  const pods = observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Pod').sort((a, b) => a.seq - b.seq);
  for (const record of pods) {
    const status = isObj(record.object.status) ? record.object.status : {};
    const list = Array.isArray(status.conditions) ? status.conditions : [];
    const condition = list.find((c): c is Obj => isObj(c) && c.type === 'DisruptionTarget' && c.status === 'True');
    if (!condition || seen.has(record.uid)) continue;
    seen.add(record.uid);
    if (record.receivedAtMs < faultMs) continue;
    const transition = typeof condition.lastTransitionTime === 'string' ? Date.parse(condition.lastTransitionTime) : NaN;
    result.push({ uid: record.uid, record, condition, atMs: Number.isNaN(transition) ? record.receivedAtMs : transition, timeField: Number.isNaN(transition) ? 'received' : 'lastTransitionTime' });
  }
  return result;
}

/**
 * Pods their kubelet ended after the fault (DisruptionTarget reason TerminationByKubelet: a graceful node shutdown,
 * a node-pressure eviction): pod uid → the receipt of the record that first carried the condition, seconds since
 * `faultMs` (Unix epoch milliseconds).
 */
export function kubeletTerminations(observations: readonly Observation[], faultMs: number): Map<string, number> {
  return new Map(podDisruptions(observations, faultMs).filter((d) => d.condition.reason === 'TerminationByKubelet').map((d) => [d.uid, secondsSince(faultMs, d.record.receivedAtMs)]));
}

/**
 * Pods evicted through the Eviction API after the fault (DisruptionTarget reason EvictionByEvictionAPI): pod uid →
 * the condition's lastTransitionTime (whole seconds, truncated), seconds since `faultMs` (Unix epoch milliseconds).
 */
export function evictionApiEvictions(observations: readonly Observation[], faultMs: number): Map<string, number> {
  return new Map(podDisruptions(observations, faultMs).filter((d) => d.condition.reason === 'EvictionByEvictionAPI').map((d) => [d.uid, secondsSince(faultMs, d.atMs)]));
}

/**
 * Pods whose DisruptionTarget condition turned True in a record received at or after the fault (`faultMs`, Unix
 * epoch milliseconds): one entry per pod, timed by the condition's lastTransitionTime (1 s resolution). This is the
 * cross-check for PodGC, which deletes without an Event.
 */
export function disruptionConditions(observations: readonly Observation[], faultMs: number): EventRecord[] {
  return podDisruptions(observations, faultMs).map(({ record, condition, atMs, timeField }) => {
    const reason = text(condition.reason) ?? 'DisruptionTarget';
    return {
      recordedAs: 'DisruptionTarget',
      reason,
      type: 'Normal',
      object: `Pod/${record.namespace ?? ''}/${record.name}`,
      namespace: record.namespace ?? '',
      source: DISRUPTION_SOURCES[reason] ?? '',
      message: text(condition.message) ?? '',
      count: 1,
      afterSeconds: secondsSince(faultMs, atMs),
      firstAfterSeconds: secondsSince(faultMs, atMs),
      timeField,
      resolutionSeconds: RESOLUTION_SECONDS[timeField],
      receivedAfterSeconds: secondsSince(faultMs, record.receivedAtMs),
    };
  });
}

/**
 * The Events of EVENT_REASONS received at or after the fault (`ctx.faultMs`): one entry per Event object, as its
 * last journal record shows it (count and latest time), sorted by time, then object. An Event deleted (expired,
 * default event-ttl 1 h) keeps its last version; the pods' DisruptionTarget conditions (disruptionConditions) join
 * them. Pure.
 */
export function buildEvents(ctx: RunContext, observations: readonly Observation[]): EventRecord[] {
  const latest = new Map<string, ObjectObservation>();
  for (const o of observations) {
    if (o.type !== 'object' || o.kind !== 'Event' || o.receivedAtMs < ctx.faultMs) continue;
    if (!EVENT_REASONS.has(String(o.object.reason)) && !isKubeletRejection(String(o.object.reason))) continue;
    const seen = latest.get(o.uid);
    if (!seen || seen.seq < o.seq) latest.set(o.uid, o);
  }
  return [...[...latest.values()].map((r) => toEventRecord(r, ctx.faultMs)), ...disruptionConditions(observations, ctx.faultMs)]
    .sort((a, b) => a.afterSeconds - b.afterSeconds || a.object.localeCompare(b.object) || a.reason.localeCompare(b.reason));
}
