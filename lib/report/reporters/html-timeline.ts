// Draws a TimelineModel as inline SVG: a time axis in seconds since the fault and one labelled lane per object.
//
// Hand-built SVG rather than a chart library: a timeline of lanes with bars, bands and markers is a few dozen
// rects and texts, while chart libraries (Vega-Lite, Chart.js, ECharts) need a script and a DOM to run in the
// page, which a self-contained report viewed without network or JavaScript cannot count on. The SVG is built
// with the same escaping Preact/htm templates as the rest of the report (html-page.ts).
import { COLORS, html, type VNode } from './html-page.js';
import type { Lane, Marker, Segment, SegmentKind } from './html-lanes.js';
import type { TimelineModel } from './html-timeline-model.js';

const WIDTH = 1200;
const LABEL_X = 8;
const PLOT_X0 = 270;
const PLOT_X1 = 1170;
const AXIS_HEIGHT = 34;
const SECTION_HEIGHT = 22;
const LANE_PAD = 5;
const LANE_MIN_HEIGHT = 32;
const CAPTION_HEIGHT = 14;
/** Rough width of one 11 px character, SVG units: decides whether a label fits inside its bar. */
const CHAR_WIDTH = 6.2;

const FILL: Record<SegmentKind, string> = {
  ready: COLORS.ready, unknown: COLORS.unknown, notReady: COLORS.notReady, terminating: COLORS.terminating,
  pending: COLORS.pending, starting: COLORS.starting, deleted: COLORS.deleted, recreated: COLORS.pending,
  taintNoSchedule: COLORS.taintNoSchedule, taintNoExecute: COLORS.taintNoExecute, taintOther: COLORS.taintOther,
  degraded: COLORS.notReady, down: COLORS.failed, fault: COLORS.fault, predicted: COLORS.predicted, accept: COLORS.pass, gap: COLORS.unknown,
};

/** Legend entries (label, colour) for the colours the timeline uses. */
export const LEGEND: readonly [string, string][] = [
  ['Ready / Running', COLORS.ready], ['Node Ready=Unknown', COLORS.unknown], ['NotReady / Ready=False / degraded', COLORS.notReady],
  ['Terminating', COLORS.terminating], ['replacement Pending', COLORS.pending], ['replacement scheduled, not Ready', COLORS.starting],
  ['NoSchedule taint', COLORS.taintNoSchedule], ['NoExecute taint', COLORS.taintNoExecute], ['fault window', COLORS.fault],
  ['probe requests failed (some failed: degraded)', COLORS.failed], ['predicted window', COLORS.predicted], ['expectation passed', COLORS.pass], ['expectation failed', COLORS.fail],
];

const fmt = (v: number): string => (Math.round(v * 10) / 10).toFixed(1);

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(1, max - 1)) + '…';
}

/** A tick step of 1, 2 or 5 × 10^k seconds giving about `target` ticks over `rangeSeconds`. */
export function tickStepSeconds(rangeSeconds: number, target = 12): number {
  const raw = rangeSeconds / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
}

function laneHeight(lane: Lane): number {
  const rows = lane.rows.reduce((sum, r) => sum + r.height + 2, 0);
  return Math.max(LANE_MIN_HEIGHT, 2 * LANE_PAD + (lane.caption ? CAPTION_HEIGHT : 0) + rows);
}

