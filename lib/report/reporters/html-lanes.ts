// Turns a Result into timeline lanes (nodes, pods, workloads): pure data in seconds since the fault, drawn by html-timeline.ts.
import type { NodeTimeline, PodTimeline, WorkloadTimeline } from '../../analyze/types.js';
import type { ProbeLaneRun, ProbeSummary } from '../../analyze/probe-types.js';
import type { Result } from '../result-types.js';
import { causeText } from './prediction-rows.js';

/** What a bar or band shows; html-timeline.ts maps each kind to a colour. */
export type SegmentKind =
  | 'ready' | 'unknown' | 'notReady' | 'terminating' | 'pending' | 'starting' | 'deleted' | 'recreated'
  | 'taintNoSchedule' | 'taintNoExecute' | 'taintOther' | 'degraded' | 'down'
  | 'fault' | 'predicted' | 'accept' | 'gap';

/** A bar on one row of a lane, from `fromSeconds` to `toSeconds` (seconds since the fault). */
export interface Segment {
  fromSeconds: number;
  toSeconds: number;
  kind: SegmentKind;
  /** Short text drawn inside the bar when it fits. */
  label: string;
  /** Tooltip text (SVG `<title>`). */
  title: string;
}

/** A point on a lane at `atSeconds` (seconds since the fault). */
export interface Marker {
  atSeconds: number;
  kind: 'pass' | 'fail' | 'event';
  label: string;
  title: string;
}

/** One row of bars inside a lane. */
export interface LaneRow {
  /** Row height in SVG user units (pixels at 100 % zoom). */
  height: number;
  segments: Segment[];
}

/** One labelled horizontal lane. */
export interface Lane {
  /** Stable id, written as `data-lane` (e.g. `node:kind-worker`). */
  id: string;
  section: 'Predicted' | 'Nodes' | 'Pods' | 'Workloads' | 'Probes' | 'Expectations' | 'Watch gaps';
  label: string;
  sublabel: string;
  rows: LaneRow[];
  /** Translucent bands behind the rows (fault window, predicted windows). */
  bands: Segment[];
  markers: Marker[];
  /** Text drawn inside the plot area on the first row (expectation lanes). */
  caption?: string;
  /** A line drawn in row `row` (probe latency): points [seconds since the fault, value], scaled so `max` fills the row. */
  line?: { row: number; points: [number, number][]; max: number; title: string };
}

type State = { atSeconds: number; kind: SegmentKind | null; label: string };

/** Consecutive states → bars; a state of kind null ends the previous bar without starting one. */
export function segmentsFrom(states: State[], endSeconds: number, titlePrefix: string): Segment[] {
  const sorted = states.filter((s) => s.atSeconds <= endSeconds).sort((a, b) => a.atSeconds - b.atSeconds);
  const out: Segment[] = [];
  sorted.forEach((s, i) => {
    const to = i + 1 < sorted.length ? sorted[i + 1].atSeconds : endSeconds;
    if (s.kind === null || to <= s.atSeconds) return;
    out.push({ fromSeconds: s.atSeconds, toSeconds: to, kind: s.kind, label: s.label, title: `${titlePrefix}${s.label}: ${s.atSeconds.toFixed(3)} s → ${to.toFixed(3)} s` });
  });
  return out;
}

const at = (v: number | null | undefined): v is number => v !== null && v !== undefined;

/** " (why: …; cause: …) " for the predicted item of this observed event, or a space when none predicts it. */
function whyOf(r: Result, match: (i: Result['predictions']['items'][number]) => boolean): string {
  const item = r.predictions.items.find((i) => match(i) && i.notModelled === undefined);
  return item ? ` (why: ${item.because}; cause: ${causeText(item)}) ` : ' ';
}

function taintRow(t: NodeTimeline['taints'][number], endSeconds: number, why = ' '): LaneRow {
  const from = t.addedAfterSeconds ?? t.addedReceivedAfterSeconds;
  const kind: SegmentKind = t.effect === 'NoExecute' ? 'taintNoExecute' : t.effect === 'NoSchedule' ? 'taintNoSchedule' : 'taintOther';
  const name = `${t.key.replace(/^node\.kubernetes\.io\//, '')}:${t.effect}`;
  const states: State[] = at(from) ? [{ atSeconds: from, kind, label: `taint ${name}` }] : [];
  if (at(t.removedAfterSeconds)) states.push({ atSeconds: t.removedAfterSeconds, kind: null, label: '' });
  return { height: 9, segments: segmentsFrom(states, endSeconds, `${t.key}:${t.effect}${why}`) };
}

