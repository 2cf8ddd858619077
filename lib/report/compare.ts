// Compares runs grouped by variant (matrix config): median, p95, min, max per timing metric, and deltas to a baseline variant.
import { realpathSync } from 'node:fs';
import { aggregate } from '../analyze/expect.js';
import { escapeControlOrBidi, InputError } from '../common/errors.js';
import { expandRunDirs, loadRun, type LoadedRun } from './compare-load.js';
import { metricsOf, metricValue, type MetricDef } from './compare-metrics.js';
import type { Result, RunStatus } from './result-types.js';

/** Statistics of one metric over a variant's runs; every number is seconds. */
export interface MetricStats {
  /** The metric of each run in repeat order, seconds; null where the event did not happen. */
  values: (number | null)[];
  /** Runs with a value. */
  count: number;
  /** Nearest-rank median (the same rule as `median(...)` in `expect:`), seconds; null when no run has a value. */
  medianSeconds: number | null;
  /** Nearest-rank 95th percentile (as `p95(...)` in `expect:`), seconds. */
  p95Seconds: number | null;
  minSeconds: number | null;
  maxSeconds: number | null;
  /** medianSeconds minus the baseline variant's, seconds (positive = later/longer); null for the baseline or a missing side. */
  deltaMedianSeconds: number | null;
  /** p95Seconds minus the baseline variant's, seconds. */
  deltaP95Seconds: number | null;
}

/** One variant (config) of the comparison. */
export interface VariantComparison {
  /** Variant name (result metadata.variant), else the experiment name. */
  name: string;
  experiment: string;
  runs: { dir: string; repeatIndex: number; status: RunStatus }[];
  /** run.json `matrixValues` of the first run, when the runner wrote it. */
  matrixValues: Record<string, unknown> | null;
  /** Kubernetes version the variant's runs used (result.json spec.cluster.kubernetesVersion); null when unknown. */
  kubernetesVersion: string | null;
  /**
   * Name of the variant this one's deltas are measured against: the baseline, or, when the runs span several
   * Kubernetes versions, the variant with the same matrix values on the baseline's version (upgrade impact); null
   * for the variant itself being that reference.
   */
  deltaAgainst: string | null;
  /** Effective settings that differ between the compared variants, dotted path → value (`...Ms` milliseconds, `...Seconds` seconds). */
  settings: Record<string, number>;
  /** Runs whose status is passed / failed / interrupted. */
  passed: number;
  failed: number;
  interrupted: number;
  /** Metric id → statistics. */
  metrics: Record<string, MetricStats>;
  /**
   * The causal model's predictions summed over the variant's runs (result.json `predictions`): items that held,
   * items with a window (or `expected: false`), and the missed ones with their run directory.
   */
  predictions: PredictionTotals;
}

/** Predictions summed over runs: `held` of `predicted` held; `missed` lists each miss with its run. */
export interface PredictionTotals {
  held: number;
  predicted: number;
  /** Of `predicted` (and of `held`), the items whose window was chosen by reading the run (chosenBy): explained, not predicted. */
  explained: number;
  explainedHeld: number;
  missed: { dir: string; event: string; node: string; pod: string | null; observedSeconds: number | null; window: [number, number] | null }[];
  /** The forecasts frozen before the fault, summed apart from the causal chain: items judged, held, and each miss with its run. */
  forecast: { runs: number; judged: number; held: number; items: number; missed: { dir: string; event: string; subject: string; observedSeconds: number | null; window: [number, number] | null }[] };
}

/** `rebootlab compare` output (apiVersion rebootlab.dev/v1alpha1, kind Comparison); every time is seconds. */
export interface Comparison {
  apiVersion: 'rebootlab.dev/v1alpha1';
  kind: 'Comparison';
  /** Name of the variant deltas are measured against (per version: the baseline's version, see `byKubernetesVersion`). */
  baseline: string;
  /**
   * True when the runs span several Kubernetes versions and no `--baseline` was given: each variant's deltas are
   * against the same matrix values (minus `cluster.kubernetesVersion`) on the baseline's version.
   */
  byKubernetesVersion: boolean;
  metrics: MetricDef[];
  variants: VariantComparison[];
  /** Predictions over every compared run. */
  predictions: PredictionTotals;
}

/** Options of compareRuns / compareResults. */
export interface CompareRunsOptions {
  /** Variant name to measure deltas against; default the first variant found. */
  baseline?: string;
}

const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000) / 1000);

/** Median, p95, min, max of `values` (nulls ignored), seconds, with deltas left null. */
export function metricStats(values: (number | null)[]): MetricStats {
  const present = values.filter((v): v is number => v !== null);
  return {
    values,
    count: present.length,
    medianSeconds: aggregate(present, { fn: 'median' }),
    p95Seconds: aggregate(present, { fn: 'percentile', percentile: 95 }),
    minSeconds: aggregate(present, { fn: 'min' }),
    maxSeconds: aggregate(present, { fn: 'max' }),
    deltaMedianSeconds: null,
    deltaP95Seconds: null,
  };
}

