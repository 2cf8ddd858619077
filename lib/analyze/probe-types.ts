// The result shapes of the probe analysis (result.json `probes[]`): types only, so analyze/types.ts and the reports
// read them without importing the code that builds them (lib/analyze/probe-timeline.ts, probe-backends.ts).
import type { ProbeOutcome } from '../observe/types.js';

/**
 * Why a request failed, as the Service's state and the faults explain it:
 * - `endpoint-ready-on-down-node`: an endpoint was still ready for a pod whose node was down (powered off, frozen,
 *   partitioned, deleted, rebooting). The kubelet there cannot report, so nothing marks the pod not ready until the
 *   node lifecycle controller detects the node (`--node-monitor-grace-period`) and sets the pod's Ready=False.
 * - `no-ready-endpoint`: the Service had no ready endpoint (now, or within the last PROXY_LAG_MS: a proxy applies the
 *   endpoints' return that much later): every pod whose endpoint was ready before is not ready (its node NotReady,
 *   its readinessProbe failing, e.g. after a kubelet restart on ≤ 1.34), terminating or removed.
 * - `reused-conntrack-entry`: the request left from the same source port as an earlier request that failed toward a
 *   down node less than CONNTRACK_SYN_SENT_TIMEOUT_MS before. Its packets match that connection's unreplied conntrack
 *   entry on the probing node, whose DNAT still points at the dead pod: they skip the Service's rules and time out,
 *   whatever the endpoints are by then. TCP only: for a UDP Service kube-proxy deletes the entries whose reply source
 *   is no longer a serving endpoint in the same sync that removes the endpoint's rules (pkg/proxy/conntrack/cleanup.go
 *   CleanStaleEntries, v1.34.4), and while the endpoint is still routable the request counts as
 *   `endpoint-ready-on-down-node`. Needs the probe records' `localPort`. Named pods are those of the earlier failure.
 * - `stale-endpoint-on-down-node`: every ready endpoint was on a live node, but pods on a node still down had ready
 *   endpoints earlier: a proxy that has not caught up (kube-proxy on the probing node) still sends connections to
 *   them, which time out or find no host (`unreachable`). Named pods are those on down nodes.
 * - `unexplained`: every ready endpoint was on a live node and no node was down.
 */
export type ProbeFailureCause = 'endpoint-ready-on-down-node' | 'reused-conntrack-entry' | 'stale-endpoint-on-down-node' | 'no-ready-endpoint' | 'unexplained';

/**
 * Failed requests of one prober with one cause over one interval (result.json `probes[].failingBackends[]`): a new
 * group starts when the cause changes and no request of this cause failed for QUIET_SPLIT_MS.
 */
export interface FailingBackend {
  cause: ProbeFailureCause;
  /**
   * The pods the failed requests went to or were meant for: for `endpoint-ready-on-down-node` the ready endpoints on
   * down nodes (kube-proxy picks one at random among the ready endpoints, so with two such pods the journal cannot
   * tell which one a request hit); for `no-ready-endpoint` the pods whose endpoints had been ready and no longer
   * were; for `unexplained` the ready pods. Sorted by name.
   */
  pods: string[];
  /** Nodes of those pods, sorted. */
  nodes: string[];
  /** Failed requests in this group. */
  failed: number;
  /** Count per outcome. */
  outcomes: Partial<Record<ProbeOutcome, number>>;
  /** Send time of the first and last failed request of the group, seconds since time zero. */
  firstAfterSeconds: number;
  lastAfterSeconds: number;
  /** One line naming the mechanism and the instants (seconds since time zero) it follows from. */
  because: string;
}

