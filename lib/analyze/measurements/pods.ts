// Measurement: each pod's timeline and outcome, joined with its Service endpoint instants, and the `pods[...]` expectations.
import type { PodField, PodSelector } from '../../spec/expectation.js';
import { buildEndpointTimelines, NO_SERVICE } from '../endpoint-timeline.js';
import { kubeletRejections } from '../events.js';
import { part, type Measurement, type MeasurementTable, type MeasuredView } from '../measurement.js';
import { buildPodTimelines } from '../outcome.js';
import { buildPodFacts } from '../pod-timeline.js';
import type { PodTimeline } from '../types.js';

const POD_VALUES: Record<PodField, (p: PodTimeline) => string | number | boolean | null> = {
  outcome: (p) => p.outcome,
  restartCountBefore: (p) => p.restartCountBefore,
  restartCountAfter: (p) => p.restartCountAfter,
  restartCountDelta: (p) => p.restartCountDelta,
  notReadyAfterSeconds: (p) => p.notReadyAfterSeconds,
  readyAgainAfterSeconds: (p) => p.readyAgainAfterSeconds,
  evictedAfterSeconds: (p) => p.evictedAfterSeconds,
  deletedAfterSeconds: (p) => p.deletedAfterSeconds,
  terminatedAfterSeconds: (p) => p.terminatedAfterSeconds ?? null,
  terminatedPhase: (p) => p.terminatedPhase ?? null,
  terminatedReason: (p) => p.terminatedReason ?? null,
  replacementCreatedAfterSeconds: (p) => p.replacement?.createdAfterSeconds ?? null,
  replacementScheduledAfterSeconds: (p) => p.replacement?.scheduledAfterSeconds ?? null,
  replacementReadyAfterSeconds: (p) => p.replacement?.readyAfterSeconds ?? null,
  unreachableTolerationSeconds: (p) => p.tolerations.unreachableTolerationSeconds,
  notReadyTolerationSeconds: (p) => p.tolerations.notReadyTolerationSeconds,
  nodeChanged: (p) => (p.replacement?.node ?? p.nodeAfter) !== p.nodeBefore,
  podIPChanged: (p) => (p.replacement?.podIP ?? p.podIPAfter) !== p.podIPBefore,
  uidChanged: (p) => p.replacement !== null,
  containersChanged: (p) => {
    const before = p.containerIDsBefore ?? [];
    const after = p.replacement?.containerIDs ?? p.containerIDsAfter ?? [];
    return before.length === 0 || after.length === 0 ? null : after.some((id) => !before.includes(id));
  },
  readyAtEnd: (p) => p.readyAtEnd || p.replacement?.readyAfterSeconds != null,
  phaseWhenNotReady: (p) => p.phaseWhenNotReady,
  evictionApiOutcome: (p) => p.evictionApi?.outcome ?? null,
  evictionApiRefusals: (p) => p.evictionApi?.refusals ?? null,
  endpointReadyAtFault: (p) => p.endpointReadyAtFault ?? null,
  endpointNotReadyAfterSeconds: (p) => p.endpointNotReadyAfterSeconds ?? null,
  endpointTerminatingAfterSeconds: (p) => p.endpointTerminatingAfterSeconds ?? null,
  endpointRemovedAfterSeconds: (p) => p.endpointRemovedAfterSeconds ?? null,
  endpointReadyAgainAfterSeconds: (p) => p.endpointReadyAgainAfterSeconds ?? null,
};

function selectPods(pods: readonly PodTimeline[], selector: PodSelector, targets: readonly string[]): PodTimeline[] {
  return pods.filter(
    (p) =>
      (selector.target === undefined || (p.nodeBefore !== null && targets.includes(p.nodeBefore)) === (selector.target === 'true')) &&
      (selector.workload === undefined || p.workload === selector.workload) &&
      (selector.name === undefined || p.name === selector.name) &&
      (selector.namespace === undefined || p.namespace === selector.namespace) &&
      (selector.node === undefined || p.nodeBefore === selector.node),
  );
}

