// The Job controller's rules as the analyzer replays them (lib/analyze/jobs.ts, lib/analyze/predict-jobs.ts), on the
// recorded kind run of experiments/catalog/jobs-node-lost.yaml and on journals edited from it.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { jobPodFailureBackoffSeconds, jobPodFinishedSeconds, podFailureAction } from '../../../lib/analyze/jobs.js';
import type { ObjectObservation, Observation } from '../../../lib/observe/types.js';
import { copy, mergeJournal, timeZeroMarker } from './edited-journals.js';
import { loadFixtureRun, predictionItem } from './fixture-runs.js';

const recorded = loadFixtureRun('kind-jobs-node-lost-recorded');

describe('analyze/jobs: the Job controller (pkg/controller/job, v1.34.4)', () => {
  it('pod failure backoff: 10 s doubling per failure since the last success, capped at 600 s (backoff_utils.go getRemainingTimeForFailuresCount)', () => {
    expect([0, 1, 2, 3, 4, 6, 7, 20].map(jobPodFailureBackoffSeconds)).to.deep.equal([0, 10, 20, 40, 80, 320, 600, 600]);
  });

  it('finish time as getFinishedTime reads it: terminated containers, else Ready=False, else deletionTimestamp − grace, else creationTimestamp', () => {
    const zeroMs = Date.parse('2026-12-03T00:00:00Z');
    const pod = (status: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({ metadata: { creationTimestamp: '2026-12-02T23:59:00Z', ...meta }, status });
    expect(jobPodFinishedSeconds(pod({}), zeroMs)).to.equal(-60);
    expect(jobPodFinishedSeconds(pod({}, { deletionTimestamp: '2026-12-03T00:00:40Z', deletionGracePeriodSeconds: 30 }), zeroMs)).to.equal(10);
    expect(jobPodFinishedSeconds(pod({ conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-12-03T00:00:20Z' }] }, { deletionTimestamp: '2026-12-03T00:00:40Z' }), zeroMs)).to.equal(20);
    expect(jobPodFinishedSeconds(pod({ containerStatuses: [{ state: { terminated: { finishedAt: '2026-12-03T00:00:05Z' } } }], conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-12-03T00:00:20Z' }] }), zeroMs)).to.equal(5);
  });

  it('podFailurePolicy rules: the first matching one; onPodConditions status True by default; exit code 0 never matches', () => {
    const rules = [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }, { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }];
    const disrupted = { status: { conditions: [{ type: 'DisruptionTarget', status: 'True' }], containerStatuses: [{ name: 'w', state: { terminated: { exitCode: 0 } } }] } };
    expect(podFailureAction(rules, disrupted)).to.equal('Ignore');
    expect(podFailureAction(rules, { status: { containerStatuses: [{ name: 'w', state: { terminated: { exitCode: 42 } } }] } })).to.equal('FailJob');
    expect(podFailureAction(rules, { status: {} })).to.equal(null);
    expect(podFailureAction(null, disrupted)).to.equal(null);
  });

  describe('recorded: two Jobs of 3 pods on a Node deleted at time zero (kind, 3 Dec 2026)', () => {
    const a = recorded.analysis;
    const job = (name: string) => a.jobs!.find((j) => j.name === name)!;

    it('without podFailurePolicy the 3 PodGC failures exceed backoffLimit 2: the Job failed (BackoffLimitExceeded), nothing replaced, as predicted', () => {
      expect(job('plain')).to.deep.include({ failed: 3, active: 0, podReplacementPolicy: 'TerminatingOrFailed', backoffSeconds: null });
      expect(job('plain').conditions.map((c) => [c.type, c.reason])).to.deep.include.members([['Failed', 'BackoffLimitExceeded']]);
      const items = a.predictions.items.filter((i) => i.event === 'replacement-created' && i.pod!.includes('/plain-'));
      expect(items).to.have.length(3);
      for (const i of items) expect(i).to.deep.include({ expected: false, held: true });
    });

    it('with podFailurePolicy (Ignore DisruptionTarget) the failures are not counted (failed 0) but still back off: 3 at once → 40 s from the deletionTimestamp PodGC set (42.432 s): replacements at 82.46–82.48 s, held; backoffSeconds 40.071', () => {
      expect(job('tolerant')).to.deep.include({ failed: 0, active: 3, podReplacementPolicy: 'Failed', podFailurePolicy: true, backoffSeconds: 40.071 });
      const items = a.predictions.items.filter((i) => i.event === 'replacement-created' && i.pod!.includes('/tolerant-'));
      expect(items).to.have.length(3);
      for (const i of items) {
        expect(i).to.deep.include({ expected: true, held: true });
        expect(i.observedSeconds!).to.be.within(82.4, 82.5);
        expect(i.because).to.include('3 failures since the last success → 40 s');
      }
      expect(a.predictions.missed).to.deep.equal([]);
    });

    it('the old rule (a replacement within 3 s of the pod stopping counting) would have missed each by about 37 s: the issue\'s "missed by about 40 s"', () => {
      const tolerant = a.pods.filter((p) => p.name.startsWith('tolerant-'));
      for (const p of tolerant) expect(p.replacement!.createdAfterSeconds - p.stoppedCountingAfterSeconds!).to.be.above(36);
    });

    it('podReplacementPolicy Failed: a pod that stays terminating is not replaced (journal edited: tolerant pods keep their deletionTimestamp, never Failed, never removed)', () => {
      const zero = timeZeroMarker(recorded.observations);
      const tolerantUids = new Set(recorded.analysis.pods.filter((p) => p.name.startsWith('tolerant-')).map((p) => p.uid));
      const edited: Observation[] = recorded.observations.flatMap((o): Observation[] => {
        if (o.type !== 'object' || o.kind !== 'Pod' || !tolerantUids.has(o.uid) || o.seq < zero.seq) return [o];
        if (o.verb === 'DELETED') return [];
        const c = copy(o) as ObjectObservation;
        (c.object.status as Record<string, unknown>).phase = 'Running';
        return [c];
      }).filter((o) => !(o.type === 'object' && o.kind === 'Pod' && o.name.startsWith('tolerant-') && !tolerantUids.has(o.uid)));
      const b = analyze(mergeJournal(edited), { settings: recorded.info.settings, workloads: recorded.info.workloads });
      const item = predictionItem(b, `replacement-created@${b.pods.find((p) => p.name.startsWith('tolerant-'))!.name}`)!;
      expect(item).to.deep.include({ expected: false, held: true });
      expect(item.because).to.include('replaces a pod only once it is Failed or gone');
    });
  });

  it('a Succeeded pod is not unavailable (journal edited: one plain pod Succeeded before time zero stays counted)', () => {
    const zero = timeZeroMarker(recorded.observations);
    const pod = recorded.analysis.pods.find((p) => p.name.startsWith('plain-'))!;
    const edited = recorded.observations.map((o) => {
      if (o.type !== 'object' || o.uid !== pod.uid) return o;
      const c = copy(o);
      if (c.verb === 'DELETED') return c;
      (c.object.status as Record<string, unknown>).phase = 'Succeeded';
      (c.object.status as Record<string, unknown>).conditions = [{ type: 'Ready', status: 'False', reason: 'PodCompleted' }];
      delete (c.object.metadata as Record<string, unknown>).deletionTimestamp;
      return c;
    }).filter((o) => !(o.type === 'object' && o.uid === pod.uid && o.verb === 'DELETED'));
    const b = analyze(edited, { settings: recorded.info.settings, workloads: recorded.info.workloads });
    const plain = b.workloads.find((w) => w.name === 'plain')!;
    expect(plain.readyAtFault).to.equal(3);
    expect(plain.readyAtEnd, 'the Succeeded pod still counts; the two others were lost').to.equal(1);
    expect(zero.phase).to.equal('fault-injecting');
  });
});
