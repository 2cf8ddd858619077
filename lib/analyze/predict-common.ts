// Shared vocabulary of the causal model: rounding, item construction, judging an item against what was observed.
import type { PredictionCause, PredictionItem } from './types.js';
import { round3 } from './windows.js';

/** Taint the node lifecycle controller adds when a node's Ready condition is Unknown (https://kubernetes.io/docs/reference/labels-annotations-taints/). */
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
/** Taint the node lifecycle controller adds when the kubelet reports Ready=False. */
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
/** Taint an admin or remediation tool adds for a node that is shut down (KEP-2268 non-graceful node shutdown). */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

export { OBSERVATION_LATENCY_SECONDS, round3, windowOf } from './windows.js';

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
 * added to the window's end. Server-timed events (node-not-ready*, node-ready-again) never use the lag.
 */
export function judgeItem(draft: ItemDraft, endSeconds: number, lag: readonly { atSeconds: number; lagSeconds: number }[]): PredictionItem {
  const o = draft.otherwise;
  const item: ItemDraft = o === undefined ? draft : { ...draft, otherwise: { ...o, held: judge({ ...draft, expected: o.expected, window: o.window, notModelled: o.notModelled }, endSeconds) } };
  const held = judge(item, endSeconds);
  const w = item.window;
  const observed = item.observedSeconds;
  if (held !== false || !item.expected || w === null || observed === null || observed <= w.toSeconds || item.event.startsWith('node-')) return { ...item, held };
  const near = lag.filter((l) => Math.abs(l.atSeconds - observed) <= LAG_SAMPLE_REACH_SECONDS).map((l) => l.lagSeconds);
  const extra = near.length === 0 ? 0 : Math.max(...near);
  if (extra <= 0 || observed > w.toSeconds + extra) return { ...item, held };
  return {
    ...item, held: true, observerLagSeconds: round3(extra), because: `${item.because}; received ${secondsText(observed - w.toSeconds)} after the window, within the observer's lag measured then (${secondsText(extra)}, Lease renewTime → receipt)`,
    chosenBy: 'observation', otherwise: item.otherwise ?? { expected: item.expected, window: w, held, because: item.because },
  };
}

/** Seconds as text with its unit, at most millisecond precision: `secondsText(20) === "20 s"`. */
export function secondsText(seconds: number): string {
  return `${round3(seconds)} s`;
}

/**
 * A kube-controller-manager leader change, read from its leader-election Lease (kube-system/kube-controller-manager).
 * Every instant is seconds since time zero. No controller of kube-controller-manager runs between the old leader's
 * end and the new leader's start: pending countdowns (grace period, taint queue, toleration timers) are in memory and
 * die with the old process; the new leader starts its own from its first pass.
 */
export interface LeaderChange {
  /** The old holder's last renewTime (written by its own clock, the control-plane node's): it was still leading then. Null when it was not journaled. */
  oldLastRenewalSeconds: number | null;
  /**
   * By when the old leader had stopped acting: its last renewal + its renewal interval (the longest seen, at least
   * --leader-elect-retry-period, 2 s by default) + --leader-elect-renew-deadline (10 s by default: how long it keeps
   * retrying a failed renewal, its controllers still running, before it exits) + the observation latency, and never
   * after the new holder acquired. Null when `oldLastRenewalSeconds` is.
   */
  oldGoneBySeconds: number | null;
  /** The new holder's acquireTime (its own clock), else the receipt of its first Lease record. */
  acquiredSeconds: number;
  /**
   * Receipt of the first RegisteredNode Event created after the new holder acquired: a new process's node lifecycle
   * controller starts with no known nodes, so its first monitor pass emits one per Node ("Registered Node … in
   * Controller"), right after its informers synced; the taint eviction controller waits for a subset of the same
   * shared informers, started together. Null when no such Event was journaled.
   */
  firstPassReceivedSeconds: number | null;
}

/**
 * The leader change whose leaderless span (from the old holder's last renewal, or the acquisition when that is
 * unknown, to the new holder's acquisition) overlaps the open interval (fromSeconds, toSeconds), seconds since
 * time zero; undefined when none does.
 */
export function leaderChangeDuring(changes: readonly LeaderChange[], fromSeconds: number, toSeconds: number): LeaderChange | undefined {
  return changes.find((c) => (c.oldLastRenewalSeconds ?? c.acquiredSeconds) < toSeconds && c.acquiredSeconds > fromSeconds);
}

/** One line naming a leader change, e.g. "kube-controller-manager leader changed (old holder's last renewal 35.59 s, new holder acquired 52.794 s)". */
export function leaderChangeText(change: LeaderChange): string {
  const old = change.oldLastRenewalSeconds === null ? '' : `old holder's last renewal ${secondsText(change.oldLastRenewalSeconds)}, `;
  return `kube-controller-manager leader changed (${old}new holder acquired ${secondsText(change.acquiredSeconds)})`;
}