function flatten(prefix: string, value: unknown, out: Record<string, number>): void {
  if (typeof value === 'number') out[prefix] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
}

/** Settings paths whose value is not the same in every variant. */
function differingSettings(groups: LoadedRun[][]): Set<string> {
  const seen = new Map<string, Set<number>>();
  for (const g of groups) {
    const flat: Record<string, number> = {};
    flatten('', g[0].result.spec.settings, flat);
    for (const [k, v] of Object.entries(flat)) seen.set(k, (seen.get(k) ?? new Set()).add(v));
  }
  return new Set([...seen].filter(([, vs]) => vs.size > 1).map(([k]) => k));
}

const variantOf = (r: Result): string => r.metadata.variant ?? r.metadata.experiment;

/**
 * What makes runs repeats of one another: the same variant of the same experiment, on the same provider, with
 * the same fault type. Runs that share a variant name but differ in one of the others (outage-tuned on kind and
 * on kwok) are different configs and are never pooled.
 */
const configKeyOf = (r: Result): string => JSON.stringify([variantOf(r), r.metadata.experiment, r.spec.cluster.provider, r.spec.fault.type]);

/**
 * Display names of the groups: the variant name, plus `[provider, fault type]` (only the parts that differ)
 * where several groups share one variant name.
 */
function groupNames(groups: LoadedRun[][]): string[] {
  const base = groups.map((g) => variantOf(g[0].result));
  return groups.map((g, i) => {
    const same = groups.filter((_, j) => base[j] === base[i]);
    if (same.length === 1) return base[i]!;
    const r = g[0].result;
    const parts: string[] = [];
    if (new Set(same.map((o) => o[0].result.metadata.experiment)).size > 1) parts.push(r.metadata.experiment);
    if (new Set(same.map((o) => o[0].result.spec.cluster.provider)).size > 1) parts.push(r.spec.cluster.provider);
    if (new Set(same.map((o) => o[0].result.spec.fault.type)).size > 1) parts.push(r.spec.fault.type);
    return `${base[i]} [${parts.join(', ')}]`;
  });
}

/**
 * Compare already-loaded runs (pure; compareRuns reads them from disk). Runs are grouped by config (variant, experiment,
 * provider, fault type) in first-seen
 * order, sorted by repeatIndex inside a variant.
 * @throws InputError when `options.baseline` names no variant (exit code 2), listing the variants.
 */
export function compareResults(runs: readonly LoadedRun[], options: CompareRunsOptions = {}): Comparison {
  const byConfig = new Map<string, LoadedRun[]>();
  for (const run of runs) byConfig.set(configKeyOf(run.result), [...(byConfig.get(configKeyOf(run.result)) ?? []), run]);
  const groups = [...byConfig.values()].map((g) => [...g].sort((a, b) => a.result.metadata.repeatIndex - b.result.metadata.repeatIndex));
  const names = groupNames(groups);
  const baseline = options.baseline ?? names[0] ?? '';
  if (options.baseline !== undefined && !names.includes(options.baseline)) throw new InputError(`baseline variant ${JSON.stringify(options.baseline)} is not among the compared runs; variants: ${names.map((n) => escapeControlOrBidi(n)).join(', ')}`, 'pass --baseline-variant with one of those names');
  const metrics = metricsOf(runs.map((r) => r.result));
  const differing = differingSettings(groups);
  const variants = groups.map((g, i): VariantComparison => {
    const flat: Record<string, number> = {};
    flatten('', g[0].result.spec.settings, flat);
    const count = (s: RunStatus): number => g.filter((r) => r.result.status === s).length;
    return {
      name: names[i]!,
      experiment: g[0].result.metadata.experiment,
      runs: g.map((r) => ({ dir: r.dir, repeatIndex: r.result.metadata.repeatIndex, status: r.result.status })),
      matrixValues: g[0].matrixValues,
      kubernetesVersion: g[0].result.spec.cluster.kubernetesVersion ?? null,
      deltaAgainst: null,
      settings: Object.fromEntries(Object.entries(flat).filter(([k]) => differing.has(k))),
      passed: count('passed'),
      failed: count('failed'),
      interrupted: count('interrupted'),
      metrics: Object.fromEntries(metrics.map((m) => [m.id, metricStats(g.map((r) => metricValue(r.result, m.id)))])),
      predictions: predictionTotals(g),
    };
  });
  const base = variants.find((v) => v.name === baseline);
  const versions = new Set(variants.map((v) => v.kubernetesVersion));
  const byKubernetesVersion = options.baseline === undefined && versions.size > 1 && base !== undefined;
  for (const v of variants) {
    // Upgrade impact: a variant of another version against the same settings on the baseline's version (when the
    // runs have it); the variants of the baseline's version against the baseline, as with one version.
    const reference = byKubernetesVersion && v.kubernetesVersion !== base!.kubernetesVersion ? versionPeer(v, variants, base!.kubernetesVersion) ?? base : base;
    if (v === reference || !reference) continue;
    v.deltaAgainst = reference.name;
    for (const m of metrics) {
      const [s, b] = [v.metrics[m.id], reference.metrics[m.id]];
      s.deltaMedianSeconds = s.medianSeconds === null || b.medianSeconds === null ? null : round(s.medianSeconds - b.medianSeconds);
      s.deltaP95Seconds = s.p95Seconds === null || b.p95Seconds === null ? null : round(s.p95Seconds - b.p95Seconds);
    }
  }
  return { apiVersion: 'rebootlab.dev/v1alpha1', kind: 'Comparison', baseline, byKubernetesVersion, metrics, variants, predictions: predictionTotals(groups.flat()) };
}

