// Why a prober's requests failed: each failed request joined with its Service's EndpointSlices at its send time and
// with the faults on the nodes of those endpoints, grouped into failing backends (pods, cause, count, interval).
import type { Observation, ProbeObservation, ProbeOutcome } from '../observe/types.js';
import { secondsSince } from './clock.js';
import type { FaultMarkers } from './context.js';
import { serviceSnapshots, type EndpointState, type Snapshot } from './endpoint-timeline.js';
import type { FailingBackend, ProbeFailureCause } from './probe-types.js';
import type { NodeTimeline } from './types.js';
import { clientImpactOf, type PartitionScope } from '../spec/faults.js';


/** A new group starts when no request of the same cause failed for this long, milliseconds. */
export const QUIET_SPLIT_MS = 5_000;

/**
 * How long after rebootlab received an EndpointSlice change a proxy may still route by the previous state,
 * milliseconds: kube-proxy's own watch latency plus its `--iptables-min-sync-period` (1 s default,
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kube-proxy/). A ready endpoint in the last
 * 2 s still counts as a possible destination.
 */
export const PROXY_LAG_MS = 2_000;

/**
 * How long an unreplied TCP connection keeps its conntrack entry, milliseconds: the kernel's
 * nf_conntrack_tcp_timeout_syn_sent, 120 s by default (https://docs.kernel.org/networking/nf_conntrack-sysctl.html);
 * kube-proxy tunes the established and close-wait timeouts, not this one
 * (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-proxy/). Counted from the failed
 * request's send time plus its latency (its last SYN).
 */
export const CONNTRACK_SYN_SENT_TIMEOUT_MS = 120_000;

/** Causes whose failed requests went to a pod on a down node: their unreplied conntrack entries outlive the endpoint. */
const TOWARD_DOWN_NODE: ReadonlySet<ProbeFailureCause> = new Set(['endpoint-ready-on-down-node', 'reused-conntrack-entry', 'stale-endpoint-on-down-node']);

/** An earlier failed request by its source port: when it was sent, its last SYN, and where it went. */
interface PortUse {
  sentAtMs: number;
  lastSynAtMs: number;
  attribution: Attribution;
}

/** What the failing-backend join needs besides the probe records; instants are Unix epoch milliseconds (client clock). */
export interface FailingBackendInput {
  faultMs: number;
  endMs: number;
  faults: readonly FaultMarkers[];
  nodes: readonly NodeTimeline[];
  /** The namespace of the probed Service, for the EndpointSlices. */
  namespace?: string;
  /** The prober's transport, default `tcp` (HTTP); `udp` for DNS (see `reused-conntrack-entry`). */
  protocol?: 'tcp' | 'udp';
}

/**
 * Whether a node's containers stop answering under fault `type` of `scope` (stopped or paused, lib/spec/faults.ts);
 * kubelet-stop, kubelet-restart, runtime-stop and a network-partition of scope control-plane keep serving.
 */
function stopsServing(type: string | null, scope: PartitionScope | null): boolean {
  const clients = clientImpactOf(type, scope);
  return clients === 'stopped' || clients === 'paused';
}

/** The fault on `node` that stops its containers serving at `atMs`, if any. */
function downFault(faults: readonly FaultMarkers[], node: string | null, atMs: number, endMs: number): FaultMarkers | undefined {
  if (node === null) return undefined;
  return faults.find((f) => f.node === node && stopsServing(f.type, f.scope) && atMs >= f.issuedAtMs && atMs <= (f.restoredAtMs ?? endMs));
}

/** Index of the last snapshot received at or before `atMs` (−1 if none). */
function lastAtOrBefore(all: readonly Snapshot[], atMs: number): number {
  let lo = 0;
  let hi = all.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.atMs <= atMs) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Ready endpoints (by key) a proxy may route to at `atMs`: ready in the state at `atMs` or in any state of the last PROXY_LAG_MS. */
function routable(all: readonly Snapshot[], atMs: number): Map<string, EndpointState> {
  const result = new Map<string, EndpointState>();
  const last = lastAtOrBefore(all, atMs);
  for (let i = last; i >= 0; i--) {
    const s = all[i]!;
    for (const [key, e] of s.endpoints) if (e.ready && !result.has(key)) result.set(key, e);
    if (s.atMs < atMs - PROXY_LAG_MS) break; // the state in force at atMs − lag: older ones no longer count
  }
  return result;
}

const fmt = (s: number) => `${s} s`;

