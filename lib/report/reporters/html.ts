// Writes report.html: one self-contained page (inline CSS and SVG, no script, no network) with the run's timeline and tables.
// Templating: Preact + htm + preact-render-to-string (see html-page.ts for why); timeline: hand-built SVG (see html-timeline.ts).
import { join } from 'node:path';
import type { Reporter, ReporterFactory, RunResult } from '../reporter.js';
import type { Result } from '../result-types.js';
import { COLORS, formatSeconds, html, renderPage, type VNode } from './html-page.js';
import { expectationsTable, measurementTables, predictedTable, settingsTable } from './html-tables.js';
import { LEGEND, renderTimeline } from './html-timeline.js';
import { timelineModel } from './html-timeline-model.js';
import { writeReportFile } from './write-file.js';
import { MAX_NODE_LANES, MAX_POD_LANES } from './html-lanes.js';
import { faultLine, MAX_NODE_ANSWERS, mechanismsText, predictionTotals, timeZeroSentence, workloadsState } from './prediction-rows.js';

/** File name of the HTML report in a run directory. */
export const REPORT_HTML_FILE = 'report.html';

function legend(): VNode {
  return html`<div class="legend">${LEGEND.map(([label, color]) => html`<span><span class="swatch" style=${{ background: color }}></span>${label}</span>`)}</div>`;
}

function heading(r: Result): VNode {
  const m = r.metadata;
  const title = `${m.experiment}${m.variant ? ` (${m.variant})` : ''}${m.repeatIndex > 0 ? ` repeat ${m.repeatIndex}` : ''}`;
  return html`<header>
    <h1>${title} <span class=${`status ${r.status}`} data-status=${r.status}>${r.status}</span></h1>
    <p class="lead">
      Fault <strong>${r.spec.fault.type}</strong> on ${r.spec.fault.nodes.join(', ') || '(no target)'} at ${m.faultInjectedAt};
      restored ${formatSeconds(r.summary.faultRestoredAfterSeconds)} after it; observed until ${formatSeconds(r.summary.endAfterSeconds)}.
      Cluster ${r.spec.cluster.name} (${r.spec.cluster.provider}, ${r.spec.cluster.kubernetesVersion ?? 'version unknown'}).
      Workloads ${workloadsState(r)}; expectations ${r.summary.expectationsPassed} passed, ${r.summary.expectationsFailed} failed.
      ${timeZeroSentence(r.summary.timeZero)} Negative times are before it.
    </p>
    ${r.summary.faults.length > 0 ? html`<ul class="faults">${r.summary.faults.map((f) => html`<li data-fault=${f.node}>${faultLine(f)}</li>`)}</ul>` : null}
  </header>`;
}

/** The full text of report.html for `result`: deterministic (byte-identical for equal input), every cluster string escaped. */
export function renderHtmlReport(result: Result): string {
  const m = result.metadata;
  const p = result.predictions;
  const body = html`<main>
    ${heading(result)}
    ${(result.answers ?? []).length + (result.nodeAnswers ?? []).length > 0
      ? html`<h2>What happened</h2><ul class="answers">${(result.answers ?? []).map((a) => html`<li data-answer=${a.workload}>${a.sentence}</li>`)}${(result.nodeAnswers ?? []).slice(0, MAX_NODE_ANSWERS).map((a) => html`<li data-node-answer=${a.node}>${a.sentence}</li>`)}${(result.nodeAnswers ?? []).length > MAX_NODE_ANSWERS ? html`<li>… and ${(result.nodeAnswers ?? []).length - MAX_NODE_ANSWERS} more nodes (result.json <code>nodeAnswers</code> has each)</li>` : null}</ul>`
      : null}
    <h2>Timeline</h2>
    ${legend()}
    ${renderTimeline(timelineModel(result))}
    ${result.nodes.length > MAX_NODE_LANES || result.pods.length > MAX_POD_LANES
      ? html`<p class="lead" data-lanes-omitted>The timeline draws ${Math.min(result.nodes.length, MAX_NODE_LANES)} of ${result.nodes.length} nodes and ${Math.min(result.pods.length, MAX_POD_LANES)} of ${result.pods.length} pods (fault targets and their pods first); result.json has them all.</p>`
      : null}
    <h2>Expectations</h2>
    ${expectationsTable(result)}
    <h2>Missed predictions</h2>
    ${p.missed.length === 0 ? html`<p data-missed="0"><em>None: ${p.heldCount} of ${p.predictedCount} predictions held; the rest are open or not modelled.</em></p>` : predictedTable(result, p.missed, 'missed')}
    <h2>Predicted vs observed</h2>
    <p class="lead">
      ${predictionTotals(p)}. Lease renew interval ${formatSeconds(p.leaseRenewIntervalSeconds)}, grace period ${formatSeconds(p.gracePeriodSeconds)},
      monitor period ${formatSeconds(p.monitorPeriodSeconds)};
      ${p.zoneStates.length === 0 ? 'every zone stayed Normal' : p.zoneStates.map((z) => `zone "${z.zone}" ${z.state} at ${formatSeconds(z.atSeconds)} (${z.notReady}/${z.total} NotReady, rate ${z.evictionRatePerSecond}/s)`).join('; ')}.
      Each event's "why" is the mechanism and setting; its cause is the observed event it follows.
      ${p.mechanisms === undefined ? null : html`<span data-mechanisms>${mechanismsText(p)}</span>`}
    </p>
    ${predictedTable(result)}
    ${measurementTables(result)}
    <h2>Effective flags</h2>
    ${settingsTable(result)}
    ${result.gaps.length > 0 ? html`<h2>Watch gaps</h2><ul>${result.gaps.map((g) => html`<li>${g.kind}: ${formatSeconds(g.fromSeconds)} → ${formatSeconds(g.toSeconds)}: ${g.reason}</li>`)}</ul>` : null}
    ${result.warnings.length > 0 ? html`<h2>Warnings</h2><ul class="warnings">${result.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : null}
    <p class="lead" style=${{ marginTop: '24px', color: COLORS.muted }}>rebootlab ${m.rebootlabVersion} · started ${m.startedAt} · finished ${m.finishedAt}</p>
  </main>`;
  return renderPage(`rebootlab: ${m.experiment}${m.variant ? ` (${m.variant})` : ''} — ${result.status}`, body);
}

/** Reporter that writes `<runDir>/report.html`. @throws InfraError from onEnd if the file cannot be written. */
export const createHtmlReporter: ReporterFactory = (): Reporter => ({
  onEnd({ runDir, result }: RunResult): void {
    writeReportFile(join(runDir, REPORT_HTML_FILE), renderHtmlReport(result));
  },
  printsToStdio: () => false,
});
