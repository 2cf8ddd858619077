// The forecast document `rebootlab predict` makes, and how one of its items reads in a table row (its window and
// its subject). Shared by the forecast renderers.
import type { Forecast, ForecastItem } from '../analyze/forecast/types.js';

/** One variant's forecast, named as `rebootlab run` names it. */
export interface VariantForecast {
  variant: string;
  /** Dotted setting path → value of this variant; empty without a matrix. */
  matrixValues: Record<string, unknown>;
  forecast: Forecast;
}

/** What `rebootlab predict --format json` prints. */
export interface ForecastDocument {
  apiVersion: 'rebootlab.dev/v1alpha1';
  kind: 'Forecast';
  file: string;
  variants: VariantForecast[];
  /** What changes from each Kubernetes version of the matrix to the next (forecast-upgrade.ts); absent without a version axis. */
  versionChanges?: VersionChange[];
}

/** One forecast event whose window differs between two versions (or exists on one side only). */
export interface WindowChange {
  /** `event subject`, as the side-by-side table names the row. */
  row: string;
  /** `[a, b] s`, `never`, `[a, b] s or never`, or `—` when the older version's forecast has no such item. */
  from: string;
  /** The same for the newer version. */
  to: string;
  /**
   * The version whose forecast alone has the item (`from` or `to` is `—`): the model forecasts it on that version
   * only (a mechanism read for that version only), so it is not a change Kubernetes made; absent when both have it.
   */
  forecastOnlyOn?: string;
}

/** One mechanism whose behaviour differs between two versions. */
export interface MechanismChange {
  /** Mechanism id (a key of lib/analyze/mechanisms.ts MECHANISMS). */
  id: string;
  /** Upstream function(s) and file, e.g. `manageReplicas (pkg/controller/replicaset/replica_set.go)`. */
  where: string;
  /** The older version's behaviour and the versions it holds for. */
  from: { versions: string; behaviour: string };
  /** The newer version's. */
  to: { versions: string; behaviour: string };
}

/** What changes from one Kubernetes version to the next, with every other matrix value the same. */
export interface VersionChange {
  fromVersion: string;
  toVersion: string;
  /** The other matrix values both variants share (dotted path → value); empty when the version is the only axis. */
  given: Record<string, unknown>;
  /** Forecast events compared (union of both sides). */
  eventsCompared: number;
  windows: WindowChange[];
  mechanisms: MechanismChange[];
}

/** Seconds with one decimal. */
export const fmt = (s: number) => s.toFixed(1);

/** `[13.8, 31.0] s`, `never`, or `[13.8, 31.0] s or never`. */
export function windowText(i: Pick<ForecastItem, 'window' | 'happens'>): string {
  if (i.happens === 'never' || i.window === null) return 'never';
  const w = `[${fmt(i.window.fromSeconds)}, ${fmt(i.window.toSeconds)}] s`;
  return i.happens === 'maybe' ? `${w} or never` : w;
}

/** What an item is about: its pod, workload, or node, with its taint key's short name. */
export function subjectOf(i: ForecastItem): string {
  const key = i.taintKey ? ` (${i.taintKey.split('/').pop()})` : '';
  return `${i.pod ?? (i.event.startsWith('workload') || i.event.startsWith('probe') || i.event.startsWith('job') ? i.workload : null) ?? i.node}${key}`;
}

/** The row an item takes in the side-by-side table and in the upgrade comparison: its event and subject. */
export const rowOf = (i: ForecastItem) => `${i.event} ${subjectOf(i)}`;

/**
 * The first item of each row ({@link rowOf}) of `items`, in their order: one pass, for tables of thousands of rows
 * (1000 targets) that a search per row made quadratic.
 */
export function firstItemByRow(items: readonly ForecastItem[]): Map<string, ForecastItem> {
  const byRow = new Map<string, ForecastItem>();
  for (const i of items) {
    const row = rowOf(i);
    if (!byRow.has(row)) byRow.set(row, i);
  }
  return byRow;
}
