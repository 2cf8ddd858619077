// `rebootlab plan` for a workload of pods already running: it says they are read, never created or deleted.
import { expect } from 'chai';
import { planExperiment } from '../../../lib/run/plan.js';
import { loadExperimentText } from '../../../lib/spec/load.js';

describe('run/plan: pods already running', () => {
  it('lists the read of the selected pods with no undo, and deploys nothing for them', () => {
    const loaded = loadExperimentText('e.yaml', ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}',
      'cluster: {provider: existing, kubeconfig: ./kc, context: prod}', 'fault: {type: kubelet-stop, duration: 20s, backend: agent}',
      'workloads:', '  - {name: shop, namespace: shop, selector: "app=shop,tier=web"}'].join('\n'));
    const plan = planExperiment(loaded.variants[0]!.experiment).join('\n');
    expect(plan).to.contain('read pods of namespace shop with labels app=shop,tier=web and their controllers as workload shop (never created, changed or deleted)\n');
    expect(plan).to.not.match(/deploy \S+ shop/);
  });
});
