// The whole timeline of a run as data: axis domain, predicted-window lanes, object lanes, expectation and gap lanes.
import type { ExpectationResult } from '../../analyze/types.js';
import type { PredictionItem, Window } from '../../analyze/types.js';
import { eventLabel } from './prediction-rows.js';
import type { Result } from '../result-types.js';
import { objectLanes, type Lane, type Marker, type Segment } from './html-lanes.js';

/** Everything html-timeline.ts draws. Every time is seconds since time zero (the start of the first fault command). */
export interface TimelineModel {
  /** Left edge of the axis, seconds since the fault (≤ 0). */
  fromSeconds: number;
  /** Right edge of the axis, seconds since the fault. */
  toSeconds: number;
  /** Fault restored marker, seconds since the fault; null when absent. */
  restoredAfterSeconds: number | null;
  /** Last journal record, seconds since the fault. */
  endAfterSeconds: number;
  lanes: Lane[];
}

/** How far before the fault the axis starts at most, seconds: earlier records are steady state. */
const LEAD_IN_SECONDS = 10;

function band(i: PredictionItem, w: Window, label: string): Segment {
  const cause = i.cause ? `; cause: ${i.cause.event} at ${i.cause.atSeconds} s` : '';
  const verdict = i.held === false ? ' (missed)' : i.held === true ? ' (held)' : '';
  return { fromSeconds: w.fromSeconds, toSeconds: w.toSeconds, kind: 'predicted', label, title: `predicted ${eventLabel(i)} of ${i.pod ?? i.node}: [${w.fromSeconds}, ${w.toSeconds}] s${verdict}; why: ${i.because}${cause}` };
}

/** One lane per predicted event kind, a band per window; each band's title names the mechanism and the cause. */
function predictedLanes(r: Result): Lane[] {
  const lane = (id: string, label: string, sublabel: string, bands: Segment[]): Lane => ({ id: `predicted:${id}`, section: 'Predicted', label, sublabel, rows: [{ height: 14, segments: bands }], bands: [], markers: [] });
  const lanes: Lane[] = [];
  const kinds: [string, string, (i: PredictionItem) => boolean][] = [
    ['detection', 'detection', (i) => i.event === 'node-not-ready'],
    ['noexecute', 'NoExecute taint', (i) => i.event === 'no-execute-taint'],
    ['eviction', 'eviction', (i) => i.event === 'pod-eviction'],
    ['deletion', 'deletion', (i) => i.event === 'pod-deleted'],
    ['replacement', 'replacement', (i) => i.event === 'replacement-created'],
  ];
  for (const [id, label, matches] of kinds) {
    const bands = r.predictions.items.filter((i) => matches(i) && i.window !== null && i.notModelled === undefined).map((i) => band(i, i.window as Window, i.pod?.split('/')[1] ?? i.node));
    if (bands.length > 0) lanes.push(lane(id, label, 'window from the observed cause', bands));
  }
  return lanes;
}

/**
 * The band of an expectation's accepted instants on the axis [from, to] (ExpectationResult.acceptedSeconds): an open
 * end runs to the axis' end (the other end clipped to the axis); null when it bounds no interval.
 */
function acceptedBand(accepted: NonNullable<ExpectationResult['acceptedSeconds']>, from: number, to: number): Window | null {
  if (accepted.fromSeconds === null && accepted.toSeconds === null) return null;
  if (accepted.fromSeconds === null) return { fromSeconds: from, toSeconds: Math.min(accepted.toSeconds!, to) };
  if (accepted.toSeconds === null) return { fromSeconds: Math.max(accepted.fromSeconds, from), toSeconds: to };
  return { fromSeconds: accepted.fromSeconds, toSeconds: accepted.toSeconds };
}

/** Longest expectation message or value a marker's title shows, characters (result.json has the whole). */
const MAX_TITLE_CHARS = 400;

function show(value: ExpectationResult['actual']): string {
  return Array.isArray(value) ? `[${value.map((v) => String(v)).join(', ')}]` : String(value);
}

