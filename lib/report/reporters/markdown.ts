// Writes summary.md: the tables a person reads (expectations, predicted vs observed, nodes, pods, workloads).
import { join } from 'node:path';
import type { Reporter, ReporterFactory, RunResult } from '../reporter.js';
import { writeReportFile } from './write-file.js';
import type { Result } from '../result-types.js';
import { codeSpan, markdownText as text, seconds, table } from './markdown-tables.js';
import { faultLine, MAX_NODE_ANSWERS, mechanismsText, PREDICTION_HEADERS, predictionRow, predictionTotals, timeZeroSentence, workloadsState } from './prediction-rows.js';
import { measurementTables, type TableCell } from '../../analyze/index.js';

/** File name of the Markdown summary in a run directory. */
export const SUMMARY_FILE = 'summary.md';

function predictionsTable(r: Result): string {
  const p = r.predictions;
  const zones = p.zoneStates.length === 0 ? 'every zone stayed Normal' : p.zoneStates.map((z) => `zone "${z.zone}" ${z.state} at ${seconds(z.atSeconds)} (${z.notReady}/${z.total} NotReady, rate ${z.evictionRatePerSecond}/s)`).join('; ');
  // Zone names, states and mechanism keys come from run.json: written as text, never as Markdown.
  const lead =
    `${predictionTotals(p)}. Lease renew interval ${seconds(p.leaseRenewIntervalSeconds)}, ` +
    `grace period ${seconds(p.gracePeriodSeconds)}, monitor period ${seconds(p.monitorPeriodSeconds)}; ${zones}.` +
    (p.mechanisms === undefined ? '' : ` ${mechanismsText(p)}`);
  return `${text(lead)}\n\n${table(PREDICTION_HEADERS, p.items.map(predictionRow))}`;
}

/** The tables of every registered measurement (nodes, pods, workloads, endpoints, probes, events, marks), each under its title. */
function measurementSections(r: Result): string[] {
  const view = { ...r, faultType: r.spec.fault.type };
  const md = (c: TableCell): unknown => (c !== null && typeof c === 'object' ? seconds(c.seconds) : c);
  return measurementTables(view).flatMap((t) => [
    `## ${text(t.title)}`,
    ...(t.note ? [text(t.note)] : []),
    table(t.headers, t.rows.map((row) => row.map(md))),
    ...(t.after ? [text(t.after)] : []),
  ]);
}

/**
 * The full text of summary.md for `result` (deterministic for equal input). Every string from the run (names,
 * messages, Event reasons, warnings) goes through markdownText or a code span: run.json and the journal are input, and a
 * `|`, a line break, a backtick, `<script>` or `[x](y)` in them must neither break a table nor add a link or a tag.
 */
export function renderSummary(r: Result): string {
  const parts: string[] = [];
  const m = r.metadata;
  parts.push(`# ${text(m.experiment)}${m.variant ? ` (${text(m.variant)})` : ''}: ${text(r.status)}`);
  // The plain-words answer first: what happened to each workload and why (decided by the analysis).
  const nodes = r.nodeAnswers ?? [];
  const answers = [...(r.answers ?? []), ...nodes.slice(0, MAX_NODE_ANSWERS)].map((a) => `- ${text(a.sentence)}`);
  if (nodes.length > MAX_NODE_ANSWERS) answers.push(`- … and ${nodes.length - MAX_NODE_ANSWERS} more nodes (result.json \`nodeAnswers\` has each)`);
  if (answers.length > 0) parts.push('## What happened', answers.join('\n'));
  parts.push(
    `Fault **${text(r.spec.fault.type)}** on ${text(r.spec.fault.nodes.join(', ')) || '(no target)'} at ${text(m.faultInjectedAt)}; ` +
      `restored ${seconds(r.summary.faultRestoredAfterSeconds)} after it; observed until ${seconds(r.summary.endAfterSeconds)}. ` +
      `Cluster ${text(r.spec.cluster.name)} (${text(r.spec.cluster.provider)}, ${text(r.spec.cluster.kubernetesVersion ?? 'version unknown')}). ` +
      `Workloads ${workloadsState(r, (w) => `**${w}**`)}.`,
  );
  parts.push(timeZeroSentence(r.summary.timeZero));
  if (r.summary.faults.length > 0) parts.push(r.summary.faults.map((f) => `- ${text(faultLine(f))}`).join('\n'));
  parts.push('## Missed predictions');
  parts.push(
    r.predictions.missed.length === 0
      ? `_None: every prediction held or is still open (${r.predictions.heldCount} of ${r.predictions.predictedCount} held)._`
      : table(PREDICTION_HEADERS, r.predictions.missed.map(predictionRow)),
  );
  parts.push('## Expectations');
  parts.push(
    r.expectations.length === 0
      ? '_None._'
      : table(['', 'Expectation', 'Actual', 'Detail'], r.expectations.map((e) => [e.passed ? '✓' : '✗', codeSpan(e.text), e.actual, e.message])),
  );
  parts.push('## Predicted vs observed', predictionsTable(r));
  parts.push(...measurementSections(r));
  const s = r.spec.settings;
  parts.push('## Effective settings');
  parts.push(
    table(['Component', 'Setting', 'Value'], [
      ...Object.entries(s.controllerManager).map(([k, v]) => ['kube-controller-manager', k, v]),
      ...Object.entries(s.apiServer).map(([k, v]) => ['kube-apiserver', k, v]),
      ...Object.entries(s.kubelet).map(([k, v]) => ['kubelet', k, v]),
    ]),
  );
  if (r.warnings.length > 0) parts.push('## Warnings', r.warnings.map((w) => `- ${text(w)}`).join('\n'));
  return parts.join('\n\n') + '\n';
}

/** Reporter that writes `<runDir>/summary.md`. @throws InfraError from onEnd if the file cannot be written. */
export const createMarkdownReporter: ReporterFactory = (): Reporter => ({
  onEnd({ runDir, result }: RunResult): void {
    writeReportFile(join(runDir, SUMMARY_FILE), renderSummary(result));
  },
  printsToStdio: () => false,
});
