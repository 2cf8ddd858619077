// Renders forecasts (lib/analyze/forecast) as text, Markdown or JSON: `rebootlab predict`, one variant after the
// other or, for a matrix, side by side.
import type { Forecast, ForecastItem } from '../analyze/forecast/types.js';
import type { Window } from '../analyze/types.js';
import { firstItemByRow, fmt, subjectOf, windowText, type ForecastDocument, type VariantForecast } from './forecast-document.js';
import { renderVersionChanges, versionChanges } from './forecast-upgrade.js';
import { codeSpan, markdownText } from './reporters/markdown-tables.js';

export { subjectOf, windowText, type ForecastDocument, type VariantForecast } from './forecast-document.js';


/** Width of a window, seconds. */
export function widthOf(w: Window | null): number | null {
  return w === null ? null : Math.round((w.toSeconds - w.fromSeconds) * 1000) / 1000;
}

/** At most this many target names in a forecast's header; each item names its own node. */
const TARGETS_LISTED = 12;

/**
 * The header's target names: all of them up to {@link TARGETS_LISTED}, else the first ones and how many more (a
 * 1000-node zone outage listed 1000 names on one line).
 */
export function targetsListed(targets: readonly string[], show: (name: string) => string = (n) => n): string[] {
  if (targets.length <= TARGETS_LISTED) return targets.map(show);
  return [...targets.slice(0, TARGETS_LISTED - 2).map(show), `and ${targets.length - (TARGETS_LISTED - 2)} more (${targets.length} in all, each named in its items)`];
}

function mechanismText(f: Forecast, i: ForecastItem): string {
  const m = f.mechanisms[i.mechanism];
  return m ? `${m.function} (${m.file}, ${m.versions})` : i.mechanism;
}

/** Every variant one after the other: a header, then one block per item (window, event, subject; mechanism, setting, assumption, outcomes). */
export function renderForecastText(doc: ForecastDocument): string {
  const lines: string[] = [];
  for (const v of doc.variants) {
    const f = v.forecast;
    lines.push(`forecast of ${doc.file}: ${v.variant} (Kubernetes ${f.kubernetesVersion}; ${f.conditionedOn === 'experiment' ? 'no cluster: placement from the experiment, heartbeat phases unknown' : 'conditioned on the pre-fault state'})`);
    lines.push(`targets: ${targetsListed(f.targets).join(', ')}; times in seconds since time zero, the start of the first fault command`);
    for (const c of f.conditions) lines.push(`  given ${c}`);
    for (const i of f.items) {
      lines.push(`  ${windowText(i).padEnd(26)} ${i.event.padEnd(20)} ${subjectOf(i)}`);
      lines.push(`      ${i.because}`);
      lines.push(`      mechanism: ${mechanismText(f, i)}; setting: ${i.setting}`);
      lines.push(`      assumption: ${i.assumption}`);
      if (i.outcomes.length > 1) for (const o of i.outcomes) lines.push(`      outcome: ${o.window ? `[${fmt(o.window.fromSeconds)}, ${fmt(o.window.toSeconds)}] s` : 'never'} when ${o.when}`);
    }
    for (const n of f.notForecast) lines.push(`  not forecast: ${n}`);
    lines.push('');
  }
  if (doc.variants.length > 1) lines.push(...sideBySide(doc, (s) => s));
  const changes = versionChanges(doc);
  if (changes.length > 0) lines.push('', 'what changes in failover when you upgrade (forecast windows and mechanisms, from the settings alone):', ...renderVersionChanges(changes));
  return lines.join('\n').trimEnd() + '\n';
}

/** Markdown: a table per variant, and the variants side by side for a matrix. */
export function renderForecastMarkdown(doc: ForecastDocument): string {
  const parts: string[] = [`# Forecast of ${codeSpan(doc.file).text}`, '', 'Times are seconds since time zero, the start of the first fault command.', ''];
  // The file name, node and variant names come from the command line and the experiment file: text, never Markdown.
  const cell = markdownText;
  for (const v of doc.variants) {
    const f = v.forecast;
    parts.push(`## ${cell(v.variant)}`, '', `Kubernetes ${cell(f.kubernetesVersion)}; targets ${targetsListed(f.targets, (t) => codeSpan(t).text.replaceAll('|', '\\|')).join(', ')}; ${f.conditionedOn === 'experiment' ? 'no cluster (placement from the experiment, heartbeat phases unknown)' : 'conditioned on the pre-fault state'}.`, '');
    for (const c of f.conditions) parts.push(`- given ${cell(c)}`);
    if (f.conditions.length > 0) parts.push('');
    parts.push('| Window | Event | Node / pod | Mechanism | Setting | Assumption |', '|---|---|---|---|---|---|');
    for (const i of f.items) {
      // <br> is written on purpose; each outcome's text is escaped.
      const outcomes = i.outcomes.length > 1 ? `<br>${i.outcomes.map((o) => cell(`${o.window ? `[${fmt(o.window.fromSeconds)}, ${fmt(o.window.toSeconds)}]` : 'never'} when ${o.when}`)).join('<br>')}` : '';
      parts.push(`| ${cell(windowText(i))}${outcomes} | ${cell(i.event)} | ${cell(subjectOf(i))} | ${cell(mechanismText(f, i))} | ${cell(i.setting)} | ${cell(i.assumption)} |`);
    }
    if (f.notForecast.length > 0) parts.push('', ...f.notForecast.map((n) => `- not forecast: ${cell(n)}`));
    parts.push('');
  }
  if (doc.variants.length > 1) parts.push('## Side by side', '', ...sideBySide(doc, cell, true), '');
  const changes = versionChanges(doc);
  if (changes.length > 0) {
    parts.push('## What changes in failover when you upgrade', '', 'Forecast windows that move and mechanisms that behave differently, from the settings alone.');
    for (const line of renderVersionChanges(changes, '- ')) parts.push(line.startsWith('- ') ? `- ${cell(line.slice(2))}` : `\n**${cell(line)}**\n`);
    parts.push('');
  }
  return parts.join('\n');
}

/** A variant's column header: its matrix values (`v1.37.2 · 30`), or its name without a matrix. */
const columnOf = (v: VariantForecast) => (Object.keys(v.matrixValues).length > 0 ? Object.values(v.matrixValues).map(String).join(' · ') : v.variant);

/** The matrix axes the column headers list, in their order: `cluster.kubernetesVersion · ...`. */
const axesOf = (doc: ForecastDocument) => Object.keys(doc.variants[0]?.matrixValues ?? {}).join(' · ') || 'variants';

/** The variants side by side: one row per event and subject, one column per variant (headed by its matrix values). */
function sideBySide(doc: ForecastDocument, cell: (s: string) => string, markdown = false): string[] {
  const firstByRow = doc.variants.map((v) => firstItemByRow(v.forecast.items));
  const keys = [...new Set(firstByRow.flatMap((byRow) => [...byRow.keys()]))];
  const rows = keys.map((k) => [k, ...firstByRow.map((byRow) => {
    const i = byRow.get(k);
    return i ? windowText(i) : '—';
  })]);
  const headers = ['event', ...doc.variants.map(columnOf)];
  if (markdown) return [`Columns: ${cell(axesOf(doc))}.`, '', `| ${headers.map(cell).join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((x, c) => x.padEnd(widths[c])).join('  ').trimEnd();
  return [`side by side (columns: ${axesOf(doc)}):`, line(headers), ...rows.map(line)];
}