/** Render `model` as an `<svg>` element (viewBox 1200 wide, scales to the page width). */
export function renderTimeline(model: TimelineModel): VNode {
  const span = model.toSeconds - model.fromSeconds;
  const x = (s: number): number => PLOT_X0 + ((Math.min(Math.max(s, model.fromSeconds), model.toSeconds) - model.fromSeconds) / span) * (PLOT_X1 - PLOT_X0);
  const box = (from: number, to: number, minWidth: number): { x: string; width: string } => {
    const [x0, x1] = [x(from), x(to)];
    const w = Math.max(x1 - x0, minWidth);
    return { x: fmt(Math.min(x0, PLOT_X1 - w)), width: fmt(w) };
  };

  const body: VNode[] = [];
  let y = AXIS_HEIGHT;
  let section = '';
  model.lanes.forEach((lane, index) => {
    if (lane.section !== section) {
      section = lane.section;
      body.push(html`<text class="section" x=${LABEL_X} y=${y + 15}>${section}</text>`);
      y += SECTION_HEIGHT;
    }
    const height = laneHeight(lane);
    body.push(renderLane(lane, y, height, index, x, box));
    y += height;
  });
  const total = y + 8;

  const step = tickStepSeconds(span);
  const ticks: number[] = [];
  for (let t = Math.ceil(model.fromSeconds / step) * step; t <= model.toSeconds + 1e-9; t += step) ticks.push(Math.round(t * 1000) / 1000);
  // A label near the right edge, or near the end line, goes to the left of its line so labels do not collide.
  const leftOf = (s: number): boolean => x(s) > PLOT_X1 - 40 || (s !== model.endAfterSeconds && Math.abs(x(s) - x(model.endAfterSeconds)) < 40);
  const vline = (s: number, label: string, color: string, kind: string): VNode =>
    html`<g data-kind=${kind}><line x1=${fmt(x(s))} x2=${fmt(x(s))} y1=${AXIS_HEIGHT - 6} y2=${total - 4} stroke=${color} stroke-width="1.5" stroke-dasharray="4 3" /><text x=${fmt(leftOf(s) ? x(s) - 3 : x(s) + 3)} y=${s === model.endAfterSeconds ? AXIS_HEIGHT - 8 : AXIS_HEIGHT + 4} text-anchor=${leftOf(s) ? 'end' : 'start'} style=${{ fill: color }}>${label}</text></g>`;

  return html`<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox=${`0 0 ${WIDTH} ${total}`} width=${WIDTH} height=${total} role="img" aria-label="Timeline in seconds since the fault">
    <g data-kind="axis">
      <text class="muted" x=${LABEL_X} y="14">seconds since the fault</text>
      ${ticks.map((t) => html`<g><line x1=${fmt(x(t))} x2=${fmt(x(t))} y1=${AXIS_HEIGHT - 4} y2=${total - 4} stroke=${COLORS.grid} /><text class="muted" x=${fmt(x(t))} y="14" text-anchor="middle">${String(t)}</text></g>`)}
    </g>
    ${body}
    ${vline(0, 'fault', COLORS.fault, 'fault-line')}
    ${model.restoredAfterSeconds !== null && model.restoredAfterSeconds > 0 ? vline(model.restoredAfterSeconds, 'restored', COLORS.muted, 'restored-line') : null}
    ${vline(model.endAfterSeconds, 'end', COLORS.muted, 'end-line')}
  </svg>`;
}

