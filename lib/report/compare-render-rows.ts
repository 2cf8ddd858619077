// The rows of the comparison tables (config, side-by-side medians, details), shared by the text, Markdown and HTML renderers.
import { sameSettingsApartFromVersion, type Comparison, type MetricStats, type VariantComparison } from './compare.js';
import type { MetricDef } from './compare-metrics.js';

type Unit = MetricDef['unit'];
/** A value in its unit: `18.234 s`, or a ratio as `12.3 %`; `—` for null. */
export const formatMetric = (v: number | null, unit: Unit = 's'): string => (v === null ? '—' : unit === 'ratio' ? `${(v * 100).toFixed(1)} %` : `${v.toFixed(3)} s`);
const sec = formatMetric;
const delta = (v: number | null, unit: Unit = 's'): string => (v === null ? '' : `Δ ${v === 0 ? '±' : v > 0 ? '+' : '−'}${formatMetric(Math.abs(v), unit)}`);

/** A side-by-side cell: `22.000 s (Δ +20.000 s)`, with `n=1/2` when some runs had no value; ratios in percent. */
export function summaryCell(s: MetricStats, unit: Unit = 's'): string {
  const parts = [sec(s.medianSeconds, unit)];
  if (s.deltaMedianSeconds !== null) parts.push(`(${delta(s.deltaMedianSeconds, unit)})`);
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
  // Runs of several Kubernetes versions (a version matrix, or runs compared across an upgrade): say which is which.
  const versionRows = new Set(c.variants.map((v) => v.kubernetesVersion)).size > 1
    ? [['Kubernetes', ...c.variants.map((v) => v.kubernetesVersion ?? '—')], ['Δ against', ...c.variants.map((v) => v.deltaAgainst ?? '—')]]
    : [];
  return [
    ...versionRows,
    ...keys.map((k) => [k, ...c.variants.map((v) => value(v, k))]),
    ['runs passed', ...c.variants.map((v) => `${v.passed}/${v.runs.length}`)],
    ['predictions held', ...c.variants.map((v) => `${v.predictions.held}/${v.predictions.predicted}`)],
    ['of which explained', ...c.variants.map((v) => `${v.predictions.explainedHeld}/${v.predictions.explained}`)],
    ['forecasts held', ...c.variants.map((v) => (v.predictions.forecast.runs === 0 ? '—' : `${v.predictions.forecast.held}/${v.predictions.forecast.judged}`))],
  ];
}

/**
 * One line per missed prediction over every compared run (`event node [pod] at X s, window [a, b] s (run dir)`),
 * first the totals; empty when no run missed one.
 */
export function predictionLines(c: Comparison): string[] {
  const t = c.predictions;
  const runs = c.variants.reduce((n, v) => n + v.runs.length, 0);
  const head = `Predictions held: ${t.held} of ${t.predicted} over ${runs} run(s) (predicted from their causes: ${t.held - t.explainedHeld} of ${t.predicted - t.explained}; explained by reading the run: ${t.explainedHeld} of ${t.explained}); missed: ${t.missed.length}.`;
  return [head, ...t.missed.map((m) => `missed: ${m.event} ${m.pod ?? m.node} ${at(m.observedSeconds)}, window ${m.window ? `[${m.window[0]}, ${m.window[1]}] s` : 'none (expected not to happen)'} (${m.dir})`)];
}

/**
 * The forecasts frozen before each fault, totalled apart from the causal chain: the totals, then one line per miss
 * (`forecast missed: event subject at X s, window [a, b] s (run dir)`).
 */
export function forecastLines(c: Comparison): string[] {
  const f = c.predictions.forecast;
  const head = f.runs === 0 ? 'Forecasts: none (no run froze one).' : `Forecasts held: ${f.held} of ${f.judged} judged (${f.items} forecast) over ${f.runs} run(s); missed: ${f.missed.length}.`;
  return [head, ...f.missed.map((m) => `forecast missed: ${m.event} ${m.subject} ${at(m.observedSeconds)}, window ${m.window ? `[${m.window[0]}, ${m.window[1]}] s` : 'never'} (${m.dir})`)];
}

const at = (v: number | null): string => (v === null ? 'not observed' : `at ${v} s`);

/** Rows of the side-by-side table: metric → median and delta per variant. */
export function summaryRows(c: Comparison): string[][] {
  return c.metrics.map((m) => [m.label, ...c.variants.map((v) => summaryCell(v.metrics[m.id], m.unit))]);
}

/** Rows of the detail table: metric × variant → n, median, p95, min, max, Δ median, Δ p95. */
export function detailRows(c: Comparison): string[][] {
  return c.metrics.flatMap((m) =>
    c.variants.map((v) => {
      const s = v.metrics[m.id];
      const u = m.unit;
      return [m.label, v.name, `${s.count}/${s.values.length}`, sec(s.medianSeconds, u), sec(s.p95Seconds, u), sec(s.minSeconds, u), sec(s.maxSeconds, u), delta(s.deltaMedianSeconds, u), delta(s.deltaP95Seconds, u)];
    }),
  );
}

/** Header of the detail table. */
export const DETAIL_HEADERS = ['Metric', 'Variant', 'n', 'median', 'p95', 'min', 'max', 'Δ median', 'Δ p95'];


/**
 * What the deltas are measured against, for the headline: the baseline variant, or per Kubernetes version. A variant
 * of another version that has no run of its settings on the baseline's version is measured against the baseline
 * variant (other settings, or another experiment), and the headline says so rather than claim the same settings.
 */
export function deltaBasis(c: Comparison): string {
  if (!c.byKubernetesVersion) return c.baseline;
  const base = c.variants.find((v) => v.name === c.baseline);
  const version = base?.kubernetesVersion ?? '?';
  const unpaired = c.variants.filter((v) => v.kubernetesVersion !== version && v.deltaAgainst === c.baseline && !(base && sameSettingsApartFromVersion(v, base)));
  const others = c.variants.filter((v) => v.kubernetesVersion !== version);
  if (unpaired.length === 0) return `the same settings on Kubernetes ${version} (row "Δ against")`;
  const without = `no run of the settings of ${unpaired.map((v) => v.name).join(', ')} on Kubernetes ${version}`;
  if (unpaired.length === others.length) return `${c.baseline} (${without}; row "Δ against")`;
  return `the same settings on Kubernetes ${version}, else ${c.baseline} (${without}; row "Δ against")`;
}
