// What a Service's clients saw: each traffic prober's requests (journal `probe` records) summed up around the fault.
import type { Observation, PhaseObservation, ProbeObservation, ProbeOutcome } from '../observe/types.js';
import { secondsSince } from './clock.js';
import { buildFailingBackends, type FailingBackendInput } from './probe-backends.js';
import type { FailingBackend, LatencySummary, ProbeBackend, ProbeBlackhole, ProbeGap, ProbeLane, ProbeLaneRun, ProbeSummary } from './probe-types.js';

/** `part / whole` rounded to 4 decimals (0.01 %), 0 when `whole` is 0: every ratio of a probe summary. */
function ratioOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** The blackhole of `failing` over `records` (sorted by send time), or null. */
function blackholeOf(records: readonly ProbeObservation[], failing: readonly FailingBackend[], faultMs: number): ProbeBlackhole | null {
  const groups = failing.filter((f) => f.cause === 'endpoint-ready-on-down-node');
  if (groups.length === 0) return null;
  const fromSeconds = Math.min(...groups.map((g) => g.firstAfterSeconds));
  const toSeconds = Math.max(...groups.map((g) => g.lastAfterSeconds));
  const failed = groups.reduce((n, g) => n + g.failed, 0);
  const sent = records.filter((r) => { const at = secondsSince(faultMs, r.sentAtMs); return at >= fromSeconds && at <= toSeconds; }).length;
  return { fromSeconds, toSeconds, failed, sent, errorRatio: ratioOf(failed, sent) };
}

/** The `q` quantile (0…1) of sorted numbers by nearest rank; null for none. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function latencyOf(records: readonly ProbeObservation[]): LatencySummary {
  const ms = records.filter((r) => r.outcome === 'ok').map((r) => r.latencyMs).sort((a, b) => a - b);
  return { count: ms.length, p50Ms: quantile(ms, 0.5), p99Ms: quantile(ms, 0.99) };
}

/** Bucket width of the probe lane, milliseconds. */
export const PROBE_BUCKET_MS = 100;

/** The lane of `records` (sorted by send time): runs of 100 ms buckets aligned to `faultMs`, and p50 latency per second. */
export function probeLane(records: readonly ProbeObservation[], faultMs: number): ProbeLane {
  const buckets = new Map<number, { ok: number; errors: number }>();
  const latencies = new Map<number, number[]>();
  for (const r of records) {
    const index = Math.floor((r.sentAtMs - faultMs) / PROBE_BUCKET_MS);
    const b = buckets.get(index) ?? { ok: 0, errors: 0 };
    if (r.outcome === 'ok') b.ok += 1;
    else b.errors += 1;
    buckets.set(index, b);
    if (r.outcome === 'ok') {
      const second = Math.floor((r.sentAtMs - faultMs) / 1000);
      latencies.set(second, [...(latencies.get(second) ?? []), r.latencyMs]);
    }
  }
  const runs: ProbeLaneRun[] = [];
  const bucketSeconds = PROBE_BUCKET_MS / 1000;
  for (const index of [...buckets.keys()].sort((a, b) => a - b)) {
    const b = buckets.get(index)!;
    const state = b.errors === 0 ? 'ok' : b.ok === 0 ? 'error' : 'mixed';
    const from = Math.round(index * PROBE_BUCKET_MS) / 1000;
    const to = Math.round((index + 1) * PROBE_BUCKET_MS) / 1000;
    const last = runs.at(-1);
    if (last && last.state === state) {
      last.toSeconds = to;
      last.ok += b.ok;
      last.errors += b.errors;
    } else {
      if (last) last.toSeconds = from;
      runs.push({ fromSeconds: from, toSeconds: to, state, ok: b.ok, errors: b.errors });
    }
  }
  const latencyP50Ms = [...latencies.entries()].sort((a, b) => a[0] - b[0]).map(([second, ms]): [number, number] => [second, quantile(ms.sort((a, b) => a - b), 0.5)!]);
  return { bucketSeconds, runs, latencyP50Ms };
}

