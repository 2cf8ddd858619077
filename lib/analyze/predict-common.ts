// Shared vocabulary of the causal model: rounding, item construction, judging an item against what was observed.
import type { PredictionCause, PredictionItem, Window } from './types.js';

/** Taint the node lifecycle controller adds when a node's Ready condition is Unknown (https://kubernetes.io/docs/reference/labels-annotations-taints/). */
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
/** Taint the node lifecycle controller adds when the kubelet reports Ready=False. */
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
/** Taint an admin or remediation tool adds for a node that is shut down (KEP-2268 non-graceful node shutdown). */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

/**
 * Observation latency allowed on top of a mechanism's own delay, seconds: the watch delivering an update to the
 * observer and to the controller that reacts to it (both watch the same API server), plus the 100 ms loops
 * (NoExecute tainting pass) and the API call that writes the result. Measured on kind: well under 1 s.
 */
export const OBSERVATION_LATENCY_SECONDS = 1;

/** Round seconds to the millisecond, as every figure of the results. */
export function round3(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** A window [from, to], seconds since time zero, rounded to the millisecond. */
export function windowOf(fromSeconds: number, toSeconds: number): Window {
  return { fromSeconds: round3(fromSeconds), toSeconds: round3(toSeconds) };
}

/** A cause: the observed event (one line) and when it happened, seconds since time zero. */
export function causeOf(event: string, atSeconds: number): PredictionCause {
  return { event, atSeconds: round3(atSeconds) };
}

/** Fields every item carries besides the verdict. */
export type ItemDraft = Omit<PredictionItem, 'held'>;

/**
 * The verdict of one item at the end of the journal (`endSeconds`, seconds since time zero):
 * not modelled → null; expected false → true unless it happened; a window → true inside, false outside,
 * and when unobserved false once the window closed before the end, else null (still open).
 */
export function judge(item: ItemDraft, endSeconds: number): boolean | null {
  if (item.notModelled !== undefined) return null;
  if (!item.expected) return item.observedSeconds === null;
  const w = item.window;
  if (w === null) return null;
  if (item.observedSeconds !== null) return item.observedSeconds >= w.fromSeconds && item.observedSeconds <= w.toSeconds;
  return endSeconds > w.toSeconds ? false : null;
}

/** Seconds as text with its unit, at most millisecond precision: `secondsText(20) === "20 s"`. */
export function secondsText(seconds: number): string {
  return `${round3(seconds)} s`;
}
