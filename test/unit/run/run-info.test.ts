// Tests for lib/run/run-info.ts workloadRefs: what run.json tells the analyzer about each workload.
import { expect } from 'chai';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { workloadRefs } from '../../../lib/run/run-info.js';

describe('run/run-info workloadRefs', () => {
  it('names the Service the analyzer follows: with service:, and the headless one of every StatefulSet', () => {
    const doc = [
      'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}', 'fault: {type: reboot}',
      'workloads:',
      '  - {name: web, kind: Deployment, replicas: 2, service: {port: 80}}',
      '  - {name: plain, kind: Deployment}',
      '  - {name: db, kind: StatefulSet}',
      '  - {name: agent, kind: DaemonSet}',
    ].join('\n');
    expect(workloadRefs(loadExperimentText('e.yaml', doc).experiment.workloads)).to.deep.equal([
      { name: 'web', kind: 'Deployment', desiredReplicas: 2, serviceName: 'web' },
      { name: 'plain', kind: 'Deployment', desiredReplicas: 1 },
      { name: 'db', kind: 'StatefulSet', desiredReplicas: 1, serviceName: 'db' },
      { name: 'agent', kind: 'DaemonSet' },
    ]);
  });
});
