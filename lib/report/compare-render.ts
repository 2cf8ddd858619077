// Renders a Comparison as a terminal table, Markdown, self-contained HTML or JSON.
// Terminal tables use cli-table3 (handles wide Unicode such as Δ and ✓ when aligning columns); colours are off so
// output is the same in a pipe, a CI log and a terminal.
import Table from 'cli-table3';
import { InputError } from '../common/errors.js';
import type { Comparison, VariantComparison } from './compare.js';
import { renderComparisonHtml } from './compare-html.js';
import { configRows, deltaBasis, DETAIL_HEADERS, detailRows, forecastLines, predictionLines, summaryRows } from './compare-render-rows.js';
import { markdownText, table as markdownTable } from './reporters/markdown-tables.js';

/** Output formats of `rebootlab compare`. */
export type ComparisonFormat = 'text' | 'markdown' | 'html' | 'json';

/** Formats renderComparison accepts. */
export const COMPARISON_FORMATS: readonly ComparisonFormat[] = ['text', 'markdown', 'html', 'json'];

const variantTitle = (v: VariantComparison, c: Comparison): string => (v.name === c.baseline ? `${v.name} (baseline)` : v.name);

function textTable(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: { head: [], border: [], compact: true } });
  t.push(...rows);
  return t.toString();
}

function renderText(c: Comparison): string {
  const head = ['', ...c.variants.map((v) => variantTitle(v, c))];
  return [
    `Compared ${c.variants.length} variant(s), ${c.variants.reduce((n, v) => n + v.runs.length, 0)} run(s); times in seconds since the fault (unavailable: seconds); median across repeats, Δ against ${deltaBasis(c)}.`,
    predictionLines(c).join('\n'),
    forecastLines(c).join('\n'),
    textTable(['config', ...head.slice(1)], configRows(c)),
    textTable(['metric (median)', ...head.slice(1)], summaryRows(c)),
    textTable(DETAIL_HEADERS, detailRows(c)),
  ].join('\n\n') + '\n';
}

function renderMarkdown(c: Comparison): string {
  const head = c.variants.map((v) => variantTitle(v, c));
  return [
    '# rebootlab compare',
    `${c.variants.length} variant(s), ${c.variants.reduce((n, v) => n + v.runs.length, 0)} run(s). Times are seconds since time zero, the start of the fault command (workload unavailability: seconds, as clients see it); median, p95 (nearest rank), min and max across repeats; Δ against **${markdownText(deltaBasis(c))}**.`,
    // Variant names and messages come from each run's result.json: written as text, never as Markdown (table() escapes cells).
    predictionLines(c).map((l, i) => (i === 0 ? markdownText(l) : `- ${markdownText(l)}`)).join('\n'),
    forecastLines(c).map((l, i) => (i === 0 ? markdownText(l) : `- ${markdownText(l)}`)).join('\n'),
    '## Config',
    markdownTable(['', ...head], configRows(c)),
    '## Median per metric',
    markdownTable(['Metric', ...head], summaryRows(c)),
    '## Details',
    markdownTable(DETAIL_HEADERS, detailRows(c)),
  ].join('\n\n') + '\n';
}

/**
 * Render `comparison` as `text` (terminal tables), `markdown`, `html` (one self-contained page) or `json`
 * (the Comparison object, 2-space indented). Deterministic for equal input. Every time is seconds.
 * @throws InputError for an unknown format (exit code 2).
 */
export function renderComparison(comparison: Comparison, format: ComparisonFormat): string {
  switch (format) {
    case 'text':
      return renderText(comparison);
    case 'markdown':
      return renderMarkdown(comparison);
    case 'html':
      return renderComparisonHtml(comparison);
    case 'json':
      return JSON.stringify(comparison, null, 2) + '\n';
    default:
      throw new InputError(`unknown compare format "${String(format)}"; known: ${COMPARISON_FORMATS.join(', ')}`);
  }
}
