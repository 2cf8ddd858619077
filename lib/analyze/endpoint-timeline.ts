// Follows each workload's Service through its EndpointSlices: when each pod's endpoint stopped being ready, turned
// terminating, was removed and was ready again (its own or its replacement's), and how long no endpoint was ready.
// This is what the Service's clients (kube-proxy, DNS of a headless Service) were offered, unlike the Pod view.
import type { Observation, ObjectObservation } from '../observe/types.js';
import { secondsSince, msToSeconds } from './clock.js';
import type { RunContext } from './context.js';
import { label } from './objects.js';
import type { PodTimeline, WorkloadEndpoints, WorkloadRef } from './types.js';

/** Label the EndpointSlice controller puts on every slice of a Service (discovery.k8s.io/v1). */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/**
 * One endpoint as a slice lists it. Per the EndpointSlice API (discovery.k8s.io/v1 EndpointConditions,
 * https://kubernetes.io/docs/reference/kubernetes-api/service-resources/endpoint-slice-v1/): `ready` and
 * `serving` absent mean true, `terminating` absent means false.
 */
export interface EndpointState {
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** targetRef.name (the pod), when the endpoint has one. */
  pod: string | null;
  /** nodeName of the endpoint, when set. */
  node: string | null;
}

/** The endpoint fields of one pod (see PodTimeline), all null when its workload has no Service. */
export type PodEndpointFields = Required<Pick<PodTimeline,
  'endpointReadyAtFault' | 'endpointNotReadyAfterSeconds' | 'endpointTerminatingAfterSeconds' | 'endpointRemovedAfterSeconds' | 'endpointReadyAgainAfterSeconds'>>;

/** Pod endpoint fields when the workload has no Service. */
export const NO_SERVICE: PodEndpointFields = {
  endpointReadyAtFault: null, endpointNotReadyAfterSeconds: null, endpointTerminatingAfterSeconds: null,
  endpointRemovedAfterSeconds: null, endpointReadyAgainAfterSeconds: null,
};

/** The Service's endpoints after one slice record: by key (targetRef uid, else address), merged over its slices. */
export interface Snapshot {
  /** Client receive time of the slice record, Unix epoch milliseconds. */
  atMs: number;
  endpoints: Map<string, EndpointState>;
}

