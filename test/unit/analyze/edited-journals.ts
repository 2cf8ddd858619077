// Journals for mechanisms no recorded kind run covers yet, built from recorded real objects: a recorded journal's
// Node, Lease and Pod records copied to more nodes, shifted in time or edited (taints, labels, conditions).
// Every edit is named by the function that makes it; nothing here invents an object shape.
import type { ObjectObservation, Observation, PhaseObservation } from '../../../lib/observe/types.js';

type Obj = Record<string, unknown>;

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$/;

/** Deep copy of a JSON value. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `value` with every RFC 3339 timestamp moved by `offsetMs` milliseconds, keeping its resolution (whole seconds stay whole). */
export function shiftTimestamps<T>(value: T, offsetMs: number): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = RFC3339.exec(v);
      if (!m) return v;
      const shifted = new Date(Date.parse(v) + offsetMs).toISOString();
      // Whole-second fields (metav1.Time) stay truncated to the second, as the API server writes them.
      return m[2] === undefined ? `${shifted.slice(0, 19)}Z` : m[2].length > 4 ? `${shifted.slice(0, 23)}000Z` : shifted;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The journal's first fault-injecting marker (time zero). */
export function timeZeroMarker(observations: readonly Observation[]): PhaseObservation {
  const m = observations.find((o): o is PhaseObservation => o.type === 'phase' && o.phase === 'fault-injecting');
  if (!m) throw new Error('journal has no fault-injecting marker');
  return m;
}

const nodeOf = (o: ObjectObservation): string | null => {
  if (o.kind === 'Node' || o.kind === 'Lease') return o.name;
  if (o.kind === 'Pod') return ((o.object.spec as Obj | undefined)?.nodeName as string | undefined) ?? null;
  return null;
};

/** Options of {@link cloneTarget}. */
export interface CloneOptions {
  /** The recorded fault target to copy. */
  from: string;
  /** Name of the copy. */
  to: string;
  /** How much later the copy's fault happens, milliseconds (0: the same instant). */
  offsetMs: number;
  /** Drop every NoExecute taint of the copy's Node and keep its pods as they were before eviction. */
  untainted?: boolean;
  /** Lease renew interval of the recorded cluster, milliseconds: the copy keeps renewing until its own fault. */
  renewIntervalMs: number;
}

/**
 * Copy the recorded target `from` as node `to` whose fault happens `offsetMs` later: its Node, Lease and Pod records
 * (pods renamed `<name>-<to>`, new UIDs, no owner and no workload label, so no controller replaces them), records
 * after time zero shifted by `offsetMs`, Lease renewals added every renew interval until its own fault, and its own
 * fault markers. Returns only the new records; merge them with {@link mergeJournal}.
 */
export function cloneTarget(observations: readonly Observation[], options: CloneOptions): Observation[] {
  const zero = timeZeroMarker(observations);
  const out: Observation[] = [];
  const rename = (o: ObjectObservation): ObjectObservation => {
    const c = copy(o);
    const meta = c.object.metadata as Obj;
    if (c.kind === 'Node' || c.kind === 'Lease') {
      c.name = options.to;
      meta.name = options.to;
      if (c.kind === 'Lease') (c.object.spec as Obj).holderIdentity = options.to;
      c.uid = `${c.uid}-${options.to}`;
      meta.uid = c.uid;
    } else {
      c.name = `${o.name}-${options.to}`;
      meta.name = c.name;
      c.uid = `${o.uid}-${options.to}`;
      meta.uid = c.uid;
      delete meta.ownerReferences;
      const labels = meta.labels as Obj | undefined;
      if (labels) delete labels['rebootlab.dev/workload'];
      (c.object.spec as Obj).nodeName = options.to;
    }
    if (options.untainted && c.kind === 'Node') {
      const spec = c.object.spec as Obj;
      if (Array.isArray(spec.taints)) spec.taints = (spec.taints as Obj[]).filter((t) => t.effect !== 'NoExecute');
    }
    return c;
  };
  const evictedPods = new Set<string>();
  let lastLeaseBefore: ObjectObservation | null = null;
  for (const o of observations) {
    if (o.type !== 'object' || nodeOf(o) !== options.from) continue;
    if (o.kind === 'Lease' && o.seq < zero.seq) lastLeaseBefore = o;
    if (o.seq < zero.seq) {
      out.push(rename(o));
      continue;
    }
    if (options.untainted && o.kind === 'Pod' && (evictedPods.has(o.uid) || o.verb === 'DELETED' || (o.object.metadata as Obj).deletionTimestamp)) {
      evictedPods.add(o.uid);
      continue;
    }
    const shifted = rename(o);
    shifted.receivedAtMs += options.offsetMs;
    shifted.object = shiftTimestamps(shifted.object, options.offsetMs);
    out.push(shifted);
  }
  // The copy keeps its heartbeat until its own fault: renewals every renew interval after the last recorded one.
  if (lastLeaseBefore) {
    for (let t = options.renewIntervalMs; t <= options.offsetMs; t += options.renewIntervalMs) {
      const renewal = rename(lastLeaseBefore);
      renewal.verb = 'MODIFIED';
      renewal.receivedAtMs += t;
      renewal.object = shiftTimestamps(renewal.object, t);
      out.push(renewal);
    }
  }
  for (const o of observations) {
    if (o.type !== 'phase' || !(o.nodes ?? []).includes(options.from) || !o.phase.startsWith('fault-')) continue;
    out.push({ ...copy(o), nodes: [options.to], receivedAtMs: o.receivedAtMs + options.offsetMs });
  }
  return out;
}

/** Records merged and renumbered in receive order (ties keep their original order): seq 0, 1, 2, … */
export function mergeJournal(...parts: Observation[][]): Observation[] {
  const all = parts.flat().map((o, i) => ({ o, i }));
  all.sort((a, b) => a.o.receivedAtMs - b.o.receivedAtMs || a.i - b.i);
  return all.map(({ o }, seq) => ({ ...o, seq }));
}

/** Apply `edit` to the object of every Node record named `node` (a copy); other records unchanged. */
export function editNode(observations: readonly Observation[], node: string, edit: (object: Obj, record: ObjectObservation) => void): Observation[] {
  return observations.map((o) => {
    if (o.type !== 'object' || o.kind !== 'Node' || o.name !== node) return o;
    const c = copy(o);
    edit(c.object, c);
    return c;
  });
}