/** Per probe name: the sent counts of its `probe-stopped` markers and its gaps (restarts and stalls), in journal order. */
function probeMarkers(observations: readonly Observation[], faultMs: number): Map<string, { stoppedSent: number[]; gaps: ProbeGap[] }> {
  const result = new Map<string, { stoppedSent: number[]; gaps: ProbeGap[]; stoppedAtMs: number | null }>();
  const phases = observations.filter((o): o is PhaseObservation => o.type === 'phase' && typeof o.detail?.probe === 'string').sort((a, b) => a.seq - b.seq);
  for (const o of phases) {
    const name = o.detail!.probe as string;
    const entry = result.get(name) ?? { stoppedSent: [], gaps: [], stoppedAtMs: null };
    result.set(name, entry);
    if (o.phase === 'probe-stopped') {
      entry.stoppedSent.push(typeof o.detail!.sent === 'number' ? o.detail!.sent : 0);
      entry.stoppedAtMs = o.receivedAtMs;
    } else if (o.phase === 'probe-started' && entry.stoppedAtMs !== null) {
      entry.gaps.push({ fromSeconds: secondsSince(faultMs, entry.stoppedAtMs), toSeconds: secondsSince(faultMs, o.receivedAtMs), reason: 'prober restarted' });
      entry.stoppedAtMs = null;
    } else if (o.phase === 'probe-gap' && typeof o.detail!.fromMs === 'number' && typeof o.detail!.toMs === 'number') {
      entry.gaps.push({ fromSeconds: secondsSince(faultMs, o.detail!.fromMs), toSeconds: secondsSince(faultMs, o.detail!.toMs), reason: String(o.detail!.reason ?? 'prober stalled') });
    }
  }
  return result;
}

/** Probe name → `fromMs` of its first `probe-baseline` marker (Unix epoch ms, client clock). */
function baselines(observations: readonly Observation[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const o of observations) {
    if (o.type !== 'phase' || o.phase !== 'probe-baseline') continue;
    const { probe, fromMs } = o.detail ?? {};
    if (typeof probe === 'string' && typeof fromMs === 'number' && !result.has(probe)) result.set(probe, fromMs);
  }
  return result;
}

/** What a `probe-started` marker says of its prober (the last marker of a name wins). */
interface ProbeTarget {
  type: 'http' | 'dns';
  service: string | null;
  /** The Service's namespace, when the marker names one (journals before DNS probes do not). */
  namespace: string | null;
  query: string | null;
  protocol: 'tcp' | 'udp';
}

/** Probe name → what its `probe-started` marker says. */
function probeTargets(observations: readonly Observation[]): Map<string, ProbeTarget> {
  const result = new Map<string, ProbeTarget>();
  for (const o of observations) {
    if (o.type !== 'phase' || o.phase !== 'probe-started') continue;
    const { probe, service, namespace, type, query, protocol } = o.detail ?? {};
    if (typeof probe !== 'string') continue;
    result.set(probe, {
      type: type === 'dns' ? 'dns' : 'http',
      service: typeof service === 'string' ? service : null,
      namespace: typeof namespace === 'string' ? namespace : null,
      query: typeof query === 'string' ? query : null,
      protocol: protocol === 'udp' ? 'udp' : 'tcp',
    });
  }
  return result;
}

/**
 * Summarizes every prober of the journal. `faultMs` is the zero of the times and `restoreMs` the end of the fault
 * (both Unix epoch milliseconds, client clock; `restoreMs` null when the fault lasted to the end). With `backends`
 * (the faults and node timelines) the failed requests are joined with the Service's EndpointSlices; without it
 * `failingBackends` is empty. Pure.
 * @returns one summary per probe name, in order of first appearance.
 */
