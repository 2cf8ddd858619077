// Tolerations as the forecast reads them: what admission adds to a pod, and how long it tolerates a NoExecute taint.
import type { Toleration } from '../../spec/types.js';

/** A taint the forecast matches tolerations against. */
export interface TaintRef {
  key: string;
  value?: string;
  effect: 'NoExecute' | 'NoSchedule';
}

/**
 * Whether `t` tolerates `taint` (core/v1 Toleration.ToleratesTaint, k8s.io/api/core/v1/toleration.go, v1.34): the
 * effect matches (empty matches all), the key matches (empty with Exists matches all), and `Exists` tolerates any
 * value while `Equal` (the default) compares it.
 */
export function toleratesTaint(t: Toleration, taint: TaintRef): boolean {
  if (t.effect !== undefined && t.effect !== taint.effect) return false;
  if (t.key !== undefined && t.key !== '' && t.key !== taint.key) return false;
  const op = t.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (t.key === undefined || t.key === '') return false;
  return (t.value ?? '') === (taint.value ?? '');
}

/**
 * How long a pod with `tolerations` stays on a node with NoExecute `taints` (getMinTolerationTime over the first
 * matching toleration of each taint: v1helper.GetMatchingTolerations, pkg/controller/tainteviction/taint_eviction.go,
 * v1.34): 'untolerated' when some taint has no matching toleration (evicted at once), a number of seconds (the
 * smallest tolerationSeconds, ≤ 0 counting as 0), or null when every match tolerates forever.
 */
export function tolerationSecondsOf(tolerations: readonly Toleration[], taints: readonly TaintRef[]): number | null | 'untolerated' {
  let min: number | null = null;
  for (const taint of taints) {
    const first = tolerations.find((t) => toleratesTaint(t, taint));
    if (first === undefined) return 'untolerated';
    if (first.tolerationSeconds === undefined) continue;
    const s = Math.max(0, first.tolerationSeconds);
    min = min === null ? s : Math.min(min, s);
  }
  return min;
}

/** Taint keys the DefaultTolerationSeconds admission plugin and the DaemonSet controller add tolerations for. */
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/**
 * A pod's tolerations once admitted: a DaemonSet pod gets not-ready and unreachable NoExecute tolerations without
 * tolerationSeconds (forever; AddOrUpdateDaemonPodTolerations, pkg/controller/daemon/util, v1.34); every pod lacking
 * a toleration for either taint (key or empty key, effect NoExecute or empty) gets one with the kube-apiserver's
 * `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds` (DefaultTolerationSeconds,
 * plugin/pkg/admission/defaulttolerationseconds, v1.34). `written` is what the pod spec sets (null: none).
 */
export function admittedTolerations(written: readonly Toleration[] | null, ownerKind: string | null, defaults: { notReadySeconds: number; unreachableSeconds: number }): Toleration[] {
  const tolerations: Toleration[] = [...(written ?? [])];
  if (ownerKind === 'DaemonSet') {
    for (const key of [NOT_READY, UNREACHABLE]) {
      if (!tolerations.some((t) => t.key === key && t.effect === 'NoExecute')) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute' });
    }
  }
  const covers = (key: string) => tolerations.some((t) => (t.key === key || t.key === undefined || t.key === '') && (t.effect === 'NoExecute' || t.effect === undefined));
  if (!covers(NOT_READY)) tolerations.push({ key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaults.notReadySeconds });
  if (!covers(UNREACHABLE)) tolerations.push({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaults.unreachableSeconds });
  return tolerations;
}
