// Builds each node's timeline: lease renewals, Ready transitions, taints, addresses, deletion.
import type { ObjectObservation } from '../observe/types.js';
import { secondsSince, serverSecondsSince } from './clock.js';
import { groupBy, type RunContext } from './context.js';
import { condition, internalIP, isReady, label, renewTime, taints, type Condition } from './objects.js';
import type { NodeTimeline, TaintChange } from './types.js';
import { zoneKeyOf } from './zones/zone-state.js';

/** Taint keys the node lifecycle controller and admins use for node failures (https://kubernetes.io/docs/reference/labels-annotations-taints/). */
export const NODE_FAILURE_TAINT_KEYS: readonly string[] = [
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/out-of-service',
];

/** Taint keys the node lifecycle controller itself adds for a NotReady node (not the admin's out-of-service taint). */
export const LIFECYCLE_TAINT_KEYS: readonly string[] = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'];

const taintId = (t: { key: string; effect: string }): string => `${t.key}:${t.effect}`;

function taintChanges(ctx: RunContext, before: ObjectObservation | undefined, after: ObjectObservation[]): TaintChange[] {
  const changes: TaintChange[] = [];
  let previous = new Set((before ? taints(before.object) : []).map(taintId));
  for (const rec of after) {
    if (rec.verb === 'DELETED') continue;
    const current = taints(rec.object);
    const ids = new Set(current.map(taintId));
    for (const t of current) {
      if (previous.has(taintId(t))) continue;
      const received = secondsSince(ctx.faultMs, rec.receivedAtMs);
      changes.push({
        key: t.key,
        effect: t.effect,
        ...(t.value !== undefined ? { value: t.value } : {}),
        addedAfterSeconds: serverSecondsSince(ctx.faultMs, t.timeAdded) ?? received,
        addedReceivedAfterSeconds: received,
        ...(t.timeAdded ? { timeAdded: t.timeAdded } : {}),
        removedAfterSeconds: null,
      });
    }
    for (const id of previous) {
      if (ids.has(id)) continue;
      const removedAt = secondsSince(ctx.faultMs, rec.receivedAtMs);
      const open = [...changes].reverse().find((c) => taintId(c) === id && c.removedAfterSeconds === null);
      if (open) open.removedAfterSeconds = removedAt;
      else {
        const [key, effect] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
        changes.push({ key, effect, addedAfterSeconds: null, addedReceivedAfterSeconds: null, removedAfterSeconds: removedAt });
      }
    }
    previous = ids;
  }
  return changes;
}

/** Lease records of kubelets (namespace kube-node-lease, or unnamespaced in old synthetic journals). */
export function nodeLeases(ctx: RunContext): ObjectObservation[] {
  return ctx.leases.filter((r) => r.namespace === undefined || r.namespace === 'kube-node-lease');
}

/** Latest server renewTime (MicroTime) at or before `limitMs` (Unix epoch milliseconds) among `leases`, seconds since time zero. */
export function lastRenewBefore(ctx: RunContext, leases: ObjectObservation[], limitMs: number): NodeTimeline['lastLeaseRenewBeforeDetection'] {
  let best: { renewTime: string; ms: number } | null = null;
  for (const rec of leases) {
    const t = renewTime(rec.object);
    const ms = t ? Date.parse(t) : NaN;
    if (t && !Number.isNaN(ms) && ms <= limitMs && (!best || ms > best.ms)) best = { renewTime: t, ms };
  }
  return best ? { renewTime: best.renewTime, afterSeconds: secondsSince(ctx.faultMs, best.ms) } : null;
}

export { ZONE_LABEL } from './zones/zone-state.js';
/** Label that keeps a node out of its zone's disruption state (pkg/controller/nodelifecycle, `labelNodeDisruptionExclusion`). */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/**
 * When the Node became Ready again, seconds since time zero: the Ready condition's lastTransitionTime (whole
 * seconds), unless that time precedes the not-Ready transition it ends. Such a status carries the transition time
 * of an older Ready period (a stale status written back: kwok v0.7.0's uncancelled node-heartbeat job,
 * pkg/kwok/controllers/node_controller.go playStageWorker), and the API showed Ready again only when it was
 * written: its receipt is the honest time.
 */
function readyAgainSeconds(ctx: RunContext, notReadyCond: Condition | null, readyCond: Condition, record: ObjectObservation): number | null {
  const readyMs = readyCond.lastTransitionTime ? Date.parse(readyCond.lastTransitionTime) : NaN;
  const notReadyMs = notReadyCond?.lastTransitionTime ? Date.parse(notReadyCond.lastTransitionTime) : NaN;
  if (!Number.isNaN(readyMs) && !Number.isNaN(notReadyMs) && readyMs < notReadyMs) return secondsSince(ctx.faultMs, record.receivedAtMs);
  return serverSecondsSince(ctx.faultMs, readyCond.lastTransitionTime);
}