function renderLane(lane: Lane, top: number, height: number, index: number, x: (s: number) => number, box: (from: number, to: number, minWidth: number) => { x: string; width: string }): VNode {
  const label = truncate(lane.label, 40);
  const bands = lane.bands.map((b) => renderBand(b, top, height, box));
  let rowY = top + LANE_PAD + (lane.caption ? CAPTION_HEIGHT : 0);
  const rows = lane.rows.map((row, i) => {
    const line = lane.line?.row === i ? renderLine(lane.line, rowY, row.height, x) : null;
    const g = html`<g data-kind="row">${row.segments.map((s) => renderSegment(s, rowY, row.height, lane.section === 'Predicted', box))}${line}</g>`;
    rowY += row.height + 2;
    return g;
  });
  const markerY = top + LANE_PAD + (lane.caption ? CAPTION_HEIGHT : 0) + (lane.rows[0]?.height ?? 12) / 2;
  return html`<g class="lane" data-lane=${lane.id} data-section=${lane.section}>
    <rect x="0" y=${top} width=${WIDTH} height=${height} fill=${index % 2 === 0 ? '#fafbfc' : '#ffffff'} />
    <text class="lane-label" x=${LABEL_X} y=${top + 14}><title>${lane.label}</title>${label}</text>
    ${lane.sublabel ? html`<text class="muted" x=${LABEL_X} y=${top + 27} style=${{ fontSize: '10px' }}>${truncate(lane.sublabel, 46)}</text>` : null}
    ${bands}
    ${lane.caption ? html`<text x=${PLOT_X0 + 4} y=${top + LANE_PAD + 10} style=${{ fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', fontSize: '10.5px' }}>${lane.caption}</text>` : null}
    ${rows}
    ${lane.markers.map((m) => renderMarker(m, x(m.atSeconds), markerY))}
  </g>`;
}

/** A polyline (probe latency) in the row at `y` of `height`: value `line.max` at the row's top, 0 at its bottom. */
function renderLine(line: NonNullable<Lane['line']>, y: number, height: number, x: (s: number) => number): VNode {
  const points = line.points.map(([s, v]) => `${fmt(x(s))},${fmt(y + height - (v / line.max) * height)}`).join(' ');
  return html`<g data-kind="latency-line"><line x1=${PLOT_X0} x2=${PLOT_X1} y1=${y + height} y2=${y + height} stroke=${COLORS.grid} /><polyline points=${points} fill="none" stroke=${COLORS.muted} stroke-width="1.2"><title>${line.title}</title></polyline></g>`;
}

function renderBand(b: Segment, top: number, height: number, box: (from: number, to: number, minWidth: number) => { x: string; width: string }): VNode {
  const color = FILL[b.kind];
  const kind = b.kind === 'predicted' ? 'predicted-window' : b.kind === 'fault' ? 'fault-window' : 'accepted-range';
  return html`<rect data-kind=${kind} ...${box(b.fromSeconds, b.toSeconds, 3)} y=${top + 1} height=${height - 2} fill=${color} fill-opacity="0.14" stroke=${color} stroke-opacity="0.7" stroke-dasharray=${b.kind === 'predicted' ? '3 2' : undefined}><title>${b.title}</title></rect>`;
}

function renderSegment(s: Segment, y: number, height: number, labelled: boolean, box: (from: number, to: number, minWidth: number) => { x: string; width: string }): VNode {
  const r = box(s.fromSeconds, s.toSeconds, 2);
  const predicted = s.kind === 'predicted';
  const fits = height >= 11 && Number(r.width) > s.label.length * CHAR_WIDTH + 6;
  // Predicted windows are labelled beside the band when the name does not fit inside it.
  const outside = labelled && !fits;
  const text = fits ? s.label : outside ? truncate(s.label, 40) : '';
  const textX = outside ? Number(r.x) + Number(r.width) + 4 : Number(r.x) + 3;
  return html`<g data-kind=${predicted ? 'predicted-window' : `segment-${s.kind}`}>
    <rect x=${r.x} y=${y} width=${r.width} height=${height} rx="2" fill=${FILL[s.kind]} fill-opacity=${predicted ? '0.25' : '0.9'} stroke=${predicted ? FILL[s.kind] : undefined} stroke-dasharray=${predicted ? '3 2' : undefined}><title>${s.title}</title></rect>
    ${text ? html`<text x=${fmt(textX)} y=${fmt(y + height - 3)} style=${{ fill: predicted || outside ? COLORS.text : '#fff', fontSize: '10px' }}>${text}</text>` : null}
  </g>`;
}

function renderMarker(m: Marker, cx: number, cy: number): VNode {
  const r = 6;
  const color = m.kind === 'pass' ? COLORS.pass : m.kind === 'fail' ? COLORS.fail : COLORS.muted;
  const shape =
    m.kind === 'event'
      ? html`<circle cx=${fmt(cx)} cy=${fmt(cy)} r="3.5" fill=${color} />`
      : html`<polygon points=${`${fmt(cx)},${fmt(cy - r)} ${fmt(cx + r)},${fmt(cy)} ${fmt(cx)},${fmt(cy + r)} ${fmt(cx - r)},${fmt(cy)}`} fill=${color} stroke="#fff" stroke-width="1" />`;
  const right = cx < PLOT_X1 - 160;
  return html`<g data-kind=${m.kind === 'event' ? 'event-marker' : 'expectation-marker'} data-passed=${m.kind === 'event' ? undefined : String(m.kind === 'pass')}>
    ${shape}<title>${m.title}</title>
    ${m.kind === 'event' ? null : html`<text x=${fmt(right ? cx + 9 : cx - 9)} y=${fmt(cy + 4)} text-anchor=${right ? 'start' : 'end'} style=${{ fontSize: '10px', fill: color }}>${truncate(m.label, 40)}</text>`}
  </g>`;
}
