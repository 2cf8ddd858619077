// The per-zone NoExecute tainting limiter (RateLimitedTimedQueue, pkg/controller/nodelifecycle/scheduler, v1.34): a
// token bucket of burst 1 refilled at the zone's rate, and how SwapLimiter replaces it when the zone changes state.
import type { NodeTimeline } from '../types.js';
import type { ZoneState } from './zone-state.js';

/** One detected NotReady transition (client receive time, seconds since time zero) and the taint key it calls for. */
export interface Detection {
  node: NodeTimeline;
  atSeconds: number;
  key: string;
  /** Set when the zone's limiter went to rate 0 (or master disruption mode began) while this node was queued. */
  stranded?: { why: string; atSeconds: number };
  /** Set when this node's in-pass token was lost to the end-of-pass swap to rate 0: why. */
  lostInPassToken?: string;
  /**
   * Set when its in-pass token was spent by the informer-cache race (ZoneChoices.informerRace): when the next monitor
   * pass re-queued it, seconds since time zero; it waits for a token from then.
   */
  requeuedAtSeconds?: number;
}

/** When `d` joined its zone's queue as it now stands, seconds since time zero (a re-queue after the informer-cache race, or its detection). */
export function queuedAtSeconds(d: Detection): number {
  return d.requeuedAtSeconds ?? d.atSeconds;
}

/** What the next token of a zone counts from (the last taint, or a limiter swap that drained the bucket). */
export interface TokenCause {
  event: string;
  atSeconds: number;
  /** True when `atSeconds` is a taint as received (observed) rather than as predicted. */
  received?: boolean;
  /**
   * How long that received taint's GET + PATCH may have waited for the controller's client after its token was spent,
   * seconds (the client throttle of the pass that wrote it; 0 when none): the next token counts from the spending.
   */
  writeDelaySeconds?: number;
}

/** One zone of the replay: its members, state, limiter and queue. */
export interface ZoneRecord {
  name: string;
  members: NodeTimeline[];
  state: ZoneState;
  /** Tainting rate of the current limiter, nodes per second (0: the never-limiter). */
  rate: number;
  /** When the bucket (burst 1) next holds a token, seconds since time zero; −∞ = full, +∞ = never. */
  nextTokenAt: number;
  /** Nodes detected and waiting for a token, in queue order. */
  queue: Detection[];
  tokenCause: TokenCause | null;
  /** Set when the zone should have left rate 0 for a rate of exactly 1.0 but SwapLimiter kept the never-limiter: why. */
  neverLimiterKept?: string;
}

/** A new zone record in state Normal with a full bucket at `rate`. */
export function newZone(name: string, rate: number): ZoneRecord {
  return { name, members: [], state: 'Normal', rate, nextTokenAt: -Infinity, queue: [], tokenCause: null };
}

/**
 * The QPS a limiter reports (flowcontrol.RateLimiter.QPS): its rate, or 1 for the never-limiter of rate 0
 * (fakeNeverRateLimiter.QPS returns 1, k8s.io/client-go/util/flowcontrol/throttle.go, v1.34).
 */
export function limiterQps(rate: number): number {
  return rate <= 0 ? 1 : rate;
}

/**
 * SwapLimiter (rate_limited_queue.go, v1.34) at the end of the pass at `atSeconds`: nothing when the current
 * limiter's reported QPS equals the new rate (so a zone at rate 0 never leaves it for a rate of exactly 1.0: the
 * never-limiter reports QPS 1; taints stop until the controller restarts); else a new limiter, a bucket that starts
 * full unless the old one had no token (TryAccept on the old one failed, so the new one is drained). Returns whether
 * the limiter was replaced.
 */
export function swapLimiter(z: ZoneRecord, newRate: number, atSeconds: number): boolean {
  if (limiterQps(z.rate) === newRate) return false;
  const newQps = newRate <= 0 ? 0 : newRate;
  if (newQps === z.rate) return false;
  const hadToken = z.rate > 0 && z.nextTokenAt <= atSeconds;
  z.rate = newQps;
  z.nextTokenAt = newQps <= 0 ? Infinity : hadToken ? -Infinity : atSeconds + 1 / newQps;
  return true;
}
