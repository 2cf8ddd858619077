// Pods already running, made a workload by namespace and label selector (issue 14): the analyzer joins them by
// namespace and labels instead of rebootlab's own label, and pairs replacements within one controller. Journals are
// recorded kind runs whose pods' rebootlab.dev/workload label is moved to `app` (as a user's pods would carry it).
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { evaluateExpectations } from '../../../lib/analyze/expect.js';
import { RecoveryTracker, recoveryOfAnalysis } from '../../../lib/analyze/recovery.js';
import type { WorkloadRef } from '../../../lib/analyze/types.js';
import type { Observation } from '../../../lib/observe/types.js';
import { parseExpectation, type Expectation } from '../../../lib/spec/expectation.js';
import { copy } from './edited-journals.js';
import { loadFixtureRun } from './fixture-runs.js';

const WORKLOAD_LABEL = 'rebootlab.dev/workload';

/** The journal with every pod's rebootlab.dev/workload=<name> label renamed to app=<name>, or to app=`as` when given. */
function relabelled(observations: readonly Observation[], as?: string): Observation[] {
  return observations.map((o) => {
    if (o.type !== 'object' || o.kind !== 'Pod') return o;
    const labels = (o.object.metadata as { labels?: Record<string, string> } | undefined)?.labels;
    if (!labels || labels[WORKLOAD_LABEL] === undefined) return o;
    const edited = copy(o);
    const own = (edited.object.metadata as { labels: Record<string, string> }).labels;
    own.app = as ?? own[WORKLOAD_LABEL]!;
    delete own[WORKLOAD_LABEL];
    return edited;
  });
}

/** The workloads as selected pods: namespace rebootlab, label app=<name>; kind and desired pods as run.json has them. */
function selecting(workloads: readonly WorkloadRef[]): WorkloadRef[] {
  return workloads.map((w) => ({ ...w, selector: { namespace: 'rebootlab', matchLabels: { app: w.name } } }));
}

const parsed = (text: string): Expectation => {
  const r = parseExpectation(text);
  if (!r.ok) throw new Error(r.message);
  return r.expectation;
};

describe('analyze: pods already running, chosen by namespace and selector', () => {
  for (const scenario of ['kind-service-outage-recorded', 'kind-outage-tuned-recorded', 'kind-sts-delete-node-recorded', 'kind-node-delete-podgc-recorded', 'kind-reboot-quick-recorded']) {
    it(`${scenario}: the same pods, outcomes, replacements, workload timelines and predictions as through rebootlab's label`, () => {
      const run = loadFixtureRun(scenario);
      const selected = analyze(relabelled(run.observations), { settings: run.info.settings, workloads: selecting(run.info.workloads), kubernetesVersion: run.info.cluster.kubernetesVersion ?? undefined });
      expect(selected.pods.length, 'pods analyzed').to.be.greaterThan(0);
      expect(selected.pods).to.deep.equal(run.analysis.pods);
      expect(selected.workloads).to.deep.equal(run.analysis.workloads);
      expect(selected.predictions).to.deep.equal(run.analysis.predictions);
      expect(selected.warnings).to.deep.equal(run.analysis.warnings);
    });
  }

  it('expectations on a selected workload read it as they read a built-in one', () => {
    const run = loadFixtureRun('kind-service-outage-recorded');
    const selected = analyze(relabelled(run.observations), { settings: run.info.settings, workloads: selecting(run.info.workloads) });
    const texts = ['pods[workload=web].outcome == evicted-replaced', 'workloads.web.recovered == true', 'workloads.api.minimumReady == 1', 'pods[workload=api].outcome == unaffected'];
    const viaSelector = evaluateExpectations(selected, texts.map(parsed));
    expect(viaSelector.map((r) => r.passed)).to.deep.equal([true, true, true, false]);
    expect(viaSelector).to.deep.equal(evaluateExpectations(run.analysis, texts.map(parsed)));
  });

  it('the recovery tracker follows selected pods record by record as the analysis does', () => {
    const run = loadFixtureRun('kind-outage-tuned-recorded');
    const journal = relabelled(run.observations);
    const workloads = selecting(run.info.workloads);
    const tracker = new RecoveryTracker(workloads);
    for (const record of journal) tracker.add(record);
    const state = tracker.state();
    expect(state).to.deep.equal(recoveryOfAnalysis(analyze(journal, { settings: run.info.settings, workloads })));
    expect(state).to.deep.equal(recoveryOfAnalysis(run.analysis));
  });

  it('one selector over the pods of two Deployments: each evicted pod is replaced by a pod of its own controller', () => {
    const run = loadFixtureRun('kind-service-outage-recorded');
    // web and api (two ReplicaSets) both labelled app=shop; one workload selects them all.
    const shop: WorkloadRef = { name: 'shop', kind: 'Deployment', desiredReplicas: 4, selector: { namespace: 'rebootlab', matchLabels: { app: 'shop' } } };
    const analysis = analyze(relabelled(run.observations, 'shop'), { settings: run.info.settings, workloads: [shop] });
    const evicted = analysis.pods.filter((p) => p.outcome === 'evicted-replaced');
    expect(evicted.map((p) => p.name).sort()).to.deep.equal(['api-7d54775566-kbzp2', 'web-ff48466b5-2vbnq', 'web-ff48466b5-6rwb4']);
    const controller = (pod: string) => pod.replace(/-[a-z0-9]{5}$/, '');
    for (const pod of evicted) expect(controller(pod.replacement!.name), `replacement of ${pod.name}`).to.equal(controller(pod.name));
    expect(analysis.pods.every((p) => p.namespace !== 'rebootlab' || p.workload === 'shop')).to.equal(true);
    const [timeline] = analysis.workloads;
    expect(timeline).to.deep.include({ name: 'shop', desired: 4, readyAtFault: 4, readyAtEnd: 4, recovered: true });
  });

  it('a pod in another namespace, or missing one label of the selector, is not the workload\'s', () => {
    const run = loadFixtureRun('kind-service-outage-recorded');
    const journal = relabelled(run.observations);
    const elsewhere = analyze(journal, { settings: run.info.settings, workloads: [{ name: 'web', kind: 'Deployment', desiredReplicas: 2, selector: { namespace: 'shop', matchLabels: { app: 'web' } } }] });
    const narrower = analyze(journal, { settings: run.info.settings, workloads: [{ name: 'web', kind: 'Deployment', desiredReplicas: 2, selector: { namespace: 'rebootlab', matchLabels: { app: 'web', tier: 'front' } } }] });
    for (const analysis of [elsewhere, narrower]) {
      expect(analysis.pods.filter((p) => p.workload !== null)).to.deep.equal([]);
      expect(analysis.warnings).to.include('workload web has no pods in the journal');
    }
  });
});
