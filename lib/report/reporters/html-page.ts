// The self-contained HTML document shell (inline CSS, no script, no network) shared by report.html and compare.html.
//
// Library choice: HTML is built with Preact's `h` through `htm` (tagged templates, no JSX build step) and
// serialised with preact-render-to-string. Every interpolated string (node, pod and workload names, reasons,
// messages, all of which come from the cluster) becomes a text node or attribute value that the renderer
// escapes, so no code path concatenates untrusted strings into markup. Preact is small (no dependencies),
// maintained by the same team as htm and preact-render-to-string, and renders SVG elements the same way as
// HTML ones. Output is a pure function of its input (no ids, no timestamps), which keeps reports byte-identical.
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { renderToStaticMarkup } from 'preact-render-to-string';

export { html };
export type { VNode };

/** Colours shared by the timeline SVG and the legend (CSS colour strings). */
export const COLORS = {
  ready: '#2e9e5b',
  unknown: '#9aa0a6',
  notReady: '#e0a526',
  failed: '#d93c3c',
  terminating: '#b0479c',
  pending: '#7aa6e0',
  starting: '#4f7fc4',
  deleted: '#5f6368',
  fault: '#d93c3c',
  predicted: '#3b6fd6',
  taintNoSchedule: '#f2b27a',
  taintNoExecute: '#c8553d',
  taintOther: '#c9b458',
  pass: '#2e9e5b',
  fail: '#d93c3c',
  grid: '#e3e5e8',
  text: '#202124',
  muted: '#5f6368',
} as const;

const CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: ${COLORS.text}; margin: 24px auto; max-width: 1280px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid ${COLORS.grid}; padding-bottom: 4px; }
p.lead { color: ${COLORS.muted}; margin: 0 0 12px; }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-size: 13px; vertical-align: middle; }
.status.passed { background: ${COLORS.pass}; } .status.failed { background: ${COLORS.fail}; } .status.interrupted { background: ${COLORS.notReady}; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
th, td { border: 1px solid ${COLORS.grid}; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f7f8; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.pass { color: ${COLORS.pass}; font-weight: 700; } td.fail { color: ${COLORS.fail}; font-weight: 700; }
code { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; background: #f6f7f8; padding: 0 3px; border-radius: 3px; }
.timeline { width: 100%; height: auto; border: 1px solid ${COLORS.grid}; border-radius: 4px; background: #fff; }
.timeline text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: ${COLORS.text}; }
.timeline text.muted { fill: ${COLORS.muted}; }
.timeline text.section { font-weight: 700; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: ${COLORS.muted}; margin: 6px 0; }
.legend span.swatch { display: inline-block; width: 12px; height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
ul.warnings { color: #8a5300; }
`;

/**
 * Render a complete HTML document: `<!doctype html>`, UTF-8, the inline stylesheet, `title` (escaped) and
 * `body` (a Preact tree built with `html`). Needs no network to view. Deterministic for equal input.
 */
export function renderPage(title: string, body: VNode): string {
  const doc = html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="generator" content="rebootlab" />
      <title>${title}</title>
      <style dangerouslySetInnerHTML=${{ __html: CSS }}></style>
    </head>
    <body>
      ${body}
    </body>
  </html>`;
  return '<!doctype html>\n' + renderToStaticMarkup(doc) + '\n';
}

/** A number of seconds as a cell: `18.234 s`; `—` for null (the event did not happen). */
export function formatSeconds(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(3)} s`;
}

/** A signed difference in seconds: `+20.000 s`, `−1.500 s`, `±0.000 s`; `—` for null. */
export function formatDeltaSeconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value === 0) return '±0.000 s';
  return `${value > 0 ? '+' : '−'}${Math.abs(value).toFixed(3)} s`;
}

/**
 * Most rows one HTML table shows. A 10,000-pod run has tens of thousands of pod and prediction rows: rendered whole,
 * report.html outgrew the longest string V8 can build (about 512 MiB). result.json and summary.md keep every row.
 */
export const HTML_MAX_TABLE_ROWS = 1000;

/**
 * A table with a header row; `rows` cells are VNodes or values rendered as escaped text; numeric-looking cells align
 * right. Past HTML_MAX_TABLE_ROWS rows, the rest are left out and a last row says how many and where they are.
 */
export function renderTable(headers: readonly string[], allRows: readonly (readonly unknown[])[], attrs: Record<string, string> = {}): VNode {
  const rows = allRows.slice(0, HTML_MAX_TABLE_ROWS);
  const omitted = allRows.length - rows.length;
  const cell = (value: unknown): VNode => {
    if (value !== null && typeof value === 'object' && 'type' in (value as object)) return html`<td>${value}</td>`;
    const text = value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    const numeric = /^[+−-]?\d[\d.]*( s)?$/.test(text) || text === '—';
    return html`<td class=${numeric ? 'num' : undefined}>${text}</td>`;
  };
  return html`<table ...${attrs}>
    <thead><tr>${headers.map((h) => html`<th>${h}</th>`)}</tr></thead>
    <tbody>${rows.map((row) => html`<tr>${row.map(cell)}</tr>`)}${omitted > 0 ? html`<tr class="omitted"><td colspan=${headers.length}>… ${omitted} more rows (of ${allRows.length}) are in result.json and summary.md</td></tr>` : null}</tbody>
  </table>`;
}
