// matrix × repeat expansion into named variants, each validated and resolved.
import { expect } from 'chai';
import { InputError, formatInputIssue } from '../../../lib/common/errors.js';
import { loadExperiment, loadExperimentText } from '../../../lib/spec/load.js';
import { matrixCombinations, variantName } from '../../../lib/spec/matrix.js';

describe('spec/matrix', () => {
  it('gives every combination, first axis slowest', () => {
    expect(matrixCombinations({ a: [1, 2], b: ['x', 'y'] })).to.deep.equal([
      { a: 1, b: 'x' }, { a: 1, b: 'y' }, { a: 2, b: 'x' }, { a: 2, b: 'y' },
    ]);
    expect(matrixCombinations({})).to.deep.equal([{}]);
  });

  it('varies an axis that needs its own cluster (Kubernetes version) slowest, so each cluster serves the other axes first', () => {
    const combinations = matrixCombinations({ 'apiServer.x': [30, 300], 'cluster.kubernetesVersion': ['v1.35.4', 'v1.36.3'] });
    expect(combinations.map((c) => c['cluster.kubernetesVersion'])).to.deep.equal(['v1.35.4', 'v1.35.4', 'v1.36.3', 'v1.36.3']);
    expect(Object.keys(combinations[0]!)).to.deep.equal(['apiServer.x', 'cluster.kubernetesVersion']);
  });

  it('names a variant after the last path segment and value', () => {
    expect(variantName('sweep', { 'cluster.controllerManager.nodeMonitorGracePeriod': '20s', 'fault.type': 'power-off' }))
      .to.equal('sweep--nodeMonitorGracePeriod-20s--type-power-off');
  });

  it('expands 3 × 2 values × repeat 3 into 18 resolved variants', async () => {
    const loaded = await loadExperiment('test/fixtures/experiments/valid-matrix.yaml');
    expect(loaded.variants).to.have.length(18);
    const first = loaded.variants[0]!;
    expect(first.variantName).to.equal('grace-sweep--nodeMonitorGracePeriod-20s--defaultUnreachableTolerationSeconds-30');
    expect(first.repeatIndex).to.equal(0);
    expect(first.experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
    expect(first.experiment.cluster.settings.apiServer.defaultUnreachableTolerationSeconds).to.equal(30);
    const last = loaded.variants[17]!;
    expect(last.repeatIndex).to.equal(2);
    expect(last.matrixValues).to.deep.equal({
      'cluster.controllerManager.nodeMonitorGracePeriod': '40s',
      'cluster.apiServer.defaultUnreachableTolerationSeconds': 60,
    });
    expect(loaded.experiment.cluster.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(40_000);
  });

  it('checks semantic rules per combination, pointing at the matrix value', () => {
    const text = [
      'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: m}', 'fault: {type: power-off, duration: 1m}',
      'matrix:', '  fault.target: [rebootlab-worker, rebootlab-control-plane]',
    ].join('\n');
    try {
      loadExperimentText('m.yaml', text);
      expect.fail('should throw');
    } catch (error) {
      expect(error).to.be.instanceOf(InputError);
      expect((error as InputError).issues.map(formatInputIssue)).to.deep.equal([
        'm.yaml:6:36: fault.target: "rebootlab-control-plane" is a control-plane node; set fault.allowControlPlane: true to target it',
      ]);
    }
  });

  it('refuses a variant name too long for a run directory (leading zeros), naming the value; 240 characters still load', () => {
    const head = ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: m}', 'fault: {type: power-off, duration: 1m}', 'matrix:'];
    const long = `${'0'.repeat(250)}40s`;
    try {
      loadExperimentText('m.yaml', [...head, `  fault.duration: [20s, "${long}"]`].join('\n'));
      expect.fail('should throw');
    } catch (error) {
      expect(error).to.be.instanceOf(InputError);
      expect((error as InputError).issues.map(formatInputIssue)).to.deep.equal([
        'm.yaml:6:25: matrix["fault.duration"][1]: gives a variant name of 265 characters; at most 240 fit a run directory name (255 bytes with -r<repeat>); write the value shorter (no leading zeros) or use fewer axes',
      ]);
    }
    // m--duration-<value>: 1 + 11 + value = 240 at most.
    const fits = `${'0'.repeat(228 - 3)}40s`;
    const loaded = loadExperimentText('m.yaml', [...head, `  fault.duration: [20s, "${fits}"]`].join('\n'));
    expect(loaded.variants.map((v) => v.variantName.length)).to.deep.equal([15, 240]);
  });
});
