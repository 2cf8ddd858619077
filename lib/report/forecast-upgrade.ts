// "What changes in failover when I upgrade?" from a forecast document: the variants of a matrix that differ only in
// cluster.kubernetesVersion, taken pairwise in version order, and for each pair the forecast windows that moved and
// the mechanisms whose behaviour differs (lib/analyze/mechanisms.ts rows). Pure; read by forecast-render.ts.
import type { ForecastItem } from '../analyze/forecast/types.js';
import type { MechanismRef } from '../analyze/event-types.js';
import { firstItemByRow, windowText, type ForecastDocument, type MechanismChange, type VariantForecast, type VersionChange, type WindowChange } from './forecast-document.js';

/** An item's window text, or `—` when the variant forecasts no such event. */
const windowOf = (i: ForecastItem | undefined) => (i ? windowText(i) : '—');

/** The matrix axis that names the Kubernetes version of a variant. */
export const VERSION_AXIS = 'cluster.kubernetesVersion';

/** `v1.35.4` → [1, 35, 4] for ordering; text that is not a version sorts last. */
function versionKey(v: string): number[] {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : [Infinity, 0, 0];
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [versionKey(a), versionKey(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/** The mechanism refs a forecast uses, by mechanism id (a kubelet mechanism keyed per kubelet version counts once). */
function mechanismsById(v: VariantForecast): Map<string, MechanismRef> {
  const byId = new Map<string, MechanismRef>();
  for (const ref of Object.values(v.forecast.mechanisms)) if (!byId.has(ref.id)) byId.set(ref.id, ref);
  return byId;
}

/** The two variants compared: windows that differ and mechanisms whose behaviour differs. */
function changeBetween(older: VariantForecast, newer: VariantForecast, given: Record<string, unknown>): VersionChange {
  const [olderRows, newerRows] = [firstItemByRow(older.forecast.items), firstItemByRow(newer.forecast.items)];
  const rows = [...new Set([...olderRows.keys(), ...newerRows.keys()])];
  const windows: WindowChange[] = rows
    .map((row) => ({ row, from: windowOf(olderRows.get(row)), to: windowOf(newerRows.get(row)) }))
    .filter((w) => w.from !== w.to)
    .map((w) => (w.from === '—' ? { ...w, forecastOnlyOn: newer.forecast.kubernetesVersion } : w.to === '—' ? { ...w, forecastOnlyOn: older.forecast.kubernetesVersion } : w));
  const [a, b] = [mechanismsById(older), mechanismsById(newer)];
  const mechanisms: MechanismChange[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const [x, y] = [a.get(id), b.get(id)];
    if (!x || !y || (x.behaviour ?? '') === (y.behaviour ?? '')) continue;
    mechanisms.push({
      id, where: `${y.function} (${y.file})`,
      from: { versions: x.versions, behaviour: x.behaviour ?? '' },
      to: { versions: y.versions, behaviour: y.behaviour ?? '' },
    });
  }
  return { fromVersion: older.forecast.kubernetesVersion, toVersion: newer.forecast.kubernetesVersion, given, eventsCompared: rows.length, windows, mechanisms };
}

/**
 * The version changes of a forecast document: the variants are grouped by every matrix value but
 * {@link VERSION_AXIS}; in each group of two or more versions, each version is compared with the next newer one.
 * Empty when the matrix has no version axis (or one version).
 */
export function versionChanges(doc: ForecastDocument): VersionChange[] {
  const groups = new Map<string, { given: Record<string, unknown>; variants: VariantForecast[] }>();
  for (const v of doc.variants) {
    if (!(VERSION_AXIS in v.matrixValues)) continue;
    const given = Object.fromEntries(Object.entries(v.matrixValues).filter(([k]) => k !== VERSION_AXIS));
    const key = JSON.stringify(given);
    const group = groups.get(key) ?? { given, variants: [] };
    group.variants.push(v);
    groups.set(key, group);
  }
  const changes: VersionChange[] = [];
  for (const { given, variants } of groups.values()) {
    const sorted = [...variants].sort((x, y) => compareVersions(x.forecast.kubernetesVersion, y.forecast.kubernetesVersion));
    for (let i = 1; i < sorted.length; i += 1) changes.push(changeBetween(sorted[i - 1]!, sorted[i]!, given));
  }
  return changes;
}

/** `a.b.c=1, x=2` → short text of the shared matrix values: the last path segment and the value. */
export function givenText(given: Record<string, unknown>): string {
  return Object.entries(given).map(([k, v]) => `${k.split('.').pop()} ${String(v)}`).join(', ');
}

/**
 * Plain lines answering "what changes in failover from version A to B": per pair, the windows that moved (or "no
 * forecast window changes") and each mechanism whose behaviour differs, with its newer behaviour.
 */
export function renderVersionChanges(changes: VersionChange[], indent = '  '): string[] {
  const lines: string[] = [];
  for (const c of changes) {
    const given = Object.keys(c.given).length > 0 ? ` (${givenText(c.given)})` : '';
    lines.push(`from ${c.fromVersion} to ${c.toVersion}${given}:`);
    const compared = c.windows.filter((w) => w.forecastOnlyOn === undefined);
    const comparedCount = c.eventsCompared - (c.windows.length - compared.length);
    if (comparedCount === 0) lines.push(`${indent}no forecast event on both versions to compare`);
    else if (compared.length === 0) lines.push(`${indent}no forecast window changes (${comparedCount} events compared)`);
    for (const w of compared) lines.push(`${indent}${w.row}: ${w.from} → ${w.to}`);
    for (const w of c.windows.filter((x) => x.forecastOnlyOn !== undefined)) {
      lines.push(`${indent}${w.row}: forecast on ${w.forecastOnlyOn} only (${w.from === '—' ? w.to : w.from}), its mechanism not modelled on the other version: not compared`);
    }
    if (c.mechanisms.length === 0) lines.push(`${indent}no mechanism the forecast uses behaves differently`);
    for (const m of c.mechanisms) lines.push(`${indent}${m.id}, ${m.where}: ${m.to.versions}: ${m.to.behaviour}`);
  }
  return lines;
}