function nodeLane(n: NodeTimeline, r: Result, startSeconds: number): Lane {
  const end = r.summary.endAfterSeconds;
  const states: State[] = [{ atSeconds: startSeconds, kind: 'ready', label: 'Ready=True' }];
  if (at(n.notReadyAfterSeconds)) states.push({ atSeconds: n.notReadyAfterSeconds, kind: n.notReadyStatus === 'False' ? 'notReady' : 'unknown', label: `Ready=${n.notReadyStatus ?? 'Unknown'}` });
  if (at(n.readyAgainAfterSeconds)) states.push({ atSeconds: n.readyAgainAfterSeconds, kind: 'ready', label: 'Ready=True' });
  if (at(n.deletedAfterSeconds)) states.push({ atSeconds: n.deletedAfterSeconds, kind: 'deleted', label: 'Node deleted' });
  if (at(n.recreatedAfterSeconds)) states.push({ atSeconds: n.recreatedAfterSeconds, kind: 'recreated', label: 'Node recreated' });
  const bands: Segment[] = [];
  if (n.faultTarget && at(n.faultInjectedAfterSeconds)) {
    const to = r.summary.faultRestoredAfterSeconds ?? end;
    bands.push({ fromSeconds: n.faultInjectedAfterSeconds, toSeconds: Math.max(to, n.faultInjectedAfterSeconds), kind: 'fault', label: `${r.spec.fault.type}`, title: `fault ${r.spec.fault.type}: ${n.faultInjectedAfterSeconds.toFixed(3)} s → ${r.summary.faultRestoredAfterSeconds === null ? 'not restored' : `${to.toFixed(3)} s`}` });
  }
  const p = r.predictions.items.find((x) => x.event === 'node-not-ready' && x.node === n.name && x.window !== null && x.notModelled === undefined);
  if (p?.window) bands.push({ fromSeconds: p.window.fromSeconds, toSeconds: p.window.toSeconds, kind: 'predicted', label: 'predicted detection', title: `predicted Ready→Unknown: [${p.window.fromSeconds}, ${p.window.toSeconds}] s; why: ${p.because}; cause: ${causeText(p)}` });
  const markers: Marker[] = [];
  const renew = n.lastLeaseRenewBeforeDetection;
  if (n.faultTarget && renew && renew.afterSeconds >= startSeconds) markers.push({ atSeconds: renew.afterSeconds, kind: 'event', label: 'last lease renew', title: `last Lease renewTime ${renew.renewTime} (${renew.afterSeconds.toFixed(3)} s)` });
  return {
    id: `node:${n.name}`,
    section: 'Nodes',
    label: n.name,
    sublabel: [n.faultTarget ? 'fault target' : '', n.notReadyReason ?? '', n.internalIPChanged ? `IP ${n.internalIPBefore} → ${n.internalIPAfter}` : ''].filter(Boolean).join(' · '),
    rows: [
      { height: 14, segments: segmentsFrom(states, end, `${n.name}${whyOf(r, (i) => i.event === 'node-not-ready' && i.node === n.name)}`) },
      ...n.taints.map((t) => taintRow(t, end, whyOf(r, (i) => i.node === n.name && i.taintKey === t.key && i.event === (t.effect === 'NoExecute' ? 'no-execute-taint' : 'no-schedule-taint')))),
    ],
    bands,
    markers,
  };
}

