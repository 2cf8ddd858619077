// Finds the fault markers in a journal and groups its object records per kind and object, in journal order.
import { InputError } from '../common/errors.js';
import type { GapObservation, ObjectObservation, Observation, PhaseObservation } from '../observe/types.js';
import { secondsSince } from './clock.js';
import { workloadMembership, type WorkloadOf } from './membership.js';
import type { GapSpan, WorkloadRef } from './types.js';

/** The journal sorted and indexed for the timeline builders. */
export interface RunContext {
  /**
   * Time zero of every figure, Unix epoch milliseconds (client clock): the first `fault-injecting` marker, written
   * just before the first fault command started. Journals older than that marker fall back to the first
   * `fault-injected` marker (the command returned), with a warning.
   */
  faultMs: number;
  /** Journal `seq` of that marker: records with a smaller seq describe the state before the fault. */
  faultSeq: number;
  /** Which marker time zero is: `fault-injecting` (command started) or `fault-injected` (old journals: command returned). */
  timeZero: 'fault-injecting' | 'fault-injected';
  /** One entry per fault target, in the order the fault hit them. */
  faults: FaultMarkers[];
  /** Client clock of the fault-restored marker, Unix epoch milliseconds, or null. */
  restoreMs: number | null;
  /** Client clock of the last record, Unix epoch milliseconds. */
  endMs: number;
  /** Target nodes of every fault-injected marker, in marker order (the first marker's nodes first). */
  targets: string[];
  /** Per target, seconds from time zero to the start of its own fault command (0 for the first; > 0 for staggered faults). */
  targetOffsetSeconds: Map<string, number>;
  /** Object records of each kind, in seq order. */
  nodes: ObjectObservation[];
  leases: ObjectObservation[];
  pods: ObjectObservation[];
  /** batch/v1 Job records (journals from before Jobs were watched have none). */
  jobs: ObjectObservation[];
  gaps: GapSpan[];
  /** `step` markers after the fault, in seq order. */
  steps: PhaseObservation[];
  /** Each workload's data probe (the `data-probed` marker), by workload name. */
  dataProbes: Map<string, DataProbeRead>;
  /** The workload a pod record belongs to (lib/analyze/membership.ts): its rebootlab label, or a workload's selector. */
  workloadOf: WorkloadOf;
  warnings: string[];
}

/** What a workload's data probe found after the fault (lib/workloads/data-probe.ts DataProbeResult, as journaled). */
export interface DataProbeRead {
  outcome: 'kept' | 'lost' | 'unreadable';
  /** Per pod asked: its name, its node and what it found. */
  pods: { pod: string; node: string; outcome: 'kept' | 'lost' | 'unreadable' }[];
}

/** The journal markers of the fault on one target node; instants are Unix epoch milliseconds (client clock). */
export interface FaultMarkers {
  node: string;
  /** Fault type from the marker's detail (`power-off`, `reboot`, …), or null when the marker does not say. */
  type: string | null;
  /** `control-plane` for a network-partition that cut only the API server's traffic (marker detail `scope`); else null. */
  scope: 'control-plane' | null;
  /**
   * Whether its partition drops packets (iptables DROP: the `partition-api-server` action, or `disconnect` on a
   * provider other than kind, whose agent backend drops the node's traffic) rather than removing the node's network
   * interface (kind's `docker network disconnect`); false for every other fault. From the marker's `actions` and the
   * `cluster-ready` marker's provider.
   */
  trafficDropped: boolean;
  /** The node's `fault-injecting` marker (its first command started), or the `fault-injected` one in old journals. */
  issuedAtMs: number;
  /** The node's `fault-injected` marker (the first command returned), or null when the command never returned. */
  effectiveAtMs: number | null;
  /** The node's `fault-restoring` marker (undo commands started), or null when absent. */
  restoringAtMs: number | null;
  /** The node's `fault-restored` marker (undo commands returned), or null when it was not restored. */
  restoredAtMs: number | null;
}

/**
 * Sort `observations` by seq and locate time zero: the first `fault-injecting` marker (the first fault command
 * started; the kubelet of a stopped node stops heartbeating near the command's start, not its return), else the
 * first `fault-injected` marker with a warning. Targets are the `nodes` of every fault-injecting/-injected marker:
 * a staggered fault marks each node as it is hit.
 * @throws InputError if the journal has no fault-injected marker (nothing to measure from).
 */