/**
 * Whether `a` and `b` are runs of the same experiment whose matrix values are equal apart from
 * `cluster.kubernetesVersion`: the pair an upgrade-impact delta may compare.
 */
export function sameSettingsApartFromVersion(a: VariantComparison, b: VariantComparison): boolean {
  const rest = (x: VariantComparison) => JSON.stringify(Object.entries(x.matrixValues ?? {}).filter(([k]) => k !== 'cluster.kubernetesVersion'));
  return a.experiment === b.experiment && rest(a) === rest(b);
}

/** The variant on Kubernetes `version` whose matrix values equal `v`'s except `cluster.kubernetesVersion`; undefined when none. */
function versionPeer(v: VariantComparison, variants: readonly VariantComparison[], version: string | null): VariantComparison | undefined {
  return variants.find((o) => o.kubernetesVersion === version && sameSettingsApartFromVersion(o, v));
}

/** Held / predicted / missed predictions summed over `runs` (a result without predictions counts none). */
function predictionTotals(runs: readonly LoadedRun[]): PredictionTotals {
  const p = runs.map((r) => ({ dir: r.dir, predictions: r.result.predictions }));
  return {
    held: p.reduce((n, r) => n + (r.predictions?.heldCount ?? 0), 0),
    predicted: p.reduce((n, r) => n + (r.predictions?.predictedCount ?? 0), 0),
    explained: p.reduce((n, r) => n + (r.predictions?.explainedCount ?? 0), 0),
    explainedHeld: p.reduce((n, r) => n + (r.predictions?.explainedHeldCount ?? 0), 0),
    forecast: forecastTotals(runs),
    missed: p.flatMap((r) => (r.predictions?.missed ?? []).map((m) => ({ dir: r.dir, event: m.event, node: m.node, pod: m.pod, observedSeconds: m.observedSeconds, window: m.window ? [m.window.fromSeconds, m.window.toSeconds] as [number, number] : null }))),
  };
}

/** The forecasts of `runs` summed (result.json `forecast`; a run without one counts none). */
function forecastTotals(runs: readonly LoadedRun[]): PredictionTotals['forecast'] {
  const withForecast = runs.filter((r) => r.result.forecast !== undefined);
  return {
    runs: withForecast.length,
    judged: withForecast.reduce((n, r) => n + r.result.forecast!.judgedCount, 0),
    held: withForecast.reduce((n, r) => n + r.result.forecast!.heldCount, 0),
    items: withForecast.reduce((n, r) => n + r.result.forecast!.items.length, 0),
    missed: withForecast.flatMap((r) => r.result.forecast!.missed.map((m) => ({ dir: r.dir, event: m.event, subject: m.pod ?? m.workload ?? m.node, observedSeconds: m.observedSeconds, window: m.window ? [m.window.fromSeconds, m.window.toSeconds] as [number, number] : null }))),
  };
}

/**
 * `rebootlab compare`: read each run's result.json (and run.json's matrixValues), expanding a directory of run
 * directories (a matrix run's parent) into its runs, group them by variant and compute per metric the median,
 * p95, min and max across repeats (seconds) and the deltas to the baseline variant (seconds).
 * @throws InputError naming a directory that is not a run and holds none, a missing or unreadable result.json,
 * or an unknown baseline variant (exit code 2).
 */
export function compareRuns(runDirs: readonly string[], options: CompareRunsOptions = {}): Comparison {
  // A run named twice (a matrix directory and one of its runs, or two spellings of one path) counts once.
  const unique = [...new Map(expandRunDirs(runDirs).map((dir) => [realpathSync(dir), dir])).values()];
  return compareResults(inRunOrder(unique.map(loadRun)), options);
}

/**
 * Runs of one experiment gathered from several directories (`run --shard i/n` on several CI runners) in the order
 * one unsharded run writes them: by variant name, then repeat index, so merged shards give the same table as one
 * runner. Runs of different experiments keep the order given (the first is the default baseline).
 */
function inRunOrder(runs: LoadedRun[]): LoadedRun[] {
  if (new Set(runs.map((r) => r.result.metadata.experiment)).size !== 1) return runs;
  return [...runs].sort((a, b) =>
    byCodeUnit(a.result.metadata.variant ?? '', b.result.metadata.variant ?? '') || a.result.metadata.repeatIndex - b.result.metadata.repeatIndex);
}

/** String order by UTF-16 code units, as `Array.prototype.sort` orders directory names (not locale order). */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