function podLane(pod: PodTimeline, r: Result, startSeconds: number): Lane {
  const end = r.summary.endAfterSeconds;
  const states: State[] = [{ atSeconds: startSeconds, kind: 'ready', label: 'Running, Ready' }];
  if (at(pod.notReadyAfterSeconds)) states.push({ atSeconds: pod.notReadyAfterSeconds, kind: 'notReady', label: 'NotReady' });
  if (at(pod.readyAgainAfterSeconds)) states.push({ atSeconds: pod.readyAgainAfterSeconds, kind: 'ready', label: 'Ready again' });
  if (at(pod.evictedAfterSeconds)) states.push({ atSeconds: pod.evictedAfterSeconds, kind: 'terminating', label: 'Terminating' });
  if (at(pod.deletedAfterSeconds)) states.push({ atSeconds: pod.deletedAfterSeconds, kind: null, label: '' });
  const podKey = `${pod.namespace}/${pod.name}`;
  const rows: LaneRow[] = [{ height: 14, segments: segmentsFrom(states, end, `${pod.name}${whyOf(r, (i) => i.pod === podKey && (i.event === 'pod-eviction' || i.event === 'pod-deleted') && i.expected)}`) }];
  const rep = pod.replacement;
  if (rep) {
    const repStates: State[] = [{ atSeconds: rep.createdAfterSeconds, kind: 'pending', label: `Pending${rep.pendingReason ? ` (${rep.pendingReason})` : ''}` }];
    if (at(rep.scheduledAfterSeconds)) repStates.push({ atSeconds: rep.scheduledAfterSeconds, kind: 'starting', label: `scheduled on ${rep.node ?? '?'}` });
    if (at(rep.readyAfterSeconds)) repStates.push({ atSeconds: rep.readyAfterSeconds, kind: 'ready', label: 'Ready' });
    rows.push({ height: 11, segments: segmentsFrom(repStates, end, `replacement ${rep.name} `) });
  }
  const endpoint = endpointRow(pod, end, startSeconds);
  if (endpoint) rows.push(endpoint.row);
  const bands: Segment[] = [];
  const p = r.predictions.items.find((x) => x.event === 'pod-eviction' && x.pod === `${pod.namespace}/${pod.name}` && x.window !== null && x.notModelled === undefined);
  if (p?.window) bands.push({ fromSeconds: p.window.fromSeconds, toSeconds: p.window.toSeconds, kind: 'predicted', label: 'predicted eviction', title: `predicted eviction: [${p.window.fromSeconds}, ${p.window.toSeconds}] s; why: ${p.because}; cause: ${causeText(p)}` });
  const restarts = pod.restartCountDelta > 0 ? `restarts +${pod.restartCountDelta}` : '';
  return {
    id: `pod:${pod.namespace}/${pod.name}`,
    section: 'Pods',
    label: pod.name,
    sublabel: [pod.nodeBefore ?? '', pod.outcome, restarts, rep ? `→ ${rep.name}` : ''].filter(Boolean).join(' · '),
    rows,
    bands,
    markers: endpoint?.markers ?? [],
  };
}

/**
 * The pod's own endpoint in its workload's Service (EndpointSlices): ready, not ready, terminating, then gone when
 * removed; back to ready only when no replacement exists (restarted in place). When its replacement's endpoint
 * made the Service whole again, that instant is a marker. Null when the workload has no Service.
 */
function endpointRow(pod: PodTimeline, end: number, startSeconds: number): { row: LaneRow; markers: Marker[] } | null {
  if (pod.endpointReadyAtFault === null || pod.endpointReadyAtFault === undefined) return null;
  const states: State[] = [{ atSeconds: startSeconds, kind: pod.endpointReadyAtFault ? 'ready' : 'notReady', label: pod.endpointReadyAtFault ? 'endpoint ready' : 'endpoint not ready' }];
  if (at(pod.endpointNotReadyAfterSeconds)) states.push({ atSeconds: pod.endpointNotReadyAfterSeconds, kind: 'notReady', label: 'endpoint not ready' });
  if (at(pod.endpointTerminatingAfterSeconds)) states.push({ atSeconds: pod.endpointTerminatingAfterSeconds, kind: 'terminating', label: 'endpoint terminating' });
  if (at(pod.endpointReadyAgainAfterSeconds) && !pod.replacement) states.push({ atSeconds: pod.endpointReadyAgainAfterSeconds, kind: 'ready', label: 'endpoint ready again' });
  if (at(pod.endpointRemovedAfterSeconds)) states.push({ atSeconds: pod.endpointRemovedAfterSeconds, kind: null, label: '' });
  const markers: Marker[] = [];
  if (at(pod.endpointReadyAgainAfterSeconds) && pod.replacement) {
    const t = pod.endpointReadyAgainAfterSeconds;
    markers.push({ atSeconds: t, kind: 'event', label: 'replacement endpoint ready', title: `endpoint of replacement ${pod.replacement.name} ready at ${t.toFixed(3)} s` });
  }
  return { row: { height: 9, segments: segmentsFrom(states, end, `${pod.name} `) }, markers };
}

function workloadLane(w: WorkloadTimeline, r: Result, startSeconds: number): Lane {
  const kindOf = (count: number): SegmentKind => (count >= w.desired ? 'ready' : count === 0 ? 'down' : 'degraded');
  const states: State[] = [{ atSeconds: startSeconds, kind: kindOf(w.readyAtFault), label: `${w.readyAtFault}/${w.desired} Ready` }];
  for (const [t, count] of w.readySeries) states.push({ atSeconds: t, kind: kindOf(count), label: `${count}/${w.desired} Ready` });
  return {
    id: `workload:${w.name}`,
    section: 'Workloads',
    label: w.name,
    sublabel: `${w.kind} · unavailable ${w.unavailableSeconds.toFixed(3)} s${w.endpoints ? ` · no ready endpoint ${w.endpoints.noReadyEndpointSeconds.toFixed(3)} s` : ''}`,
    rows: [{ height: 14, segments: segmentsFrom(states, r.summary.endAfterSeconds, `${w.name} `) }, ...serviceRow(w, r.summary.endAfterSeconds, startSeconds)],
    bands: [],
    markers: [],
  };
}