/** A pod UID as `kubectl` users compare them: its first 8 characters. */
const shortUid = (uid: string): string => uid.slice(0, 8);
/** Container IDs without the runtime scheme, 12 characters each (as `crictl ps` prints them); `—` when none. */
const shortIds = (ids: readonly string[] = []): string => (ids.length === 0 ? '—' : ids.map((id) => id.replace(/^[a-z]+:\/\//, '').slice(0, 12)).join(' '));

/**
 * UID and container IDs after the fault: the replacement's when one was made, the pod's own while it still exists,
 * `—` for a pod deleted without a replacement.
 */
function identityAfter(p: PodTimeline): { uid: string; containers: string } {
  if (p.replacement) return { uid: shortUid(p.replacement.uid), containers: shortIds(p.replacement.containerIDs) };
  if (p.deletedAfterSeconds !== null) return { uid: '—', containers: '—' };
  return { uid: shortUid(p.uid), containers: shortIds(p.containerIDsAfter) };
}

/** One row per pod that existed at the fault. */
function podsTable(v: MeasuredView): MeasurementTable {
  return {
    name: 'pods',
    title: 'Pods',
    note: 'UID and containers after: the replacement\'s when the pod was replaced; the same UID with new container IDs is the same pod object restarted by its kubelet.',
    headers: ['Pod', 'Workload', 'Outcome', 'Node before → after', 'UID before → after', 'IP before → after', 'Containers before → after', 'Restarts', 'NotReady', 'Evicted', 'Deleted', 'Unreachable toleration', 'Replacement', 'Replacement Ready'],
    rows: v.pods.map((p) => [
      `${p.namespace}/${p.name}`, p.workload, p.outcome, `${p.nodeBefore ?? '—'} → ${p.replacement?.node ?? p.nodeAfter ?? '—'}`,
      `${shortUid(p.uid)} → ${identityAfter(p).uid}`,
      `${p.podIPBefore ?? '—'} → ${p.replacement?.podIP ?? p.podIPAfter ?? '—'}`, `${shortIds(p.containerIDsBefore)} → ${identityAfter(p).containers}`,
      `${p.restartCountBefore} → ${p.restartCountAfter}`,
      { seconds: p.notReadyAfterSeconds }, { seconds: p.evictedAfterSeconds }, { seconds: p.deletedAfterSeconds },
      p.tolerations.unreachableTolerationSeconds === null ? 'forever' : `${p.tolerations.unreachableTolerationSeconds} s`,
      p.replacement ? `${p.replacement.name} on ${p.replacement.node ?? '(unscheduled)'}${p.replacement.pendingReason ? ` (${p.replacement.pendingReason})` : ''}` : '—',
      { seconds: p.replacement?.readyAfterSeconds ?? null },
    ]),
  };
}

/** Pod timelines from Pod records, outcomes, replacements and EndpointSlice instants; answers `pods[<selector>].<field>`. */
export const podsMeasurement: Measurement = {
  name: 'pods',
  describes: 'per pod at the fault: NotReady, eviction, deletion, replacement created/scheduled/Ready, restarts, IP, outcome; its endpoint instants (Pod and EndpointSlice records)',
  needs: ['nodes', 'evictions'],
  provides: ['pods', 'endpointsByWorkload'],
  measure: ({ ctx, observations, options }, earlier) => {
    const nodeReady = new Map(part(earlier, 'nodes').map((n) => [n.name, n.readyAtEnd]));
    const timelines = buildPodTimelines(ctx, buildPodFacts(ctx), nodeReady);
    const endpoints = buildEndpointTimelines(ctx, observations, options.workloads, timelines);
    // The Eviction API's last answer per pod (the evictions measurement runs before this one; absent when none asked).
    const evicted = new Map((earlier.evictions ?? []).map((e) => [e.uid, e]));
    // A pod its kubelet ended without a status reason: the kubelet's rejection Event names why (NodeAffinity, ...).
    const rejections = kubeletRejections(observations, ctx.faultMs);
    const reasonOf = (p: PodTimeline) => (p.terminatedAfterSeconds == null ? null : (p.terminatedReason ?? rejections.get(p.uid) ?? null));
    return {
      pods: timelines.map((p) => ({
        ...p, terminatedReason: reasonOf(p), ...(evicted.has(p.uid) ? { evictionApi: evicted.get(p.uid)! } : {}), ...(endpoints.pods.get(p.uid) ?? NO_SERVICE),
      })),
      endpointsByWorkload: endpoints.workloads,
    };
  },
  expectations: {
    scope: 'pods',
    values(analysis, s) {
      if (s.scope !== 'pods') return 'not a pods subject';
      const pods = selectPods(analysis.pods, s.selector, analysis.targets);
      return pods.length > 0 ? pods.map((p) => ({ label: p.name, value: POD_VALUES[s.field](p) })) : 'no pod matches the selector';
    },
  },
  tables: (v) => [podsTable(v)],
};
