// Tests for lib/analyze/outcome.ts decideOutcome: one row per outcome rule.
import { expect } from 'chai';
import { decideOutcome } from '../../../lib/analyze/outcome.js';
import type { PodFacts } from '../../../lib/analyze/pod-timeline.js';
import type { PodOutcome, Replacement } from '../../../lib/analyze/types.js';

const base = {
  evictedAfterSeconds: null,
  deletedAfterSeconds: null,
  terminatedAfterSeconds: null,
  ownerKind: 'ReplicaSet',
  phaseAtEnd: 'Running',
  readyAfterFault: true,
  restartCountDelta: 0,
  readyAtEnd: true,
} as unknown as PodFacts;
const replacement = (o: Partial<Replacement>): Replacement =>
  ({ name: 'r', uid: 'u', createdAfterSeconds: 1, scheduledAfterSeconds: 1, readyAfterSeconds: null, node: 'w2', podIP: null, containerIDs: [], pendingReason: null, ...o });

const ROWS: { name: string; facts: Partial<PodFacts>; replacement?: Replacement; nodeReady?: boolean; outcome: PodOutcome }[] = [
  { name: 'evicted, replacement Ready', facts: { evictedAfterSeconds: 52 }, replacement: replacement({ readyAfterSeconds: 55 }), outcome: 'evicted-replaced' },
  { name: 'evicted, replacement Pending (volume node affinity)', facts: { evictedAfterSeconds: 52 }, replacement: replacement({ pendingReason: 'Unschedulable: volume node affinity conflict' }), outcome: 'pending-unschedulable' },
  { name: 'StatefulSet pod Terminating, no replacement', facts: { evictedAfterSeconds: 52, ownerKind: 'StatefulSet' }, nodeReady: false, outcome: 'stuck-terminating' },
  { name: 'standalone pod Terminating on a down node', facts: { evictedAfterSeconds: 52, ownerKind: null }, nodeReady: false, outcome: 'evicted-lost' },
  { name: 'controller pod deleted, nothing replaced it', facts: { evictedAfterSeconds: 52, deletedAfterSeconds: 60 }, outcome: 'evicted-lost' },
  { name: 'same pod, restartCount +1', facts: { restartCountDelta: 1 }, outcome: 'restarted-in-place' },
  // Case C17: a restarted kubelet rejects a pod whose node lost its required label (phase Failed, reason NodeAffinity).
  { name: 'rejected at admission (Failed), replacement Ready', facts: { terminatedAfterSeconds: 20, phaseAtEnd: 'Failed', readyAtEnd: false }, replacement: replacement({ readyAfterSeconds: 23 }), outcome: 'terminated-replaced' },
  { name: 'Failed, no replacement (a standalone Pod)', facts: { terminatedAfterSeconds: 20, ownerKind: null, phaseAtEnd: 'Failed', readyAtEnd: false }, outcome: 'terminated-lost' },
  // A graceful node shutdown: the kubelet ends the pod (Succeeded, DisruptionTarget TerminationByKubelet), the taint
  // eviction controller deletes the ended object 30 s later: terminated, not evicted.
  { name: 'ended by the kubelet (TerminationByKubelet), object deleted later, replacement Ready', facts: { terminatedAfterSeconds: 1.6, evictedAfterSeconds: 31.2, deletedAfterSeconds: 31.2, terminatedByKubelet: true }, replacement: replacement({ readyAfterSeconds: 4.4 }), outcome: 'terminated-replaced' },
  { name: 'DaemonSet pod ended by the kubelet (TerminationByKubelet), deleted by its controller', facts: { terminatedAfterSeconds: 2.9, evictedAfterSeconds: 2.9, deletedAfterSeconds: 2.9, ownerKind: 'DaemonSet', terminatedByKubelet: true }, outcome: 'terminated-lost' },
  { name: 'DaemonSet pod on a node still down', facts: { readyAtEnd: false }, nodeReady: false, outcome: 'not-evicted' },
  { name: 'pod Ready on a Ready node', facts: {}, outcome: 'unaffected' },
  { name: 'pod never scheduled', facts: { phaseAtEnd: 'Pending', readyAfterFault: false, readyAtEnd: false }, outcome: 'pending-unschedulable' },
];

describe('analyze/outcome decideOutcome', () => {
  for (const row of ROWS) {
    it(`${row.name} → ${row.outcome}`, () => {
      expect(decideOutcome({ ...base, ...row.facts } as PodFacts, row.replacement ?? null, row.nodeReady ?? true)).to.equal(row.outcome);
    });
  }
});
