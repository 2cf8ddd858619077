// Building forecast items: defaults for the fields most items leave empty, the hull of their outcomes; finding a pod's item.
import type { Window } from '../types.js';
import { windowOf } from '../windows.js';
import type { MechanismId } from './mechanisms.js';
import type { ForecastEvent, ForecastItem, ForecastOutcome, PreFaultPod } from './types.js';

/** What {@link item} needs: the rest defaults to null (pod, workload, taint key) or one outcome from `window`. */
export interface ItemSpec extends Omit<ForecastItem, 'pod' | 'workload' | 'taintKey' | 'mechanism' | 'outcomes'> {
  pod?: string | null;
  workload?: string | null;
  taintKey?: string | null;
  /** A mechanism id, or `id@<kubeletVersion>` (see ForecastItem.mechanism; lib/analyze/mechanisms.ts mechanismKey). */
  mechanism: MechanismId | `${MechanismId}@${string}`;
  /** The outcomes; by default one: `window` (or "does not happen" when `happens` is never). */
  outcomes?: ForecastOutcome[];
}

/** A forecast item: one outcome from its window unless outcomes are given, and then `window` the hull of theirs. */
export function item(spec: ItemSpec): ForecastItem {
  const outcomes = spec.outcomes ?? [{ window: spec.happens === 'never' ? null : spec.window, when: spec.happens === 'never' ? 'in every case' : 'as forecast' }];
  const windows = outcomes.flatMap((o) => (o.window ? [o.window] : []));
  return {
    event: spec.event, node: spec.node, pod: spec.pod ?? null, workload: spec.workload ?? null, taintKey: spec.taintKey ?? null,
    happens: spec.happens, window: hull(windows) ?? spec.window, outcomes,
    mechanism: spec.mechanism, setting: spec.setting, assumption: spec.assumption, because: spec.because,
  };
}

/** The smallest window holding every one of `windows`, or null when there are none. */
export function hull(windows: readonly Window[]): Window | null {
  if (windows.length === 0) return null;
  return windowOf(Math.min(...windows.map((w) => w.fromSeconds)), Math.max(...windows.map((w) => w.toSeconds)));
}

/** Whether two windows (or two "never"s) are the same; windows are rounded to the millisecond (windowOf). */
export function sameWindow(a: Window | null, b: Window | null): boolean {
  return a === null || b === null ? a === b : a.fromSeconds === b.fromSeconds && a.toSeconds === b.toSeconds;
}

/** The first of `items` for `event` about `pod` (its `pod` field is `namespace/name`), or undefined. */
export function podItemOf(items: readonly ForecastItem[], event: ForecastEvent, pod: Pick<PreFaultPod, 'namespace' | 'name'>): ForecastItem | undefined {
  return items.find((i) => i.event === event && i.pod === `${pod.namespace}/${pod.name}`);
}