function expectationLane(e: ExpectationResult, i: number, m: Omit<TimelineModel, 'lanes'>): Lane {
  const kind = e.passed ? 'pass' : 'fail';
  const mark = e.passed ? '✓' : '✗';
  const bands: Segment[] = [];
  const markers: Marker[] = [];
  const values = (Array.isArray(e.actual) ? e.actual : [e.actual]).filter((v): v is number => typeof v === 'number');
  // The compared values are instants (analysis says so): points on the time axis, with the accepted band.
  const accepted = e.acceptedSeconds ?? null;
  if (accepted !== null && values.length > 0) {
    const range = acceptedBand(accepted, m.fromSeconds, m.toSeconds);
    if (range) bands.push({ ...range, kind: 'accept', label: 'accepted', title: `accepted: ${e.text}` });
    // One marker per distinct value, the message cut short: with thousands of pods each marker's title repeated the
    // whole list, and report.html grew with the square of the pod count.
    const message = e.message.length > MAX_TITLE_CHARS ? `${e.message.slice(0, MAX_TITLE_CHARS)}…` : e.message;
    for (const v of [...new Set(values)]) markers.push({ atSeconds: Math.min(Math.max(v, m.fromSeconds), m.toSeconds), kind, label: `${v} s`, title: `${mark} ${e.text} — actual ${v} s (${message})` });
  } else {
    // Not a point in time (an outcome, a count, a span such as unavailableSeconds, or an event that never happened):
    // the expectation is evaluated at the end of the journal, so its marker sits there.
    const shown = show(e.actual);
    const text = `${mark} ${e.text} — actual ${shown} (${e.message})`;
    markers.push({ atSeconds: m.endAfterSeconds, kind, label: shown.length > MAX_TITLE_CHARS ? `${shown.slice(0, MAX_TITLE_CHARS)}…` : shown, title: text.length > MAX_TITLE_CHARS ? `${text.slice(0, MAX_TITLE_CHARS)}…` : text });
  }
  return { id: `expectation:${i}`, section: 'Expectations', label: `${mark} expectation ${i + 1}`, sublabel: e.passed ? 'passed' : 'failed', rows: [{ height: 12, segments: [] }], bands, markers, caption: e.text };
}

function gapLanes(r: Result): Lane[] {
  if (r.gaps.length === 0) return [];
  const segments = r.gaps.map((g) => ({ fromSeconds: g.fromSeconds, toSeconds: g.toSeconds, kind: 'gap' as const, label: g.kind, title: `watch gap (${g.kind}): ${g.reason}` }));
  return [{ id: 'gaps', section: 'Watch gaps', label: 'watch gaps', sublabel: 'objects may have changed unseen', rows: [{ height: 12, segments }], bands: [], markers: [] }];
}

/**
 * Build the timeline of `r`. The axis runs from at most 10 s before the fault (or the first journal record if
 * later) to the last record or the last predicted window, whichever is later. Deterministic for equal input.
 */
export function timelineModel(r: Result): TimelineModel {
  const startSeconds = (Date.parse(r.metadata.startedAt) - Date.parse(r.metadata.faultInjectedAt)) / 1000;
  const fromSeconds = Math.min(0, Math.max(startSeconds, -LEAD_IN_SECONDS));
  const windows = r.predictions.items.flatMap((i) => (i.window && i.notModelled === undefined ? [i.window] : []));
  const end = r.summary.endAfterSeconds;
  const toSeconds = Math.max(end, ...windows.map((w) => w.toSeconds), fromSeconds + 1);
  const base = { fromSeconds, toSeconds, restoredAfterSeconds: r.summary.faultRestoredAfterSeconds, endAfterSeconds: end };
  return {
    ...base,
    lanes: [...predictedLanes(r), ...objectLanes(r, fromSeconds), ...gapLanes(r), ...r.expectations.map((e, i) => expectationLane(e, i, base))],
  };
}