/** Latency percentiles of the answered (ok) requests in one span, milliseconds; null without answers. */
export interface LatencySummary {
  count: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

/** One pod that answered the prober. */
export interface ProbeBackend {
  pod: string;
  answered: number;
  /** Send time of its first and last answered request, seconds since the fault. */
  firstAfterSeconds: number;
  lastAfterSeconds: number;
}

/** Consecutive 100 ms buckets (by send time) of one state: `ok` every request answered, `error` every one failed, `mixed` both. */
export interface ProbeLaneRun {
  /** Start of the first bucket and end of the last one, seconds since time zero; buckets without a request extend the run before them. */
  fromSeconds: number;
  toSeconds: number;
  state: 'ok' | 'error' | 'mixed';
  ok: number;
  errors: number;
}

/** What report.html draws for one prober: ok/error per 100 ms bucket and the answered latency per second. */
export interface ProbeLane {
  /** Bucket width, seconds (0.1). */
  bucketSeconds: number;
  runs: ProbeLaneRun[];
  /** [second since time zero (bucket start), median latency of the requests answered in it, milliseconds]; seconds without an answer are left out. */
  latencyP50Ms: [number, number][];
}

/** A span in which a prober sent nothing: it was restarted, or its event loop stalled. Seconds since time zero. */
export interface ProbeGap {
  fromSeconds: number;
  toSeconds: number;
  reason: string;
}

/** One prober's summary (result.json `probes[]`). Times are seconds since the fault, by each request's send time. */
export interface ProbeSummary {
  name: string;
  /** `http`: GETs through a workload's Service; `dns`: UDP queries to the cluster DNS (its `probe-started` marker; `http` in older journals). */
  type: 'http' | 'dns';
  /** The Service it probed (its `probe-started` marker), or null in journals without one. */
  service: string | null;
  /** type dns: the name queried; null for http. */
  query: string | null;
  sent: number;
  /** Requests answered with HTTP 2xx, or DNS answers with a record. */
  answered: number;
  /** Requests that failed in any way (HTTP error, DNS error code, refused, reset, timeout, unreachable). */
  errors: number;
  /** errors / sent, 0 when nothing was sent. */
  errorRatio: number;
  /**
   * errors / sent among the requests sent from the first to the last failed request at or after time zero (both
   * included), 0…1; null when none failed. With one of N equally weighted endpoints dead and still routed to, about 1/N.
   */
  errorRatioWhileFailing: number | null;
  /** Count per outcome. */
  outcomes: Partial<Record<ProbeOutcome, number>>;
  /** Whole seconds (since the fault) in which at least one request failed. */
  errorSeconds: number;
  /** Send time of the first / last failed request at or after the fault; null when none failed. */
  firstErrorAfterSeconds: number | null;
  lastErrorAfterSeconds: number | null;
  /** Latency of answered requests before the fault, during it (until restored, or the end), and after the restore. */
  latency: { before: LatencySummary; during: LatencySummary; after: LatencySummary };
  /** Pods that answered, in order of their first answer; empty for DNS (an answer does not name its server). */
  backends: ProbeBackend[];
  /**
   * Requests the prober said it sent (the `sent` of its `probe-stopped` markers, summed over restarts) minus the
   * records journaled: 0 when no result was lost; null when the prober never stopped cleanly (interrupted run, old journal).
   */
  lostRecords: number | null;
  /**
   * Requests sent before the prober's steady baseline (its `probe-baseline` marker: the first request of the run of
   * answers that made it): warm-up, apart from every other figure here (sent, answered, errors, errorSeconds,
   * outcomes, latency, backends, failing backends count only requests from the baseline on). Absent when the journal
   * has no baseline marker (runs before it existed: every request counts).
   */
  warmUp?: { sent: number; errors: number; untilAfterSeconds: number };
  /** Spans without requests: restarts (its `probe-stopped` to the next `probe-started`) and stalls (`probe-gap` markers). */
  gaps: ProbeGap[];
  /** ok/error per 100 ms and latency per second, for the report's probe lane. */
  lane: ProbeLane;
  /** Failed requests grouped by cause and pods, joined with the Service's EndpointSlices (lib/analyze/probe-backends.ts). */
  failingBackends: FailingBackend[];
  /**
   * The blackhole: requests that failed because an endpoint was still ready for a pod on a down node (failing
   * backends of cause `endpoint-ready-on-down-node`), from the first to the last such failure; null when there was
   * none. `errorRatio` is those failures over every request sent in that span (about k/N with k of N ready endpoints
   * dead: kube-proxy picks an endpoint at random per connection).
   */
  blackhole: ProbeBlackhole | null;
}

/** See ProbeSummary.blackhole. Times are seconds since time zero (send times). */
export interface ProbeBlackhole {
  fromSeconds: number;
  toSeconds: number;
  /** Requests failed with cause `endpoint-ready-on-down-node`. */
  failed: number;
  /** Requests sent from `fromSeconds` to `toSeconds`, both included. */
  sent: number;
  /** failed / sent, 0…1. */
  errorRatio: number;
}