export function buildContext(observations: readonly Observation[], workloads: readonly WorkloadRef[] = []): RunContext {
  const sorted = [...observations].sort((a, b) => a.seq - b.seq);
  const phases = sorted.filter((o): o is PhaseObservation => o.type === 'phase');
  const injected = phases.find((p) => p.phase === 'fault-injected');
  if (!injected) {
    throw new InputError('journal has no fault-injected marker; the run ended before a fault was injected', 'rerun the experiment');
  }
  const warnings: string[] = [];
  const injecting = phases.find((p) => p.phase === 'fault-injecting' && p.seq < injected.seq);
  if (!injecting) warnings.push('journal has no fault-injecting marker (recorded before rebootlab wrote one): time zero is when the first fault command returned, not when it started');
  const fault = injecting ?? injected;
  const restore = phases.find((p) => p.phase === 'fault-restored' && p.seq > fault.seq);
  const provider = phases.find((p) => p.phase === 'cluster-ready')?.detail?.provider;
  const faults = faultMarkers(phases, injecting !== undefined, typeof provider === 'string' ? provider : null);
  const targetOffsetSeconds = new Map(faults.map((f) => [f.node, secondsSince(fault.receivedAtMs, f.issuedAtMs)]));
  const objects = sorted.filter((o): o is ObjectObservation => o.type === 'object');
  if (!fault.nodes || fault.nodes.length === 0) warnings.push('fault-injected marker names no target nodes');
  const gaps = sorted
    .filter((o): o is GapObservation => o.type === 'gap')
    .map((g) => ({ kind: g.kind, fromSeconds: secondsSince(fault.receivedAtMs, g.fromMs), toSeconds: secondsSince(fault.receivedAtMs, g.toMs), reason: g.reason }));
  for (const g of gaps) warnings.push(`${g.kind} watch gap from ${g.fromSeconds} s to ${g.toSeconds} s: ${g.reason}`);
  return {
    faultMs: fault.receivedAtMs,
    faultSeq: fault.seq,
    timeZero: injecting ? 'fault-injecting' : 'fault-injected',
    faults,
    restoreMs: restore ? restore.receivedAtMs : null,
    // reduce, not Math.max(...): a long journal would overflow the argument list.
    endMs: sorted.reduce((max, o) => Math.max(max, o.receivedAtMs), fault.receivedAtMs),
    targets: [...targetOffsetSeconds.keys()],
    targetOffsetSeconds,
    nodes: objects.filter((o) => o.kind === 'Node'),
    leases: objects.filter((o) => o.kind === 'Lease'),
    pods: objects.filter((o) => o.kind === 'Pod'),
    jobs: objects.filter((o) => o.kind === 'Job'),
    gaps,
    steps: phases.filter((p) => p.phase === 'step' && p.seq > fault.seq),
    dataProbes: readDataProbes(phases.find((p) => p.phase === 'data-probed')),
    workloadOf: workloadMembership(workloads),
    warnings,
  };
}

/**
 * Per target node, its first fault-injecting (or, without those, fault-injected), fault-injected and fault-restored
 * markers; `provider` from the cluster-ready marker (null when it does not say: kind, the only provider then).
 */
function faultMarkers(phases: readonly PhaseObservation[], hasInjecting: boolean, provider: string | null): FaultMarkers[] {
  const byNode = new Map<string, FaultMarkers>();
  const issuePhase = hasInjecting ? 'fault-injecting' : 'fault-injected';
  for (const p of phases) {
    for (const node of p.nodes ?? []) {
      const type = typeof p.detail?.type === 'string' ? p.detail.type : null;
      const scope = p.detail?.scope === 'control-plane' ? 'control-plane' : null;
      if (p.phase === issuePhase && !byNode.has(node)) byNode.set(node, { node, type, scope, trafficDropped: false, issuedAtMs: p.receivedAtMs, effectiveAtMs: null, restoringAtMs: null, restoredAtMs: null });
      const entry = byNode.get(node);
      if (!entry) continue;
      if (p.phase === 'fault-injected' && entry.effectiveAtMs === null) entry.effectiveAtMs = p.receivedAtMs;
      if (p.phase === 'fault-restoring' && entry.restoringAtMs === null) entry.restoringAtMs = p.receivedAtMs;
      if (p.phase === 'fault-restored' && entry.restoredAtMs === null) entry.restoredAtMs = p.receivedAtMs;
      entry.type ??= type;
      const actions = Array.isArray(p.detail?.actions) ? p.detail.actions : [];
      if (actions.includes('partition-api-server') || (actions.includes('disconnect') && provider !== null && provider !== 'kind')) entry.trafficDropped = true;
    }
  }
  return [...byNode.values()];
}

/** `detail.dataProbes` of the data-probed marker: workload → outcome and per-pod reads (lib/workloads/data-probe.ts). */
function readDataProbes(marker: PhaseObservation | undefined): Map<string, DataProbeRead> {
  const probes = new Map<string, DataProbeRead>();
  const detail = marker?.detail?.dataProbes;
  if (typeof detail !== 'object' || detail === null) return probes;
  const isOutcome = (v: unknown): v is DataProbeRead['outcome'] => v === 'kept' || v === 'lost' || v === 'unreadable';
  for (const [workload, probe] of Object.entries(detail as Record<string, { outcome?: unknown; pods?: unknown }>)) {
    if (!isOutcome(probe?.outcome)) continue;
    const pods = (Array.isArray(probe.pods) ? probe.pods : [])
      .filter((p): p is { pod: string; node: string; outcome: DataProbeRead['outcome'] } => typeof p?.pod === 'string' && typeof p?.node === 'string' && isOutcome(p?.outcome))
      .map((p) => ({ pod: p.pod, node: p.node, outcome: p.outcome }));
    probes.set(workload, { outcome: probe.outcome, pods });
  }
  return probes;
}

/** Group records by a key (e.g. name or uid), keeping seq order inside each group and first-seen order of groups. */
export function groupBy(records: readonly ObjectObservation[], key: (o: ObjectObservation) => string): Map<string, ObjectObservation[]> {
  const groups = new Map<string, ObjectObservation[]>();
  for (const r of records) {
    const k = key(r);
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}
