// `--set path=value`: applied before validation; bad values name their flag.
import { expect } from 'chai';
import { loadExperiment } from '../../../lib/spec/load.js';
import { parseFieldPath } from '../../../lib/spec/overrides.js';
import { inputIssuesOfAsync } from '../../helpers/input-issues.js';

const MINIMAL = 'test/fixtures/experiments/valid-minimal.yaml';

function issuesOf(set: string[]): Promise<string[]> {
  return inputIssuesOfAsync(() => loadExperiment(MINIMAL, { set }));
}

describe('spec/overrides', () => {
  it('parses dotted and indexed paths', () => {
    expect(parseFieldPath('workloads[0].replicas')).to.deep.equal(['workloads', 0, 'replicas']);
    expect(parseFieldPath('workloads.0.replicas')).to.deep.equal(['workloads', 0, 'replicas']);
  });

  it('applies values parsed as YAML scalars, later flags winning', async () => {
    const { experiment } = await loadExperiment(MINIMAL, {
      set: ['cluster.workers=3', 'fault.type=freeze', 'fault.duration=30s', 'cluster.controllerManager.nodeMonitorGracePeriod=20s', 'cluster.workers=4'],
    });
    expect(experiment.cluster.workers).to.equal(4);
    expect(experiment.fault.type).to.equal('freeze');
    expect(experiment.fault.durationMs).to.equal(30_000);
    expect(experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
  });

  it('names the flag when its value is invalid', async () => {
    expect(await issuesOf(['cluster.workers=0'])).to.deep.equal([
      `${MINIMAL} (--set cluster.workers=0): cluster.workers: must be ≥ 1, got 0`,
    ]);
  });

  it('rejects an unknown path with a suggestion', async () => {
    expect(await issuesOf(['cluster.worker=3'])).to.deep.equal([
      `${MINIMAL} (--set cluster.worker=3): cluster.worker: unknown field; did you mean "workers"?`,
    ]);
  });

  it('rejects a flag without "="', async () => {
    expect(await issuesOf(['cluster.workers'])).to.deep.equal([
      `${MINIMAL} (--set cluster.workers): expected --set path=value, e.g. --set fault.duration=60s`,
    ]);
  });

  it('replaces a matrix axis when the path is one (a value runs only it, a list runs those), instead of losing it to every variant', async () => {
    const file = 'experiments/grace-matrix.yaml';
    const one = await loadExperiment(file, { set: ['repeat=1', 'cluster.controllerManager.nodeMonitorGracePeriod=30s'] });
    expect(one.variants.map((v) => v.experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs)).to.deep.equal([30_000]);
    const two = await loadExperiment(file, { set: ['repeat=1', 'cluster.controllerManager.nodeMonitorGracePeriod=[20s, 30s]'] });
    expect(two.variants.map((v) => v.experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs)).to.deep.equal([20_000, 30_000]);
    const lines = await inputIssuesOfAsync(() => loadExperiment(file, { set: ['cluster.controllerManager.nodeMonitorGracePeriod=fast'] }));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain('--set cluster.controllerManager.nodeMonitorGracePeriod=fast');
  });

  it('matrix.<axis>: everything after "matrix." is one axis key (a dotted settings path), never nested mappings', async () => {
    const file = 'experiments/grace-matrix.yaml';
    // Replaces the file's axis of the same path.
    const replaced = await loadExperiment(file, { set: ['repeat=1', 'matrix.cluster.controllerManager.nodeMonitorGracePeriod=[30s, 50s]'] });
    expect(replaced.variants.map((v) => v.experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs)).to.deep.equal([30_000, 50_000]);
    // Adds an axis to a file without a matrix.
    const added = await loadExperiment(MINIMAL, { set: ['matrix.cluster.kubernetesVersion=[v1.36.3, v1.37.2]'] });
    expect(added.variants.map((v) => v.experiment.cluster.kubernetesVersion)).to.deep.equal(['v1.36.3', 'v1.37.2']);
  });

  it('matrix.<axis> with an unknown settings path or a single value: one line naming the flag and the axis', async () => {
    expect(await issuesOf(['matrix.cluster.nosuch=[1, 2]'])).to.deep.equal([
      `${MINIMAL} (--set matrix.cluster.nosuch=[1, 2]): matrix["cluster.nosuch"]: unknown settings path; did you mean "cluster.nodes"?`,
    ]);
    expect(await issuesOf(['matrix.cluster.workers=3'])).to.deep.equal([
      `${MINIMAL} (--set matrix.cluster.workers=3): matrix["cluster.workers"]: expected a list, got 3`,
    ]);
  });
});
