// The tables under the timeline in report.html: expectations, predicted vs observed, each measurement's tables, effective flags.
import type { TimeoutSettings } from '../../spec/settings.js';
import { measurementTables as tablesOf, type TableCell } from '../../analyze/index.js';
import type { Result } from '../result-types.js';
import { formatSeconds as s, html, renderTable, type VNode } from './html-page.js';
import { causeText, PREDICTION_HEADERS, predictionRow } from './prediction-rows.js';


/** Expectations with pass/fail, the value compared and the one-line detail. */
export function expectationsTable(r: Result): VNode {
  if (r.expectations.length === 0) return html`<p><em>No expectations.</em></p>`;
  const rows = r.expectations.map((e) => [
    html`<span class=${e.passed ? 'pass' : 'fail'} data-passed=${String(e.passed)} style=${{ color: e.passed ? '#2e9e5b' : '#d93c3c', fontWeight: 700 }}>${e.passed ? '✓ pass' : '✗ fail'}</span>`,
    html`<code>${e.text}</code>`,
    Array.isArray(e.actual) ? `[${e.actual.map(String).join(', ')}]` : e.actual,
    e.message,
  ]);
  return renderTable(['', 'Expectation', 'Actual', 'Detail'], rows, { 'data-table': 'expectations' });
}

/**
 * Every predicted event next to what happened, with its mechanism ("why") and the observed event it follows; the
 * row's title repeats the cause for hover. Missed rows carry `data-held="false"`.
 */
export function predictedTable(r: Result, items = r.predictions.items, tableName = 'predicted'): VNode {
  const rows = items.map((i) => {
    const [mark, ...rest] = predictionRow(i);
    return [html`<span class=${i.held === false ? 'fail' : i.held === true ? 'pass' : ''} data-held=${String(i.held)} title=${causeText(i)}>${mark}</span>`, ...rest];
  });
  return renderTable(PREDICTION_HEADERS, rows, { 'data-table': tableName });
}

/** The tables of every registered measurement, each under its title (`data-table` = the table's name). */
export function measurementTables(r: Result): VNode[] {
  const view = { ...r, faultType: r.spec.fault.type };
  const cell = (c: TableCell): unknown => (c !== null && typeof c === 'object' ? s(c.seconds) : c);
  return tablesOf(view).map(
    (t) => html`<h2>${t.title}</h2>
      ${t.note ? html`<p class="lead">${t.note}</p>` : null}
      ${renderTable(t.headers, t.rows.map((row) => row.map(cell)), { 'data-table': t.name })}
      ${t.after ? html`<p class="lead">${t.after}</p>` : null}`,
  );
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Milliseconds as a Go duration the flag accepts: `20s`, `1500ms`. */
function goDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * The effective settings as the flags and config fields that set them, e.g. `--node-monitor-grace-period=20s`
 * for controllerManager.nodeMonitorGracePeriodMs = 20000 (milliseconds); `...Seconds` values keep seconds.
 */
export function flagRows(settings: TimeoutSettings): [string, string, string][] {
  const rows: [string, string, string][] = [];
  const add = (component: string, values: Record<string, number>, asFlag: boolean): void => {
    for (const [key, value] of Object.entries(values)) {
      const name = key.endsWith('Ms') ? key.slice(0, -2) : key;
      const shown = key.endsWith('Ms') ? goDuration(value) : String(value);
      rows.push([component, asFlag ? `--${kebab(name)}=${shown}` : `${name}: ${shown}`, `${key} = ${value}`]);
    }
  };
  add('kube-controller-manager', settings.controllerManager, true);
  add('kube-apiserver', settings.apiServer, true);
  add('kubelet (KubeletConfiguration)', settings.kubelet, false);
  return rows;
}

/** The effective flags read back from the cluster. */
export function settingsTable(r: Result): VNode {
  return renderTable(['Component', 'Flag / field', 'result.json value'], flagRows(r.spec.settings).map(([c, f, v]) => [c, html`<code>${f}</code>`, v]), { 'data-table': 'settings' });
}