/** Ready endpoint count of the workload's Service as a second row; none without a Service. */
function serviceRow(w: WorkloadTimeline, end: number, startSeconds: number): LaneRow[] {
  const e = w.endpoints;
  if (!e) return [];
  const kindOf = (count: number): SegmentKind => (count >= w.desired ? 'ready' : count === 0 ? 'down' : 'degraded');
  const label = (count: number) => `Service ${e.service}: ${count} ready endpoint${count === 1 ? '' : 's'}`;
  const states: State[] = [{ atSeconds: startSeconds, kind: kindOf(e.readyAtFault), label: label(e.readyAtFault) }];
  for (const [t, count] of e.readySeries) states.push({ atSeconds: t, kind: kindOf(count), label: label(count) });
  return [{ height: 9, segments: segmentsFrom(states, end, `${w.name} `) }];
}

/** Pods on a fault target first (they are what the run is about), otherwise in result.json order. */
function podOrder(r: Result): PodTimeline[] {
  const targets = new Set(r.spec.fault.nodes);
  const onTarget = (p: PodTimeline) => p.nodeBefore !== null && targets.has(p.nodeBefore);
  return [...r.pods.filter(onTarget), ...r.pods.filter((p) => !onTarget(p))];
}

/** Fault targets first, then the other nodes, each in result order. */
function nodeOrder(r: Result): Result['nodes'] {
  const targets = new Set(r.spec.fault.nodes);
  return [...r.nodes.filter((n) => targets.has(n.name)), ...r.nodes.filter((n) => !targets.has(n.name))];
}

/** Most node lanes and most pod lanes the timeline draws (fault targets and their pods first); see HTML_MAX_TABLE_ROWS. */
export const MAX_NODE_LANES = 100;
export const MAX_POD_LANES = 300;

/**
 * Node, pod and workload lanes of a run, in that order. Bars start at `startSeconds` (the left edge of the
 * axis, seconds since the fault, ≤ 0) and end at the run's last journal record.
 */
export function objectLanes(r: Result, startSeconds: number): Lane[] {
  return [
    ...nodeOrder(r).slice(0, MAX_NODE_LANES).map((n) => nodeLane(n, r, startSeconds)),
    ...podOrder(r).slice(0, MAX_POD_LANES).map((p) => podLane(p, r, startSeconds)),
    ...r.workloads.map((w) => workloadLane(w, r, startSeconds)),
    ...(r.probes ?? []).map((p) => probeLane(p)),
  ];
}

const PROBE_STATE: Record<ProbeLaneRun['state'], { kind: SegmentKind; label: string }> = {
  ok: { kind: 'ready', label: 'ok' }, error: { kind: 'down', label: 'errors' }, mixed: { kind: 'degraded', label: 'some errors' },
};

/** One prober: a row of 100 ms buckets (every request ok, every one failed, or both) and a row with its p50 latency per second. */
function probeLane(p: ProbeSummary): Lane {
  const segments: Segment[] = p.lane.runs.map((run) => ({
    fromSeconds: run.fromSeconds, toSeconds: run.toSeconds, kind: PROBE_STATE[run.state].kind, label: PROBE_STATE[run.state].label,
    title: `probe ${p.name}: ${run.ok} ok, ${run.errors} failed, ${run.fromSeconds} s → ${run.toSeconds} s (100 ms buckets by send time)`,
  }));
  const points = p.lane.latencyP50Ms.map(([second, ms]): [number, number] => [second + 0.5, ms]);
  const max = Math.max(1, ...points.map(([, ms]) => ms));
  return {
    id: `probe:${p.name}`, section: 'Probes', label: `probe ${p.name}`, sublabel: `${p.type === 'dns' ? `DNS ${p.query ?? '?'}` : p.service ?? '?'}: ${p.errors}/${p.sent} failed; latency p50/s ≤ ${max} ms`,
    rows: [{ height: 12, segments }, { height: 16, segments: [] }], bands: [], markers: [],
    line: { row: 1, points, max, title: `probe ${p.name}: median latency of answered requests per second, milliseconds (top of the row = ${max} ms)` },
  };
}
