// The rows of the comparison tables (config, side-by-side medians, details), shared by the text, Markdown and HTML renderers.
import type { Comparison, MetricStats, VariantComparison } from './compare.js';

const sec = (v: number | null): string => (v === null ? '—' : `${v.toFixed(3)} s`);
const delta = (v: number | null): string => (v === null ? '' : v === 0 ? 'Δ ±0.000 s' : `Δ ${v > 0 ? '+' : '−'}${Math.abs(v).toFixed(3)} s`);

/** A side-by-side cell: `22.000 s (Δ +20.000 s)`, with `n=1/2` when some runs had no value. */
export function summaryCell(s: MetricStats): string {
  const parts = [sec(s.medianSeconds)];
  if (s.deltaMedianSeconds !== null) parts.push(`(${delta(s.deltaMedianSeconds)})`);
  if (s.count < s.values.length) parts.push(`n=${s.count}/${s.values.length}`);
  return parts.join(' ');
}

/** Rows of the config table: matrix values, the settings that differ, runs passed. */
export function configRows(c: Comparison): string[][] {
  const keys = [...new Set(c.variants.flatMap((v) => [...Object.keys(v.matrixValues ?? {}).map((k) => `matrix ${k}`), ...Object.keys(v.settings)]))];
  const value = (v: VariantComparison, k: string): string => {
    if (k.startsWith('matrix ')) return v.matrixValues?.[k.slice(7)] === undefined ? '—' : String(v.matrixValues[k.slice(7)]);
    return v.settings[k] === undefined ? '—' : String(v.settings[k]);
  };
  return [...keys.map((k) => [k, ...c.variants.map((v) => value(v, k))]), ['runs passed', ...c.variants.map((v) => `${v.passed}/${v.runs.length}`)]];
}

/** Rows of the side-by-side table: metric → median and delta per variant. */
export function summaryRows(c: Comparison): string[][] {
  return c.metrics.map((m) => [m.label, ...c.variants.map((v) => summaryCell(v.metrics[m.id]))]);
}

/** Rows of the detail table: metric × variant → n, median, p95, min, max, Δ median, Δ p95. */
export function detailRows(c: Comparison): string[][] {
  return c.metrics.flatMap((m) =>
    c.variants.map((v) => {
      const s = v.metrics[m.id];
      return [m.label, v.name, `${s.count}/${s.values.length}`, sec(s.medianSeconds), sec(s.p95Seconds), sec(s.minSeconds), sec(s.maxSeconds), delta(s.deltaMedianSeconds), delta(s.deltaP95Seconds)];
    }),
  );
}

/** Header of the detail table. */
export const DETAIL_HEADERS = ['Metric', 'Variant', 'n', 'median', 'p95', 'min', 'max', 'Δ median', 'Δ p95'];

