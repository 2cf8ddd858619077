// Indexed Jobs with backoffLimitPerIndex as the analyzer replays them (lib/analyze/jobs.ts, predict-jobs.ts
// predictIndexReplacements; mechanism job-index-backoff, read in k8s.io/kubernetes v1.34.4, v1.35.4, v1.36.3 and
// v1.37.2), on journals edited from the recorded kind run of experiments/catalog/jobs-node-lost.yaml: its Jobs made
// Indexed, their pods given the completion index and failure-count annotations the Job controller writes.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { jobCompletionIndex, jobIndexBackoffSeconds, jobIndexFailureCounts } from '../../../lib/analyze/jobs.js';
import type { RunAnalysis } from '../../../lib/analyze/types.js';
import type { ObjectObservation, Observation } from '../../../lib/observe/types.js';
import { copy, mergeJournal, shiftTimestamps, timeZeroMarker } from './edited-journals.js';
import { loadFixtureRun } from './fixture-runs.js';

const recorded = loadFixtureRun('kind-jobs-node-lost-recorded');
type Obj = Record<string, unknown>;

/**
 * The recorded journal with Job `job` made Indexed (`spec` merged into its Job records; a null value removes the
 * field) and its pods present at time zero annotated as the controller does with backoffLimitPerIndex: index 0, 1, 2
 * in name order and `failureCount` as job-index-failure-count. Replacement pods (created after time zero) moved by
 * `shiftReplacementsMs`.
 */