/** Endpoint timelines of every pod and workload: what analyze() merges into its pod and workload timelines. */
export interface EndpointTimelines {
  /** Pod uid → its endpoint fields; pods of workloads without a Service are absent (use NO_SERVICE). */
  pods: Map<string, PodEndpointFields>;
  /** Workload name → its Service's endpoint figures, or null without a Service. */
  workloads: Map<string, WorkloadEndpoints | null>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `endpoints[]` of a slice as key → state; an endpoint without targetRef is keyed by its first address. */
function sliceEndpoints(slice: Obj): Map<string, EndpointState> {
  const result = new Map<string, EndpointState>();
  const list = slice.endpoints;
  if (!Array.isArray(list)) return result;
  for (const endpoint of list) {
    if (!isObj(endpoint)) continue;
    const ref = isObj(endpoint.targetRef) ? endpoint.targetRef : {};
    const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses : [];
    const key = typeof ref.uid === 'string' ? ref.uid : typeof addresses[0] === 'string' ? `address:${addresses[0]}` : null;
    if (key === null) continue;
    const conditions = isObj(endpoint.conditions) ? endpoint.conditions : {};
    result.set(key, {
      ready: conditions.ready !== false,
      serving: conditions.serving !== false,
      terminating: conditions.terminating === true,
      pod: typeof ref.name === 'string' ? ref.name : null,
      node: typeof endpoint.nodeName === 'string' ? endpoint.nodeName : null,
    });
  }
  return result;
}

/**
 * Replays the slices of one Service: one snapshot per slice record, each the union of the current slices
 * (an endpoint listed in two slices, as during a slice rebalancing, is ready if any copy is ready).
 */
function snapshots(records: readonly ObjectObservation[]): Snapshot[] {
  const slices = new Map<string, Map<string, EndpointState>>();
  const result: Snapshot[] = [];
  for (const record of records) {
    if (record.verb === 'DELETED') slices.delete(record.uid);
    else slices.set(record.uid, sliceEndpoints(record.object));
    const merged = new Map<string, EndpointState>();
    for (const endpoints of slices.values()) {
      for (const [key, state] of endpoints) {
        const seen = merged.get(key);
        merged.set(key, seen ? { ...seen, ready: seen.ready || state.ready, serving: seen.serving || state.serving, terminating: seen.terminating && state.terminating } : state);
      }
    }
    result.push({ atMs: record.receivedAtMs, endpoints: merged });
  }
  return result;
}

const readyCount = (s: Snapshot | undefined): number => (s ? [...s.endpoints.values()].filter((e) => e.ready).length : 0);

/** The workload's endpoint figures from its snapshots; `faultMs` and `endMs` are Unix epoch milliseconds. */
function workloadEndpoints(service: string, all: readonly Snapshot[], faultMs: number, endMs: number): WorkloadEndpoints {
  const before = all.filter((s) => s.atMs <= faultMs);
  const after = all.filter((s) => s.atMs > faultMs);
  const readyAtFault = readyCount(before[before.length - 1]);
  let count = readyAtFault;
  let minimumReady = readyAtFault;
  let noneSinceMs: number | null = readyAtFault === 0 ? faultMs : null;
  let noReadyMs = 0;
  let firstNoneMs: number | null = noneSinceMs;
  const readySeries: [number, number][] = [];
  for (const snapshot of after) {
    const next = readyCount(snapshot);
    if (next === count) continue;
    readySeries.push([secondsSince(faultMs, snapshot.atMs), next]);
    if (next === 0 && noneSinceMs === null) {
      noneSinceMs = snapshot.atMs;
      firstNoneMs ??= snapshot.atMs;
    } else if (next > 0 && noneSinceMs !== null) {
      noReadyMs += snapshot.atMs - noneSinceMs;
      noneSinceMs = null;
    }
    count = next;
    minimumReady = Math.min(minimumReady, next);
  }
  if (noneSinceMs !== null) noReadyMs += Math.max(0, endMs - noneSinceMs);
  return {
    service,
    readyAtFault,
    minimumReady,
    noReadyEndpointSeconds: msToSeconds(noReadyMs),
    noReadyEndpointAfterSeconds: firstNoneMs === null ? null : secondsSince(faultMs, firstNoneMs),
    readySeries,
  };
}

/**
 * One pod's endpoint instants after the fault (Unix epoch milliseconds `faultMs`): not ready (ready → not ready, or
 * gone, after having been ready at the fault or later), terminating, removed (listed before, then in no slice),
 * ready again (its own endpoint, or `replacementUid`'s, ready after it stopped being ready).
 */
function podEndpoints(uid: string, replacementUid: string | null, all: readonly Snapshot[], faultMs: number): PodEndpointFields {
  const before = all.filter((s) => s.atMs <= faultMs);
  const atFault = before[before.length - 1]?.endpoints.get(uid);
  let wasReady = atFault?.ready === true;
  let listed = atFault !== undefined;
  const fields: PodEndpointFields = { ...NO_SERVICE, endpointReadyAtFault: wasReady };
  for (const snapshot of all.filter((s) => s.atMs > faultMs)) {
    const at = secondsSince(faultMs, snapshot.atMs);
    const own = snapshot.endpoints.get(uid);
    const ready = own?.ready === true;
    if (own) listed = true;
    if (own?.terminating && fields.endpointTerminatingAfterSeconds === null) fields.endpointTerminatingAfterSeconds = at;
    if (!own && listed && fields.endpointRemovedAfterSeconds === null) fields.endpointRemovedAfterSeconds = at;
    if (wasReady && !ready && fields.endpointNotReadyAfterSeconds === null) fields.endpointNotReadyAfterSeconds = at;
    if (ready) wasReady = true;
    const replacementReady = replacementUid !== null && snapshot.endpoints.get(replacementUid)?.ready === true;
    if (fields.endpointNotReadyAfterSeconds !== null && fields.endpointReadyAgainAfterSeconds === null && (ready || replacementReady)) {
      fields.endpointReadyAgainAfterSeconds = at;
    }
  }
  return fields;
}

/**
 * The endpoints of Service `serviceName` after each of its EndpointSlice records (label
 * `kubernetes.io/service-name`; in `namespace` when given), in journal order. Pure.
 */
export function serviceSnapshots(observations: readonly Observation[], serviceName: string, namespace?: string): Snapshot[] {
  const records = observations
    .filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'EndpointSlice')
    .filter((r) => label(r.object, SERVICE_NAME_LABEL) === serviceName && (namespace === undefined || r.namespace === namespace))
    .sort((a, b) => a.seq - b.seq);
  return snapshots(records);
}

/**
 * Endpoint timelines for every workload with a Service (`WorkloadRef.serviceName`): its EndpointSlices are the
 * journal's EndpointSlice records labelled `kubernetes.io/service-name=<serviceName>` in the namespace of the
 * workload's pods. Every time is a client receive time (slices carry no per-endpoint timestamps), in seconds
 * since `ctx.faultMs`; the state at the fault is the last slice record received at or before it.
 * Pure; pods of workloads without a Service get no entry, and those workloads map to null.
 */
export function buildEndpointTimelines(ctx: RunContext, observations: readonly Observation[], workloads: readonly WorkloadRef[], pods: readonly PodTimeline[]): EndpointTimelines {
  const slices = observations
    .filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'EndpointSlice')
    .sort((a, b) => a.seq - b.seq);
  const result: EndpointTimelines = { pods: new Map(), workloads: new Map() };
  for (const workload of workloads) {
    if (!workload.serviceName) {
      result.workloads.set(workload.name, null);
      continue;
    }
    const own = pods.filter((p) => p.workload === workload.name);
    const namespace = own[0]?.namespace;
    const records = slices.filter((r) => label(r.object, SERVICE_NAME_LABEL) === workload.serviceName && (namespace === undefined || r.namespace === namespace));
    const all = snapshots(records);
    result.workloads.set(workload.name, workloadEndpoints(workload.serviceName, all, ctx.faultMs, ctx.endMs));
    for (const pod of own) result.pods.set(pod.uid, podEndpoints(pod.uid, pod.replacement?.uid ?? null, all, ctx.faultMs));
  }
  return result;
}
