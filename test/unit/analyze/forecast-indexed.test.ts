// The forecast of an Indexed Job with backoffLimitPerIndex (lib/analyze/forecast/pods.ts jobLoss; mechanism
// job-index-backoff, k8s.io/kubernetes v1.34.4 to v1.37.2), from the pre-fault records of the recorded kind v1.37.2
// run of experiments/catalog/jobs-node-lost.yaml with its `tolerant` Job's spec made Indexed (the settings alone: no
// observed event is read).
import { expect } from 'chai';
import { forecast, judgeForecast, preFaultStateOfJournal, type Forecast } from '../../../lib/analyze/forecast/index.js';
import type { JobSpec } from '../../../lib/spec/types.js';
import { loadFixtureRun } from './fixture-runs.js';
import { timeZeroMarker } from './edited-journals.js';

const run = loadFixtureRun('kind-jobs-node-lost-v1372-recorded');
const zero = timeZeroMarker(run.observations);
const preFault = run.observations.filter((o) => o.seq <= zero.seq && o.type !== 'forecast');

/** The forecast with `tolerant`'s JobSpec changed by `job` (its 3 pods on the deleted node, PodGC's window [40, 88] s). */
function forecastWith(job: Partial<JobSpec>): Forecast {
  const r = run.info.resolved!;
  const workloads = r.workloads.map((w) => (w.name === 'tolerant' ? { ...w, job: { ...w.job!, ...job } } : w));
  return forecast({ experiment: { ...r, workloads }, settings: run.info.settings, kubernetesVersion: 'v1.37.2', preFault: preFaultStateOfJournal(preFault, run.info.workloads)! });
}
const items = (f: Forecast, workload: string, event: string) => f.items.filter((i) => i.workload === workload && i.event === event);

describe('forecast: an Indexed Job with backoffLimitPerIndex on a lost node (jobs-node-lost v1.37.2, tolerant made Indexed)', () => {
  it('NonIndexed (as recorded): 3 failures at once → the Job\'s 40 s backoff: replacements in [79.9, 131] s, mechanism job', () => {
    const created = items(forecastWith({}), 'tolerant', 'replacement-created');
    expect(created).to.have.length(3);
    for (const i of created) expect(i).to.deep.include({ window: { fromSeconds: 79.9, toSeconds: 131 }, mechanism: 'job' });
  });

  it('Indexed, backoffLimitPerIndex 1: each index its own first failure → 10 s from its pod\'s finish: [49.9, 101] s, mechanism job-index-backoff; the recorded 87.5 s replacement holds', () => {
    const f = forecastWith({ completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: 2147483647 });
    const created = items(f, 'tolerant', 'replacement-created');
    expect(created).to.have.length(3);
    for (const i of created) {
      expect(i).to.deep.include({ happens: 'always', window: { fromSeconds: 49.9, toSeconds: 101 }, mechanism: 'job-index-backoff' });
      expect(i.because).to.include('own pod failure backoff 10 s').and.include('not the Job\'s 40 s for 3 failures');
      expect(i.setting).to.include('completionMode Indexed, backoffLimitPerIndex 1');
    }
    expect(f.mechanisms['job-index-backoff']).to.deep.include({ versions: 'v1.34+', kubernetesVersion: 'v1.37.2' });
    expect(f.mechanisms['job-index-backoff'].function).to.include('getRemainingTimePerIndex');
    const judged = judgeForecast(f, run.analysis, 'recomputed');
    for (const i of judged.items.filter((x) => x.workload === 'tolerant' && x.event === 'replacement-created')) expect(i.held).to.equal(true);
    // An Indexed Job without backoffLimitPerIndex keeps the Job's backoff.
    for (const i of items(forecastWith({ completionMode: 'Indexed' }), 'tolerant', 'replacement-created')) expect(i).to.deep.include({ window: { fromSeconds: 79.9, toSeconds: 131 }, mechanism: 'job' });
  });

  it('a FailIndex rule on DisruptionTarget: each index failed, not replaced; with completions 3 every index fails and the Job fails (FailedIndexes): a miss against the recorded run, which replaced them', () => {
    const rules = [{ action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget' }] }];
    const partial = forecastWith({ completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: 2147483647, completions: 4, podFailurePolicy: { rules } });
    for (const i of items(partial, 'tolerant', 'replacement-created')) {
      expect(i).to.deep.include({ happens: 'never', window: null, mechanism: 'job-index-backoff' });
      expect(i.because).to.match(/^not replaced \(index failed\): .*matches a podFailurePolicy rule with action FailIndex$/);
    }
    expect(items(partial, 'tolerant', 'job-failed')[0]!.happens).to.equal('never');
    const all = forecastWith({ completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: 2147483647, podFailurePolicy: { rules } });
    const [failed] = items(all, 'tolerant', 'job-failed');
    expect(failed!.happens).to.equal('always');
    expect(failed!.because).to.include('FailedIndexes');
    const judged = judgeForecast(all, run.analysis, 'recomputed');
    expect(judged.missed.filter((i) => i.workload === 'tolerant').map((i) => i.event)).to.include('replacement-created');
  });

  it('backoffLimitPerIndex 0 and maxFailedIndexes 1: a counted first failure fails its index; 3 failed indexes > 1 fail the Job (MaxFailedIndexesExceeded)', () => {
    const f = forecastWith({ completionMode: 'Indexed', backoffLimitPerIndex: 0, backoffLimit: 2147483647, maxFailedIndexes: 1, podFailurePolicy: null, podReplacementPolicy: null });
    const [failed] = items(f, 'tolerant', 'job-failed');
    expect(failed!.because).to.include('3 failed indexes exceed maxFailedIndexes 1 (MaxFailedIndexesExceeded)');
    for (const i of items(f, 'tolerant', 'replacement-created')) expect(i.happens).to.equal('never');
  });

  it('the recorded run of jobs-indexed-node-lost on kind v1.37.2 (5 Dec 2026, written before it ran): the frozen forecast held 30 of 30; indexed replaced at 56.3 s, plain at 86.3 s', () => {
    const recorded = loadFixtureRun('kind-jobs-indexed-node-lost-v1372-recorded');
    const frozen = recorded.analysis.forecast!;
    expect([frozen.frozen, frozen.kubernetesVersion, frozen.judgedCount, frozen.heldCount, frozen.missed.length]).to.deep.equal(['journal', 'v1.37.2', 30, 30, 0]);
    const created = (workload: string) => frozen.items.filter((i) => i.workload === workload && i.event === 'replacement-created');
    for (const i of created('indexed')) expect(i).to.deep.include({ mechanism: 'job-index-backoff', window: { fromSeconds: 49.9, toSeconds: 101 }, held: true });
    for (const i of created('plain')) expect(i).to.deep.include({ mechanism: 'job', window: { fromSeconds: 79.9, toSeconds: 131 }, held: true });
    expect(created('indexed').map((i) => i.observedSeconds)).to.deep.equal([56.296, 56.31, 56.3]);
    expect(created('plain').map((i) => i.observedSeconds).sort()).to.deep.equal([86.262, 86.323, 86.327]);
    expect(recorded.analysis.predictions.missed).to.deep.equal([]);
    const jobs = Object.fromEntries((recorded.analysis.jobs ?? []).map((j) => [j.name, j.backoffSeconds]));
    expect(jobs).to.deep.equal({ plain: 39.708, indexed: 9.653 });
  });
});
