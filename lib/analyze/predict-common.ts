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

/** How far around a receipt the observer's lag samples describe it, seconds: Lease updates arrive every ≤ 2 s (the controller-manager leader renews every 2 s). */
export const LAG_SAMPLE_REACH_SECONDS = 3;

/**
 * `judge`, and when that is a miss only because a receive-time observation came after the window closed, the
 * verdict again with the observer's measured extra delivery lag around the receipt ([observed − 3 s, observed + 3 s])
 * added to the window's end. Server-timed events (node-not-ready*) never use the lag.
 */
export function judgeItem(item: ItemDraft, endSeconds: number, lag: readonly { atSeconds: number; lagSeconds: number }[]): PredictionItem {
  const held = judge(item, endSeconds);
  const w = item.window;
  const observed = item.observedSeconds;
  if (held !== false || !item.expected || w === null || observed === null || observed <= w.toSeconds || item.event.startsWith('node-not-ready')) return { ...item, held };
  const near = lag.filter((l) => Math.abs(l.atSeconds - observed) <= LAG_SAMPLE_REACH_SECONDS).map((l) => l.lagSeconds);
  const extra = near.length === 0 ? 0 : Math.max(...near);
  if (extra <= 0 || observed > w.toSeconds + extra) return { ...item, held };
  return { ...item, held: true, observerLagSeconds: round3(extra), because: `${item.because}; received ${secondsText(observed - w.toSeconds)} after the window, within the observer's lag measured then (${secondsText(extra)}, Lease renewTime → receipt)` };
}

/** Seconds as text with its unit, at most millisecond precision: `secondsText(20) === "20 s"`. */
export function secondsText(seconds: number): string {
  return `${round3(seconds)} s`;
}