/** Why `e`'s endpoint stopped being ready, from the slices and its node's timeline (times in seconds since time zero). */
function notReadyReason(key: string, e: EndpointState, all: readonly Snapshot[], upto: number, faultMs: number, nodes: readonly NodeTimeline[]): string {
  const own = all[upto]?.endpoints.get(key);
  const state = !own ? 'removed' : own.terminating ? 'terminating' : 'not ready';
  let sinceMs: number | null = null;
  for (let i = upto; i >= 0 && !all[i]!.endpoints.get(key)?.ready; i--) sinceMs = all[i]!.atMs;
  const since = sinceMs === null ? '' : ` since ${fmt(secondsSince(faultMs, sinceMs))}`;
  const node = nodes.find((n) => n.name === e.node);
  const nodeNotReady = node?.notReadyReceivedAfterSeconds ?? null;
  const why = nodeNotReady !== null && sinceMs !== null && nodeNotReady <= secondsSince(faultMs, sinceMs) + PROXY_LAG_MS / 1000
    ? ` (node ${e.node} NotReady at ${fmt(nodeNotReady)}: the node lifecycle controller set the pod's Ready=False)`
    : ' (pod not ready on a Ready node: its readinessProbe or container)';
  const now = state === 'not ready' ? '' : state === 'terminating' ? ', now terminating (deleted or evicted)' : ', now removed from the slices';
  return `${e.pod ?? key} not ready${since}${why}${now}`;
}

/** Group key and description of one failed request. */
interface Attribution {
  cause: ProbeFailureCause;
  pods: string[];
  nodes: string[];
  because: string;
}

function attribute(r: ProbeObservation, all: readonly Snapshot[], input: FailingBackendInput, failedByPort: ReadonlyMap<number, PortUse>): Attribution {
  const at = r.sentAtMs;
  const index = lastAtOrBefore(all, at);
  const current = index >= 0 ? all[index]! : null;
  const readyNow = current ? [...current.endpoints.values()].filter((e) => e.ready) : [];
  // A proxy may still route to an endpoint ready within PROXY_LAG_MS: one on a down node explains a failure.
  const down = [...routable(all, at).values()].filter((e) => downFault(input.faults, e.node, at, input.endMs));
  const sorted = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))].sort();
  if (down.length > 0) {
    const faults = sorted(down.map((e) => e.node)).map((n) => {
      const f = input.faults.find((x) => x.node === n)!;
      return `${n} ${f.type} from ${fmt(secondsSince(input.faultMs, f.issuedAtMs))}`;
    });
    const pods = sorted(down.map((e) => e.pod));
    // A graceful shutdown's kubelet does report: it kills the pod first (nodeshutdown_manager.go killPods), and the
    // endpoint stays ready only until the pod's terminal status reaches the EndpointSlice controller and kube-proxy.
    const graceful = down.every((e) => input.faults.find((x) => x.node === e.node)?.type === 'shutdown');
    const because = graceful
      ? `endpoint still ready for ${pods.join(', ')} on a node shutting down gracefully (${faults.join('; ')}): its kubelet killed the pod (SIGTERM, no preStop delay), and kube-proxy routes to it until the kubelet writes it terminal and its endpoint leaves the Service`
      : `endpoint still ready for ${pods.join(', ')} on a down node (${faults.join('; ')}): its kubelet cannot report, so the pod stays Ready until the node lifecycle controller detects the node`;
    return { cause: 'endpoint-ready-on-down-node', pods, nodes: sorted(down.map((e) => e.node)), because };
  }
  // Same source port as an earlier failure toward a down node whose conntrack entry still lives: routed by that entry.
  const prior = r.localPort === undefined ? undefined : failedByPort.get(r.localPort);
  if (input.protocol !== 'udp' && prior && TOWARD_DOWN_NODE.has(prior.attribution.cause) && at - prior.lastSynAtMs <= CONNTRACK_SYN_SENT_TIMEOUT_MS) {
    const pods = prior.attribution.pods;
    return {
      cause: 'reused-conntrack-entry', pods, nodes: prior.attribution.nodes,
      because: `source port ${r.localPort} repeats a request that failed toward ${pods.join(', ')} at ${fmt(secondsSince(input.faultMs, prior.sentAtMs))}: its unreplied conntrack entry on the probing node (nf_conntrack_tcp_timeout_syn_sent, ${CONNTRACK_SYN_SENT_TIMEOUT_MS / 1000} s by default) still sends the connection to the dead pod, past the Service's rules`,
    };
  }
  // No ready endpoint now, or in a state in force within the last PROXY_LAG_MS: a proxy may not have the new
  // endpoints yet (an endpoint that flapped for a few milliseconds still left clients without one for a sync period).
  let none = -1;
  for (let i = index; i >= 0; i--) {
    if ([...all[i]!.endpoints.values()].every((e) => !e.ready)) {
      none = i;
      break;
    }
    if (all[i]!.atMs < at - PROXY_LAG_MS) break;
  }
  if (none >= 0 && (none === index || all[none + 1]!.atMs >= at - PROXY_LAG_MS)) {
    const state = all[none]!;
    // Every endpoint that was ready at some point before and was not then.
    const everReady = new Map<string, EndpointState>();
    for (let i = 0; i <= none; i++) for (const [key, e] of all[i]!.endpoints) if (e.ready) everReady.set(key, e);
    const lost = [...everReady.entries()];
    const reasons = lost.map(([key, e]) => notReadyReason(key, state.endpoints.get(key) ?? e, all, none, input.faultMs, input.nodes));
    const until = none === index ? '' : ` (until ${fmt(secondsSince(input.faultMs, all[none + 1]!.atMs))}; a proxy applies a slice change up to ${PROXY_LAG_MS / 1000} s later)`;
    return {
      cause: 'no-ready-endpoint', pods: sorted(lost.map(([, e]) => e.pod)), nodes: sorted(lost.map(([, e]) => e.node)),
      because: `no ready endpoint${until}: ${reasons.length > 0 ? reasons.sort().join('; ') : 'none was ever ready'}`,
    };
  }
  const candidates = readyNow;
  // Pods on a node down now whose endpoints were ready at some point before: a lagging proxy may still route there.
  const stale = new Map<string, EndpointState>();
  for (let i = 0; i <= index; i++) {
    for (const [key, e] of all[i]!.endpoints) if (e.ready && downFault(input.faults, e.node, at, input.endMs)) stale.set(key, e);
  }
  const ready = sorted(candidates.map((e) => e.pod));
  if (stale.size > 0) {
    const reasons = [...stale.entries()].map(([key, e]) => notReadyReason(key, current?.endpoints.get(key) ?? e, all, index, input.faultMs, input.nodes));
    return {
      cause: 'stale-endpoint-on-down-node', pods: sorted([...stale.values()].map((e) => e.pod)), nodes: sorted([...stale.values()].map((e) => e.node)),
      because: `every ready endpoint (${ready.join(', ')}) was on a live node, yet ${reasons.sort().join('; ')}: a proxy still routing to the down node (timeouts, no route to host)`,
    };
  }
  return {
    cause: 'unexplained', pods: ready, nodes: sorted(candidates.map((e) => e.node)),
    because: `every ready endpoint (${ready.join(', ')}) was on a live node and no node was down`,
  };
}

