// Which toleration of a pod answers which NoExecute taint, as the taint eviction controller decides it.

type Obj = Record<string, unknown>;

/** A taint as the taint eviction controller compares it: key, value ('' when absent) and effect. */
export interface TaintRef {
  key: string;
  value?: string;
  effect: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Whether one toleration (a pod `spec.tolerations` entry, untyped JSON) tolerates `taint`, as core/v1
 * Toleration.ToleratesTaint (k8s.io/api core/v1/toleration.go, v0.34.4): an empty effect matches every effect, an
 * empty key every key; operator `Exists` matches any value, `Equal` (or empty) only the same value (an absent value
 * is ''); any other operator matches nothing.
 */
export function toleratesTaint(toleration: Obj, taint: TaintRef): boolean {
  const effect = str(toleration.effect);
  if (effect !== '' && effect !== taint.effect) return false;
  const key = str(toleration.key);
  if (key !== '' && key !== taint.key) return false;
  const operator = str(toleration.operator);
  if (operator === '' || operator === 'Equal') return str(toleration.value) === (taint.value ?? '');
  return operator === 'Exists';
}

/** The toleration used for one taint: the first of the pod's tolerations, in order, that tolerates it. */
export interface UsedToleration {
  taint: TaintRef;
  toleration: Obj;
}

/**
 * GetMatchingTolerations (pkg/apis/core/v1/helper/helpers.go, v1.34.4): for each taint, the FIRST toleration in the
 * pod's list that tolerates it (not the one with the smallest tolerationSeconds). `untolerated` names the first
 * taint none tolerates (the pod is then evicted at once), else null.
 */
export function matchingTolerations(taints: readonly TaintRef[], tolerations: readonly Obj[]): { untolerated: TaintRef | null; used: UsedToleration[] } {
  const used: UsedToleration[] = [];
  for (const taint of taints) {
    const toleration = tolerations.find((t) => toleratesTaint(t, taint));
    if (!toleration) return { untolerated: taint, used: [] };
    used.push({ taint, toleration });
  }
  return { untolerated: null, used };
}

/**
 * getMinTolerationTime (pkg/controller/tainteviction/taint_eviction.go, v1.34.4) over the used tolerations: 0 when
 * any has tolerationSeconds ≤ 0 (or when there are none), else the smallest tolerationSeconds among those that have
 * one, seconds; null ("forever") when none has one. `taint` is the taint whose toleration gives the figure (the
 * first such), null for forever.
 */
export function minTolerationSeconds(used: readonly UsedToleration[]): { seconds: number | null; taint: TaintRef | null } {
  if (used.length === 0) return { seconds: 0, taint: null };
  let best: { seconds: number; taint: TaintRef } | null = null;
  for (const u of used) {
    const seconds = u.toleration.tolerationSeconds;
    if (typeof seconds !== 'number') continue;
    if (seconds <= 0) return { seconds: 0, taint: u.taint };
    if (best === null || seconds < best.seconds) best = { seconds, taint: u.taint };
  }
  return best === null ? { seconds: null, taint: null } : best;
}

/**
 * Seconds a pod with `tolerations` stays bound once `taint` alone is on its node: its first matching toleration's
 * tolerationSeconds (≤ 0 counts as 0), null when that toleration has none (forever), 0 when none matches (evicted
 * at once).
 */
export function tolerationSecondsFor(tolerations: readonly Obj[], taint: TaintRef): number | null {
  const { untolerated, used } = matchingTolerations([taint], tolerations);
  if (untolerated) return 0;
  return minTolerationSeconds(used).seconds;
}
