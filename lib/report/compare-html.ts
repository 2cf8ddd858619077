// compare.html: the comparison as one self-contained page (tables plus an SVG range chart per metric), no script, no network.
import type { Comparison, VariantComparison } from './compare.js';
import type { MetricDef } from './compare-metrics.js';
import { configRows, deltaBasis, DETAIL_HEADERS, detailRows, forecastLines, formatMetric, predictionLines, summaryRows } from './compare-render-rows.js';
import { COLORS, html, renderPage, renderTable, type VNode } from './reporters/html-page.js';

const ROW_HEIGHT = 22;
const LABEL_WIDTH = 220;
const CHART_WIDTH = 900;
const fmt = (v: number): string => (Math.round(v * 10) / 10).toFixed(1);

/**
 * One metric's chart: per variant a bar from min to max seconds, a tick at the median and a dot at p95, on a shared
 * axis from 0 (or the smallest value, if negative) to the largest value.
 */
function rangeChart(c: Comparison, metricId: string, label: string, unit: MetricDef['unit'] = 's'): VNode | null {
  const f = (v: number) => formatMetric(v, unit);
  const stats = c.variants.map((v) => v.metrics[metricId]);
  const all = stats.flatMap((s) => [s.minSeconds, s.maxSeconds]).filter((v): v is number => v !== null);
  if (all.length === 0) return null;
  const lo = Math.min(0, ...all);
  const hi = Math.max(...all, lo + 1);
  const x = (v: number): number => LABEL_WIDTH + ((v - lo) / (hi - lo)) * (CHART_WIDTH - LABEL_WIDTH - 60);
  const height = 26 + c.variants.length * ROW_HEIGHT;
  const row = (v: VariantComparison, i: number): VNode | null => {
    const s = v.metrics[metricId];
    if (s.minSeconds === null || s.maxSeconds === null || s.medianSeconds === null || s.p95Seconds === null) return null;
    const y = 20 + i * ROW_HEIGHT;
    const title = `${v.name}: median ${f(s.medianSeconds)}, p95 ${f(s.p95Seconds)}, min ${f(s.minSeconds)}, max ${f(s.maxSeconds)} (${s.count} runs)`;
    return html`<g data-variant=${v.name}><title>${title}</title>
      <text x="6" y=${y + 14} style=${{ fontSize: '12px' }}>${v.name === c.baseline ? `${v.name} (baseline)` : v.name}</text>
      <rect x=${fmt(x(s.minSeconds))} y=${y + 5} width=${fmt(Math.max(2, x(s.maxSeconds) - x(s.minSeconds)))} height="10" rx="2" fill=${COLORS.predicted} fill-opacity="0.35" />
      <line x1=${fmt(x(s.medianSeconds))} x2=${fmt(x(s.medianSeconds))} y1=${y + 2} y2=${y + 18} stroke=${COLORS.text} stroke-width="2" />
      <circle cx=${fmt(x(s.p95Seconds))} cy=${y + 10} r="3.5" fill=${COLORS.fail} />
      <text x=${fmt(x(s.maxSeconds) + 6)} y=${y + 14} style=${{ fontSize: '11px', fill: COLORS.muted }}>${f(s.medianSeconds)}</text>
    </g>`;
  };
  return html`<figure style=${{ margin: '8px 0 16px' }}>
    <figcaption style=${{ fontWeight: 600, fontSize: '13px' }}>${label}: min–max bar, median line, p95 dot (${unit === 'ratio' ? 'percent of requests' : 'seconds'})</figcaption>
    <svg xmlns="http://www.w3.org/2000/svg" viewBox=${`0 0 ${CHART_WIDTH} ${height}`} width=${CHART_WIDTH} height=${height} data-metric=${metricId} style=${{ maxWidth: '100%', height: 'auto' }}>
      <text x=${fmt(x(lo))} y="12" style=${{ fontSize: '10px', fill: COLORS.muted }}>${f(lo)}</text>
      <text x=${fmt(x(hi))} y="12" text-anchor="end" style=${{ fontSize: '10px', fill: COLORS.muted }}>${f(hi)}</text>
      ${c.variants.map(row)}
    </svg>
  </figure>`;
}

/** The full text of compare.html for `c`: deterministic, every string escaped. Times are seconds. */
export function renderComparisonHtml(c: Comparison): string {
  const head = c.variants.map((v) => (v.name === c.baseline ? `${v.name} (baseline)` : v.name));
  const runs = c.variants.reduce((n, v) => n + v.runs.length, 0);
  const body = html`<main>
    <h1>rebootlab compare</h1>
    <p class="lead">${c.variants.length} variant(s), ${runs} run(s). Times are seconds since time zero, the start of the fault command (workload unavailability: seconds, as clients see it); median, p95 (nearest rank), min and max across repeats; Δ against ${deltaBasis(c)}.</p>
    ${(() => { const [total, ...missed] = predictionLines(c); return html`<p data-predictions>${total}</p>${missed.length > 0 ? html`<ul data-missed>${missed.map((m) => html`<li>${m}</li>`)}</ul>` : null}`; })()}
    ${(() => { const [total, ...missed] = forecastLines(c); return html`<p data-forecasts>${total}</p>${missed.length > 0 ? html`<ul data-forecast-missed>${missed.map((m) => html`<li>${m}</li>`)}</ul>` : null}`; })()}
    <h2>Config</h2>
    ${renderTable(['', ...head], configRows(c), { 'data-table': 'config' })}
    <h2>Median per metric</h2>
    ${renderTable(['Metric', ...head], summaryRows(c), { 'data-table': 'summary' })}
    <h2>Spread across repeats</h2>
    ${c.metrics.map((m) => rangeChart(c, m.id, m.label, m.unit))}
    <h2>Details</h2>
    ${renderTable(DETAIL_HEADERS, detailRows(c), { 'data-table': 'details' })}
    <h2>Runs</h2>
    <ul>${c.variants.flatMap((v) => v.runs.map((r) => html`<li>${v.name} repeat ${r.repeatIndex}: ${r.status} — <code>${r.dir}</code></li>`))}</ul>
  </main>`;
  return renderPage(`rebootlab compare: ${c.variants.map((v) => v.name).join(' vs ')}`, body);
}