/**
 * Joins every failed request of one prober with the EndpointSlices of `service` at its send time (a ready endpoint
 * within the last PROXY_LAG_MS counts) and the faults of the endpoints' nodes, and groups them by cause and interval.
 * Pure. Times are seconds since `input.faultMs`; requests sent before it are included (negative times).
 * @returns groups in order of their first failed request; empty when nothing failed or `service` is null.
 */
export function buildFailingBackends(records: readonly ProbeObservation[], service: string | null, observations: readonly Observation[], input: FailingBackendInput): FailingBackend[] {
  if (service === null) return [];
  if (!records.some((r) => r.outcome !== 'ok')) return [];
  const inOrder = [...records].sort((a, b) => a.sentAtMs - b.sentAtMs);
  const all = serviceSnapshots(observations, service, input.namespace);
  const groups: FailingBackend[] = [];
  const open = new Map<ProbeFailureCause, { group: FailingBackend; lastMs: number }>();
  const failedByPort = new Map<number, PortUse>();
  for (const r of inOrder) {
    if (r.outcome === 'ok') {
      // An answered request from that port went through: no stale entry on it any more.
      if (r.localPort !== undefined) failedByPort.delete(r.localPort);
      continue;
    }
    const a = attribute(r, all, input, failedByPort);
    if (r.localPort !== undefined) failedByPort.set(r.localPort, { sentAtMs: r.sentAtMs, lastSynAtMs: r.sentAtMs + r.latencyMs, attribution: a });
    const at = secondsSince(input.faultMs, r.sentAtMs);
    const current = open.get(a.cause);
    if (current && r.sentAtMs - current.lastMs < QUIET_SPLIT_MS) {
      const g = current.group;
      g.failed += 1;
      g.outcomes[r.outcome] = (g.outcomes[r.outcome] ?? 0) + 1;
      g.lastAfterSeconds = at;
      g.pods = [...new Set([...g.pods, ...a.pods])].sort();
      g.nodes = [...new Set([...g.nodes, ...a.nodes])].sort();
      current.lastMs = r.sentAtMs;
    } else {
      // The first request of a group names the instants in `because`; later ones of the same cause share it.
      const group: FailingBackend = { cause: a.cause, pods: a.pods, nodes: a.nodes, failed: 1, outcomes: { [r.outcome]: 1 }, firstAfterSeconds: at, lastAfterSeconds: at, because: a.because };
      groups.push(group);
      open.set(a.cause, { group, lastMs: r.sentAtMs });
    }
  }
  return groups;
}
