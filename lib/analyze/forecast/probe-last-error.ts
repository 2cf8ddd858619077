// Forecast, traffic probers: the last failed request (`probe-last-error`) of a prober whose Service had every ready
// endpoint on a target, shared by the faults' workload items (forecast/workloads.ts) and the graceful shutdown's
// (forecast/shutdown-clients.ts), and the kube-proxy and conntrack constants both use.
import { PROXY_LAG_MS } from '../probe-backends.js';
import type { Window } from '../types.js';
import { windowOf } from '../windows.js';
import { item, type ItemSpec } from './items.js';
import type { ForecastItem, ForecastOutcome } from './types.js';

/** kube-proxy applies an EndpointSlice change within this many seconds of its write: PROXY_LAG_MS (milliseconds, lib/analyze/probe-backends.ts) in seconds. */
export const PROXY_LAG_SECONDS = PROXY_LAG_MS / 1000;
/** nf_conntrack's timeout of an unanswered SYN_SENT entry (nf_conntrack_tcp_timeout_syn_sent, Linux default), seconds. */
export const CONNTRACK_SYN_SENT_SECONDS = 120;

/** What {@link everyEndpointOnTargetsLastError} needs. */
export interface EveryEndpointOnTargetsProbe {
  /** The item's node (the first target's), prober name (as `workload`), mechanism (`kube-proxy`) and setting. */
  base: Pick<ItemSpec, 'node' | 'workload' | 'mechanism' | 'setting'>;
  /**
   * One entry per pod of the workload (every one of them on a target): the windows in which that pod may be back
   * serving (its replacement Ready, or Ready again in place), each [from, to] seconds since time zero; null for an
   * outcome in which it is not back while observed.
   */
  backs: readonly (readonly (Window | null)[])[];
  /**
   * Seconds (not milliseconds) from the first pod back to kube-proxy routing to it: PROXY_LAG_SECONDS, plus
   * OBSERVATION_LATENCY_SECONDS where the back windows are not widened by it already.
   */
  proxySeconds: number;
  /** `when` of the usual outcome (clients reach the first pod back) and of the conntrack one. */
  usualWhen: string;
  conntrackWhen: string;
  /** Further outcomes, say one in which no request fails: the item then `maybe` happens, else `always`. */
  otherOutcomes: readonly ForecastOutcome[];
  assumption: string;
  because: string;
}

/**
 * The `probe-last-error` item (the send time of the prober's last failed request) when every ready endpoint of its
 * Service was on a target: clients fail until the first pod is back and kube-proxy programs its endpoint (the
 * EndpointSlice controller writes it ready, kube-proxy's syncProxyRules applies it within PROXY_LAG_MS, pkg/proxy),
 * unless a request reuses the source port of one that failed toward a dead pod and follows its conntrack entry (up
 * to CONNTRACK_SYN_SENT_SECONDS, 120 s: nf_conntrack's SYN_SENT timeout; kube-proxy flushes only UDP entries:
 * pkg/proxy/conntrack cleanup.go CleanStaleEntries, v1.37.2).
 * Windows, seconds since time zero: usual [first back's earliest − 1, T + proxySeconds], conntrack [same, T +
 * proxySeconds + CONNTRACK_SYN_SENT_SECONDS], where T is the earliest over pods of each pod's latest back (a pod with
 * an outcome not back counts as never). The item's window is the conntrack one (the outcomes' hull).
 * @returns the item, or null when no pod has a back window or none is back in every outcome (not forecast).
 */
export function everyEndpointOnTargetsLastError(spec: EveryEndpointOnTargetsProbe): ForecastItem | null {
  const firstBack = spec.backs.flatMap((windows) => windows.filter((w): w is Window => w !== null));
  if (firstBack.length === 0) return null;
  const from = Math.min(...firstBack.map((w) => w.fromSeconds));
  const to = Math.min(...spec.backs.map((windows) => Math.max(...windows.map((w) => (w ? w.toSeconds : Infinity)))));
  if (!Number.isFinite(to)) return null;
  const usual = windowOf(from - 1, to + spec.proxySeconds);
  const conntrack = windowOf(from - 1, to + spec.proxySeconds + CONNTRACK_SYN_SENT_SECONDS);
  return item({
    ...spec.base, event: 'probe-last-error', happens: spec.otherOutcomes.length > 0 ? 'maybe' : 'always', window: conntrack,
    outcomes: [{ window: usual, when: spec.usualWhen }, { window: conntrack, when: spec.conntrackWhen }, ...spec.otherOutcomes],
    assumption: spec.assumption, because: spec.because,
  });
}