function buildOne(ctx: RunContext, name: string, records: ObjectObservation[], leases: ObjectObservation[]): NodeTimeline {
  const before = records.filter((r) => r.seq < ctx.faultSeq && r.verb !== 'DELETED').at(-1);
  // A Node that registers again after deletion has a new UID: it is a new Node, not the old one's outage (case C13).
  const originalUid = before?.uid ?? records.find((r) => r.seq > ctx.faultSeq)?.uid;
  const after = records.filter((r) => r.seq > ctx.faultSeq);
  const live = after.filter((r) => r.verb !== 'DELETED' && r.uid === originalUid);
  let notReady: ObjectObservation | undefined;
  let readyAgain: ObjectObservation | undefined;
  for (const rec of live) {
    const ready = isReady(rec.object);
    if (!notReady && !ready) notReady = rec;
    else if (notReady && !readyAgain && ready) readyAgain = rec;
  }
  const notReadyCond = notReady ? condition(notReady.object, 'Ready') : null;
  // A kubelet that reported Ready=False itself (a graceful shutdown) and then went silent: the node lifecycle
  // controller marks it Unknown once the grace period passes without heartbeats (tryUpdateNodeHealth), False or not.
  const unknownLater = notReadyCond?.status === 'False'
    ? live.find((r) => r.seq > notReady!.seq && (readyAgain === undefined || r.seq < readyAgain.seq) && condition(r.object, 'Ready')?.status === 'Unknown')
    : undefined;
  const unknownCond = unknownLater ? condition(unknownLater.object, 'Ready') : null;
  const readyAgainCond = readyAgain ? condition(readyAgain.object, 'Ready') : null;
  const deleted = after.find((r) => r.verb === 'DELETED');
  const recreated = deleted ? after.find((r) => r.seq > deleted.seq && r.verb !== 'DELETED' && r.uid !== deleted.uid) : undefined;
  const last = records.at(-1);
  const lastLive = records.filter((r) => r.verb !== 'DELETED').at(-1);
  const changes = taintChanges(ctx, before, after.filter((r) => r.uid === originalUid));
  const firstAdded = (effect: string, keys: readonly string[]): number | null => {
    const c = changes.find((x) => x.effect === effect && keys.includes(x.key) && x.addedAfterSeconds !== null);
    return c ? c.addedAfterSeconds : null;
  };
  const detectionMs = notReadyCond?.lastTransitionTime ? Date.parse(notReadyCond.lastTransitionTime) : (ctx.restoreMs ?? ctx.endMs);
  const ipBefore = before ? internalIP(before.object) : null;
  const ipAfter = lastLive ? internalIP(lastLive.object) : null;
  const target = ctx.targets.includes(name);
  return {
    name,
    faultTarget: target,
    faultInjectedAfterSeconds: ctx.targetOffsetSeconds.get(name) ?? null,
    lastLeaseRenewBeforeDetection: lastRenewBefore(ctx, leases, detectionMs),
    zone: before ? zoneKeyOf(((before.object.metadata as { labels?: Record<string, string> } | undefined)?.labels) ?? {}) : '',
    countsForZoneState: !before || label(before.object, EXCLUDE_DISRUPTION_LABEL) === null,
    notReadyStatus: notReadyCond ? (notReadyCond.status === 'False' ? 'False' : 'Unknown') : null,
    notReadyReason: notReadyCond?.reason ?? null,
    notReadyAfterSeconds: notReadyCond ? serverSecondsSince(ctx.faultMs, notReadyCond.lastTransitionTime) : null,
    notReadyReceivedAfterSeconds: notReady ? secondsSince(ctx.faultMs, notReady.receivedAtMs) : null,
    ...(unknownLater && unknownCond ? {
      unknownAfterSeconds: serverSecondsSince(ctx.faultMs, unknownCond.lastTransitionTime) ?? secondsSince(ctx.faultMs, unknownLater.receivedAtMs),
      unknownReceivedAfterSeconds: secondsSince(ctx.faultMs, unknownLater.receivedAtMs),
    } : {}),
    readyAgainAfterSeconds: readyAgain && readyAgainCond ? readyAgainSeconds(ctx, notReadyCond, readyAgainCond, readyAgain) : null,
    readyAgainReceivedAfterSeconds: readyAgain ? secondsSince(ctx.faultMs, readyAgain.receivedAtMs) : null,
    taints: changes,
    noExecuteTaintAfterSeconds: firstAdded('NoExecute', LIFECYCLE_TAINT_KEYS),
    outOfServiceTaintAfterSeconds: firstAdded('NoExecute', ['node.kubernetes.io/out-of-service']),
    noScheduleTaintAfterSeconds: firstAdded('NoSchedule', LIFECYCLE_TAINT_KEYS),
    internalIPBefore: ipBefore,
    internalIPAfter: ipAfter,
    internalIPChanged: ipBefore !== null && ipAfter !== null && ipBefore !== ipAfter,
    deletedAfterSeconds: deleted ? secondsSince(ctx.faultMs, deleted.receivedAtMs) : null,
    recreatedAfterSeconds: recreated ? secondsSince(ctx.faultMs, recreated.receivedAtMs) : null,
    readyAtEnd: last !== undefined && last.verb !== 'DELETED' && isReady(last.object),
  };
}

/**
 * One timeline per Node name seen in the journal (a deleted and recreated Node keeps one timeline),
 * sorted by name. Lease records are matched to nodes by name (kubelet names its Lease after the node).
 */
export function buildNodeTimelines(ctx: RunContext): NodeTimeline[] {
  const nodes = groupBy(ctx.nodes, (r) => r.name);
  const leases = groupBy(nodeLeases(ctx), (r) => r.name);
  return [...nodes.keys()].sort().map((name) => buildOne(ctx, name, nodes.get(name) ?? [], leases.get(name) ?? []));
}
