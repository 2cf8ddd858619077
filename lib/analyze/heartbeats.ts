// Node heartbeats as the node lifecycle controller counts them: Lease renewals and the kubelet's node status posts.
import { secondsSince, serverSecondsSince } from './clock.js';
import { groupBy, type RunContext } from './context.js';
import { nodeLeases } from './node-timeline.js';
import { condition, renewTime } from './objects.js';
import { OBSERVATION_LATENCY_SECONDS, round3 } from './predict-common.js';

/**
 * One heartbeat of a node as the node lifecycle controller sees it: a Lease renewal or a status post. It happened
 * (reached the API server) somewhere in [fromSeconds, toSeconds], seconds since time zero; a Lease renewal has
 * fromSeconds === toSeconds (its renewTime, a MicroTime).
 */
export interface Heartbeat {
  source: 'lease' | 'status';
  fromSeconds: number;
  toSeconds: number;
}

/**
 * The latest instant a status post stamped `lastHeartbeatTimeSeconds` can have been made (the kubelet's clock when it
 * computed the status), seconds on the same axis: the stamp + 1 s. lastHeartbeatTime is a metav1.Time, serialized
 * RFC 3339 at whole seconds and truncated (k8s.io/apimachinery pkg/apis/meta/v1/time.go MarshalJSON, ToUnstructured),
 * whereas a Lease's renewTime is a MicroTime. The write's own latency comes on top where a bound needs it. One place
 * for the causal model (statusPosts) and the forecast (forecast/heartbeat.ts lastHeartbeatRange).
 */
export function statusPostLatestSeconds(lastHeartbeatTimeSeconds: number): number {
  return lastHeartbeatTimeSeconds + 1;
}

/**
 * Per node, the status posts the journal shows: every Node record whose Ready condition carries a `lastHeartbeatTime`
 * different from the previous record's (the kubelet sets it to its own clock when it computes the status, then
 * patches it; the API keeps whole seconds, truncated). The post reached the API server in [lastHeartbeatTime,
 * min(receipt, lastHeartbeatTime + 1 s + OBSERVATION_LATENCY_SECONDS)]: the truncated second, plus the PATCH taking
 * at most the observation latency. Seconds since time zero, in journal order; DELETED records and the Nodes'
 * re-registrations (another UID) start a new series. The node lifecycle controller writes the Ready condition too
 * (Unknown) but leaves lastHeartbeatTime as it was, so its writes are not posts.
 */
export function statusPosts(ctx: RunContext): Map<string, Heartbeat[]> {
  const byNode = new Map<string, Heartbeat[]>();
  for (const [name, records] of groupBy(ctx.nodes, (r) => r.name)) {
    const posts: Heartbeat[] = [];
    let previous: string | null = null;
    let uid: string | null = null;
    for (const rec of records) {
      if (rec.verb === 'DELETED') {
        previous = null;
        continue;
      }
      if (rec.uid !== uid) previous = null;
      uid = rec.uid;
      const heartbeat = condition(rec.object, 'Ready')?.lastHeartbeatTime ?? null;
      if (heartbeat === null || heartbeat === previous) continue;
      previous = heartbeat;
      const from = serverSecondsSince(ctx.faultMs, heartbeat);
      if (from === null) continue;
      const received = secondsSince(ctx.faultMs, rec.receivedAtMs);
      posts.push({ source: 'status', fromSeconds: from, toSeconds: round3(Math.max(from, Math.min(received, statusPostLatestSeconds(from) + OBSERVATION_LATENCY_SECONDS))) });
    }
    byNode.set(name, posts);
  }
  return byNode;
}

/** Per node, its journaled Lease renewTimes (server MicroTime), seconds since time zero, ascending and distinct. */
export function leaseRenewals(ctx: RunContext): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  for (const rec of nodeLeases(ctx)) {
    const at = serverSecondsSince(ctx.faultMs, renewTime(rec.object));
    if (at === null) continue;
    const list = byNode.get(rec.name) ?? [];
    list.push(at);
    byNode.set(rec.name, list);
  }
  for (const [name, list] of byNode) byNode.set(name, [...new Set(list)].sort((a, b) => a - b));
  return byNode;
}

/** One node's Lease renewals and status posts as heartbeats, sorted by `fromSeconds` (Lease first on a tie). */
export function mergeHeartbeats(renewals: readonly number[], posts: readonly Heartbeat[]): Heartbeat[] {
  const beats: Heartbeat[] = [...renewals.map((r): Heartbeat => ({ source: 'lease', fromSeconds: r, toSeconds: r })), ...posts];
  return beats.sort((a, b) => a.fromSeconds - b.fromSeconds || (a.source === b.source ? 0 : a.source === 'lease' ? -1 : 1));
}

/** "Lease renewal (renewTime)" or "status post (Ready lastHeartbeatTime)": what a heartbeat was, for a cause line. */
export function heartbeatText(beat: Heartbeat): string {
  return beat.source === 'lease' ? 'Lease renewal (server renewTime)' : 'node status post (Ready lastHeartbeatTime, whole seconds)';
}