function indexed(job: string, spec: Obj, failureCount: string, shiftReplacementsMs = 0): Observation[] {
  const zero = timeZeroMarker(recorded.observations);
  const old = recorded.analysis.pods.filter((p) => p.name.startsWith(`${job}-`)).sort((a, b) => a.name.localeCompare(b.name));
  const indexOf = new Map(old.map((p, i) => [p.uid, i]));
  const replacements = new Set(recorded.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Pod' && o.name.startsWith(`${job}-`) && !indexOf.has(o.uid) && o.seq > zero.seq).map((o) => o.uid));
  const edited = recorded.observations.map((o): Observation => {
    if (o.type !== 'object') return o;
    if (o.kind === 'Job' && o.name === job) {
      const c = copy(o);
      const s = (c.object.spec ?? {}) as Obj;
      for (const [k, v] of Object.entries(spec)) if (v === null) delete s[k]; else s[k] = v;
      c.object.spec = s;
      return c;
    }
    if (o.kind !== 'Pod') return o;
    if (indexOf.has(o.uid)) {
      const c = copy(o);
      const md = c.object.metadata as Obj;
      md.annotations = { 'batch.kubernetes.io/job-completion-index': String(indexOf.get(o.uid)), 'batch.kubernetes.io/job-index-failure-count': failureCount };
      return c;
    }
    if (replacements.has(o.uid) && shiftReplacementsMs !== 0) {
      const c = shiftTimestamps(copy(o), shiftReplacementsMs);
      return { ...c, receivedAtMs: o.receivedAtMs + shiftReplacementsMs };
    }
    return o;
  });
  return mergeJournal(edited);
}

const analyzed = (observations: Observation[]): RunAnalysis => analyze(observations, { settings: recorded.info.settings, workloads: recorded.info.workloads });
const replacementItems = (a: RunAnalysis, job: string) => a.predictions.items.filter((i) => i.event === 'replacement-created' && i.pod!.split('/')[1]!.startsWith(`${job}-`));

describe('analyze/jobs: Indexed Jobs with backoffLimitPerIndex (pkg/controller/job, v1.34.4 to v1.37.2)', () => {
  it('per-index backoff: the failed pod\'s job-index-failure-count + job-index-ignored-failure-count + 1 failures, 10 s doubling, max 600 s (getRemainingTimePerIndex)', () => {
    expect([0, 1, 2, 5, 6, 30].map(jobIndexBackoffSeconds)).to.deep.equal([10, 20, 40, 320, 600, 600]);
    expect(() => jobIndexBackoffSeconds(-1)).to.throw(RangeError);
    const pod = { metadata: { labels: { 'batch.kubernetes.io/job-completion-index': '2' }, annotations: { 'batch.kubernetes.io/job-index-failure-count': '1', 'batch.kubernetes.io/job-index-ignored-failure-count': '2' } } };
    expect(jobCompletionIndex(pod)).to.equal(2);
    expect(jobIndexFailureCounts(pod)).to.deep.equal({ counted: 1, absolute: 3 });
    expect(jobIndexFailureCounts({ metadata: { annotations: { 'batch.kubernetes.io/job-index-failure-count': 'x' } } })).to.deep.equal({ counted: 0, absolute: 0 });
    expect(jobCompletionIndex({ metadata: {} })).to.equal(null);
  });

  describe('edited: `tolerant` (Ignore on DisruptionTarget, 3 pods PodGC marked Failed at 42.4 s) made Indexed, backoffLimitPerIndex 1 (backoffLimit left to its default)', () => {
    const spec = { completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: null };

    it('each index is predicted by 10 s after its own pod\'s finish time (read −3.6…43.4 s: by 54.4–55.4 s), not the Job\'s 40 s for 3 failures: the recorded replacements at 82.5 s (a NonIndexed Job\'s backoff) miss it', () => {
      const a = analyzed(indexed('tolerant', spec, '0'));
      const items = replacementItems(a, 'tolerant');
      expect(items).to.have.length(3);
      for (const i of items) {
        expect(i).to.deep.include({ expected: true, held: false, mechanism: 'job-index-backoff' });
        expect(i.window!.fromSeconds).to.be.within(42.2, 42.4);
        expect(i.window!.toSeconds).to.be.within(54.4, 55.5);
        expect(i.because).to.include('per-index pod failure backoff').and.include('→ 10 s');
      }
      expect(a.predictions.mechanisms!['job-index-backoff']!.versions).to.equal('v1.34+');
    });

    it('the same with the replacements created 30 s earlier (about 52.5 s): held', () => {
      const a = analyzed(indexed('tolerant', spec, '0', -30_000));
      const items = replacementItems(a, 'tolerant');
      expect(items).to.have.length(3);
      for (const i of items) {
        expect(i).to.deep.include({ expected: true, held: true });
        expect(i.observedSeconds!).to.be.within(52, 53);
      }
    });

    it('an index whose pod already carried 2 failures (job-index-failure-count 2) waits 10 s × 2² = 40 s, as the NonIndexed Job did: the window ends at 84.4–85.4 s again, held', () => {
      const a = analyzed(indexed('tolerant', { ...spec, backoffLimitPerIndex: 5 }, '2'));
      for (const i of replacementItems(a, 'tolerant')) {
        expect(i.window!.fromSeconds).to.be.within(42.2, 42.4);
        expect(i.window!.toSeconds).to.be.within(84.4, 85.5);
        expect(i).to.deep.include({ held: true });
        expect(i.because).to.include('2 earlier failures').and.include('→ 40 s');
      }
    });

    it('a FailIndex rule on DisruptionTarget fails each index: "not replaced (index failed)", and the recorded replacements are then a miss', () => {
      const a = analyzed(indexed('tolerant', { ...spec, podFailurePolicy: { rules: [{ action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }, '0'));
      const items = replacementItems(a, 'tolerant');
      expect(items).to.have.length(3);
      for (const i of items) {
        expect(i).to.deep.include({ expected: false, held: false });
        expect(i.because).to.match(/^Job .* fails instead of replacing: every index of 3 has failed \(FailedIndexes\)$/);
      }
      const partial = analyzed(indexed('tolerant', { ...spec, completions: 4, podFailurePolicy: { rules: [{ action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }, '0'));
      for (const i of replacementItems(partial, 'tolerant')) expect(i.because).to.match(/^not replaced \(index failed\): .* index [0-2] failed, its failure matched a podFailurePolicy rule with action FailIndex/);
    });
  });

  describe('edited: `plain` (no podFailurePolicy, 3 failures, Job failed by backoffLimit 2, nothing replaced) made Indexed', () => {
    it('backoffLimitPerIndex 0 with completions 4: each counted first failure reaches the limit, its index fails and is not replaced: held (nothing was)', () => {
      const a = analyzed(indexed('plain', { completionMode: 'Indexed', backoffLimitPerIndex: 0, backoffLimit: null, completions: 4 }, '0'));
      const items = replacementItems(a, 'plain');
      expect(items).to.have.length(3);
      for (const i of items) {
        expect(i).to.deep.include({ expected: false, held: true, mechanism: 'job-index-backoff' });
        expect(i.because).to.include('not replaced (index failed)').and.include('≥ backoffLimitPerIndex 0');
      }
    });

    it('maxFailedIndexes 1: the 3 failed indexes fail the Job (MaxFailedIndexesExceeded)', () => {
      const a = analyzed(indexed('plain', { completionMode: 'Indexed', backoffLimitPerIndex: 0, backoffLimit: null, completions: 4, maxFailedIndexes: 1 }, '0'));
      for (const i of replacementItems(a, 'plain')) expect(i.because).to.include('3 failed indexes exceed maxFailedIndexes 1 (MaxFailedIndexesExceeded)');
    });

    it('Indexed without backoffLimitPerIndex keeps the Job-wide rules: backoffLimit 2 exceeded, mechanism job', () => {
      const a = analyzed(indexed('plain', { completionMode: 'Indexed' }, '0'));
      for (const i of replacementItems(a, 'plain')) {
        expect(i).to.deep.include({ expected: false, held: true, mechanism: 'job' });
        expect(i.because).to.include('BackoffLimitExceeded');
      }
    });
  });
});