export function buildProbeSummaries(observations: readonly Observation[], faultMs: number, restoreMs: number | null, backends?: Omit<FailingBackendInput, 'faultMs'>): ProbeSummary[] {
  const targets = probeTargets(observations);
  const warmUpUntil = baselines(observations);
  const markers = probeMarkers(observations, faultMs);
  const failingInput = backends;
  const byName = new Map<string, ProbeObservation[]>();
  for (const o of observations) {
    if (o.type !== 'probe') continue;
    const list = byName.get(o.probe) ?? [];
    list.push(o);
    byName.set(o.probe, list);
  }
  return [...byName.entries()].map(([name, unsorted]) => {
    const all = [...unsorted].sort((a, b) => a.sentAtMs - b.sentAtMs);
    const baselineMs = warmUpUntil.get(name);
    // Requests before the steady baseline are warm-up: the Service was still being programmed, not faulted.
    const records = baselineMs === undefined ? all : all.filter((r) => r.sentAtMs >= baselineMs);
    const warmUp = baselineMs === undefined ? [] : all.filter((r) => r.sentAtMs < baselineMs);
    const failed = records.filter((r) => r.outcome !== 'ok');
    const failedSinceFault = failed.filter((r) => r.sentAtMs >= faultMs);
    const outcomes: Partial<Record<ProbeOutcome, number>> = {};
    for (const r of records) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    const errorSecondBuckets = new Set(failed.map((r) => Math.floor((r.sentAtMs - faultMs) / 1000)));
    const backends = new Map<string, ProbeBackend>();
    for (const r of records) {
      if (r.outcome !== 'ok' || !r.pod) continue;
      const at = secondsSince(faultMs, r.sentAtMs);
      const b = backends.get(r.pod);
      if (b) {
        b.answered += 1;
        b.lastAfterSeconds = at;
      } else backends.set(r.pod, { pod: r.pod, answered: 1, firstAfterSeconds: at, lastAfterSeconds: at });
    }
    const duringEnd = restoreMs ?? Number.POSITIVE_INFINITY;
    // One pair bounds both the first/last error figures and the "while failing" span.
    const failingSpanMs = failedSinceFault.length === 0 ? null : { from: failedSinceFault[0]!.sentAtMs, to: failedSinceFault.at(-1)!.sentAtMs };
    const whileFailing = failingSpanMs === null ? [] : records.filter((r) => r.sentAtMs >= failingSpanMs.from && r.sentAtMs <= failingSpanMs.to);
    const target = targets.get(name);
    const service = target?.service ?? null;
    // The marker's namespace wins: a DNS prober's Service is in kube-system, not the workloads' namespace.
    const namespace = target?.namespace ?? failingInput?.namespace;
    const failingBackends = failingInput ? buildFailingBackends(records, service, observations, { ...failingInput, faultMs, protocol: target?.protocol ?? 'tcp', ...(namespace ? { namespace } : {}) }) : [];
    const marked = markers.get(name);
    // A prober that started more often than it stopped did not stop cleanly: its count is unknown.
    const starts = observations.filter((o) => o.type === 'phase' && o.phase === 'probe-started' && o.detail?.probe === name).length;
    const complete = marked !== undefined && marked.stoppedSent.length > 0 && marked.stoppedSent.length === starts;
    return {
      name,
      type: target?.type ?? 'http',
      service,
      query: target?.query ?? null,
      sent: records.length,
      answered: records.length - failed.length,
      errors: failed.length,
      errorRatio: ratioOf(failed.length, records.length),
      errorRatioWhileFailing: whileFailing.length === 0 ? null : ratioOf(failedSinceFault.length, whileFailing.length),
      outcomes,
      errorSeconds: errorSecondBuckets.size,
      firstErrorAfterSeconds: failingSpanMs === null ? null : secondsSince(faultMs, failingSpanMs.from),
      lastErrorAfterSeconds: failingSpanMs === null ? null : secondsSince(faultMs, failingSpanMs.to),
      latency: {
        before: latencyOf(records.filter((r) => r.sentAtMs < faultMs)),
        during: latencyOf(records.filter((r) => r.sentAtMs >= faultMs && r.sentAtMs < duringEnd)),
        after: latencyOf(records.filter((r) => r.sentAtMs >= duringEnd)),
      },
      backends: [...backends.values()],
      ...(baselineMs === undefined ? {} : { warmUp: { sent: warmUp.length, errors: warmUp.filter((r) => r.outcome !== 'ok').length, untilAfterSeconds: secondsSince(faultMs, baselineMs) } }),
      lostRecords: complete ? marked.stoppedSent.reduce((a, b) => a + b, 0) - all.length : null,
      gaps: marked?.gaps ?? [],
      lane: probeLane(all, faultMs),
      failingBackends,
      blackhole: blackholeOf(records, failingBackends, faultMs),
    };
  });
}
