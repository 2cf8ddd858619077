// Finds the fault markers in a journal and groups its object records per kind and object, in journal order.
import { InputError } from '../common/errors.js';
import type { GapObservation, ObjectObservation, Observation, PhaseObservation } from '../observe/types.js';
import { secondsSince } from './clock.js';
import type { GapSpan } from './types.js';

/** The journal sorted and indexed for the timeline builders. */
export interface RunContext {
  /** Client clock of the fault-injected marker, Unix epoch milliseconds. */
  faultMs: number;
  /** Journal `seq` of the fault-injected marker: records with a smaller seq describe the state before the fault. */
  faultSeq: number;
  /** Client clock of the fault-restored marker, Unix epoch milliseconds, or null. */
  restoreMs: number | null;
  /** Client clock of the last record, Unix epoch milliseconds. */
  endMs: number;
  /** Target nodes of every fault-injected marker, in marker order (the first marker's nodes first). */
  targets: string[];
  /** Per target, seconds from the first fault-injected marker to the marker naming it (0 for the first; > 0 for staggered faults). */
  targetOffsetSeconds: Map<string, number>;
  /** Object records of each kind, in seq order. */
  nodes: ObjectObservation[];
  leases: ObjectObservation[];
  pods: ObjectObservation[];
  gaps: GapSpan[];
  /** `step` markers after the fault, in seq order. */
  steps: PhaseObservation[];
  /** Outcome of each workload's data probe (the `data-probed` marker), by workload name. */
  dataProbes: Map<string, 'kept' | 'lost' | 'unreadable'>;
  warnings: string[];
}

/**
 * Sort `observations` by seq and locate the first `fault-injected` marker (the zero of every time) and the first
 * `fault-restored` marker after it. Targets are the `nodes` of every fault-injected marker: a staggered fault
 * marks each node as it is hit.
 * @throws InputError if the journal has no fault-injected marker (nothing to measure from).
 */
export function buildContext(observations: readonly Observation[]): RunContext {
  const sorted = [...observations].sort((a, b) => a.seq - b.seq);
  const phases = sorted.filter((o): o is PhaseObservation => o.type === 'phase');
  const fault = phases.find((p) => p.phase === 'fault-injected');
  if (!fault) {
    throw new InputError('journal has no fault-injected marker; the run ended before a fault was injected', 'rerun the experiment');
  }
  const restore = phases.find((p) => p.phase === 'fault-restored' && p.seq > fault.seq);
  const targetOffsetSeconds = new Map<string, number>();
  for (const marker of phases.filter((p) => p.phase === 'fault-injected')) {
    for (const node of marker.nodes ?? []) {
      if (!targetOffsetSeconds.has(node)) targetOffsetSeconds.set(node, secondsSince(fault.receivedAtMs, marker.receivedAtMs));
    }
  }
  const objects = sorted.filter((o): o is ObjectObservation => o.type === 'object');
  const warnings: string[] = [];
  if (!fault.nodes || fault.nodes.length === 0) warnings.push('fault-injected marker names no target nodes');
  const gaps = sorted
    .filter((o): o is GapObservation => o.type === 'gap')
    .map((g) => ({ kind: g.kind, fromSeconds: secondsSince(fault.receivedAtMs, g.fromMs), toSeconds: secondsSince(fault.receivedAtMs, g.toMs), reason: g.reason }));
  for (const g of gaps) warnings.push(`${g.kind} watch gap from ${g.fromSeconds} s to ${g.toSeconds} s: ${g.reason}`);
  return {
    faultMs: fault.receivedAtMs,
    faultSeq: fault.seq,
    restoreMs: restore ? restore.receivedAtMs : null,
    // reduce, not Math.max(...): a long journal would overflow the argument list.
    endMs: sorted.reduce((max, o) => Math.max(max, o.receivedAtMs), fault.receivedAtMs),
    targets: [...targetOffsetSeconds.keys()],
    targetOffsetSeconds,
    nodes: objects.filter((o) => o.kind === 'Node'),
    leases: objects.filter((o) => o.kind === 'Lease'),
    pods: objects.filter((o) => o.kind === 'Pod'),
    gaps,
    steps: phases.filter((p) => p.phase === 'step' && p.seq > fault.seq),
    dataProbes: readDataProbes(phases.find((p) => p.phase === 'data-probed')),
    warnings,
  };
}

/** `detail.dataProbes` of the data-probed marker: workload → { outcome } (lib/workloads/data-probe.ts). */
function readDataProbes(marker: PhaseObservation | undefined): Map<string, 'kept' | 'lost' | 'unreadable'> {
  const probes = new Map<string, 'kept' | 'lost' | 'unreadable'>();
  const detail = marker?.detail?.dataProbes;
  if (typeof detail !== 'object' || detail === null) return probes;
  for (const [workload, probe] of Object.entries(detail as Record<string, { outcome?: unknown }>)) {
    const outcome = probe?.outcome;
    if (outcome === 'kept' || outcome === 'lost' || outcome === 'unreadable') probes.set(workload, outcome);
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
