// Tests for lib/run/podgc-requeue.ts: when a run must wait before deleting a Node that was re-created moments ago.
// The case: sts-two-nodes-deleted with repeat=3 (5 Dec 2026, v1.37.2): repeats 1 and 2 started 81 s and 41 s after
// the previous repeat's PodGC deletion, and PodGC deleted their pods 3.7 to 4.4 s after the Node deletion instead of
// after its 40 s quarantine (the entry its previous deletion pass had queued).
import { expect } from 'chai';
import type { TargetNode } from '../../../lib/faults/index.js';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { deletionOffsetsMs, PODGC_REQUEUE_CLEAR_MS, PODGC_REQUEUE_WAIT_PHASE, podgcRequeueClearAtMs, waitForPodgcRequeueClear, type NodeDeletionHistory } from '../../../lib/run/podgc-requeue.js';

const experimentOf = (...lines: string[]) => loadExperimentText('e.yaml', [
  'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}',
  'workloads: [{name: web, kind: Deployment}]', ...lines,
].join('\n')).experiment;

describe('run/podgc-requeue', () => {
  it('clears 62 s after the Node was created: quarantineTime 40 s + gcCheckPeriod 20 s + 2 s slack', () => {
    expect(PODGC_REQUEUE_CLEAR_MS).to.equal(62_000);
  });

  it('deletionOffsetsMs: a node-delete fault deletes its targets at time zero', () => {
    const offsets = deletionOffsetsMs(experimentOf('fault: {type: node-delete, count: 2}'), ['w1', 'w2']);
    expect([...offsets]).to.deep.equal([['w1', 0], ['w2', 0]]);
  });

  it('deletionOffsetsMs: a delete-node-object step deletes the targets (or its named node) at its time', () => {
    const onTargets = experimentOf('fault: {type: power-off, duration: 5m}', 'steps: [{after: 60s, action: delete-node-object}]');
    expect([...deletionOffsetsMs(onTargets, ['w1'])]).to.deep.equal([['w1', 60_000]]);
    const named = experimentOf('fault: {type: node-delete}', 'steps: [{after: 30s, action: delete-node-object, node: rebootlab-worker2}]');
    expect([...deletionOffsetsMs(named, ['w1'])]).to.deep.equal([['w1', 0], ['rebootlab-worker2', 30_000]]);
  });

  it('deletionOffsetsMs: nothing when no Node is deleted (no wait for a reboot)', () => {
    expect(deletionOffsetsMs(experimentOf('fault: {type: reboot}'), ['w1']).size).to.equal(0);
  });

  it('podgcRequeueClearAtMs: the youngest Node decides, less the time its deletion comes after time zero', () => {
    const t = 1_796_490_000_000;
    // The repeat-1 case: Nodes re-created at t, deleted at time zero: the fault waits until t + 62 s.
    expect(podgcRequeueClearAtMs(new Map([['w1', t - 30_000], ['w2', t]]), new Map([['w1', 0], ['w2', 0]]))).to.equal(t + 62_000);
    // Deleted by a step 60 s after time zero: the fault itself may start at t + 2 s.
    expect(podgcRequeueClearAtMs(new Map([['w1', t]]), new Map([['w1', 60_000]]))).to.equal(t + 2_000);
    expect(podgcRequeueClearAtMs(new Map(), new Map())).to.equal(null);
  });

  describe('waitForPodgcRequeueClear', () => {
    // A Node registered 10 s ago and deleted by the fault: 52 s to wait, unless this run made the cluster and never
    // deleted it. The signal is aborted beforehand, so a wait is journaled and said but ends at once.
    const nodeDelete = experimentOf('fault: {type: node-delete}');
    async function marksOf(history: NodeDeletionHistory | undefined) {
      const marks: { phase: string; detail: unknown }[] = [];
      const said: string[] = [];
      const nodes: TargetNode[] = [{ name: 'w1', role: 'worker', labels: {}, createdAtMs: Date.now() - 10_000 }];
      const aborted = new AbortController();
      aborted.abort();
      const toDelete = await waitForPodgcRequeueClear(nodes, nodeDelete, ['w1'], {
        journal: { mark: (phase: string, extra?: { detail?: unknown }) => marks.push({ phase, detail: extra?.detail }) } as never,
        say: (line) => said.push(line), signal: aborted.signal, history,
      });
      return { marks, said, toDelete };
    }

    it('no wait for a Node of a cluster this run created and never deleted (no quarantine entry can exist)', async () => {
      const { marks, said, toDelete } = await marksOf({ createdByThisRun: true, deleted: new Set() });
      expect(marks).to.deep.equal([]);
      expect(said).to.deep.equal([]);
      expect(toDelete, 'the names the caller records as deleted before the fault').to.deep.equal(['w1']);
    });

    it('deletes nothing and waits for nothing when the experiment deletes no Node', async () => {
      const nodes: TargetNode[] = [{ name: 'w1', role: 'worker', labels: {}, createdAtMs: Date.now() - 10_000 }];
      const marks: string[] = [];
      const toDelete = await waitForPodgcRequeueClear(nodes, experimentOf('fault: {type: reboot}'), ['w1'], {
        journal: { mark: (phase: string) => marks.push(phase) } as never, say: () => {}, signal: new AbortController().signal,
      });
      expect(toDelete).to.deep.equal([]);
      expect(marks).to.deep.equal([]);
    });

    it('waits for a Node this run deleted before (the previous repeat\'s), and on an attached cluster', async () => {
      for (const history of [{ createdByThisRun: true, deleted: new Set(['w1']) }, { createdByThisRun: false, deleted: new Set<string>() }, undefined]) {
        const { marks, said, toDelete } = await marksOf(history);
        expect(toDelete).to.deep.equal(['w1']);
        expect(marks.map((m) => m.phase)).to.deep.equal([PODGC_REQUEUE_WAIT_PHASE]);
        const waitMs = (marks[0]!.detail as { waitMs: number }).waitMs;
        expect(waitMs).to.be.within(51_000, 52_000);
        expect(said[0]).to.match(/^waiting 5[12]\.\d s before deleting w1: created less than 62 s ago/);
      }
    });
  });
});
