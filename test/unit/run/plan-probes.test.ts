// `rebootlab plan` for traffic probers: what each sends where, and for a DNS probe the twin Service and the cluster
// DNS replica move, each with its undo.
import { expect } from 'chai';
import { planExperiment } from '../../../lib/run/plan.js';
import { loadExperimentText } from '../../../lib/spec/load.js';

const file = (probes: string[]) => loadExperimentText('e.yaml', ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}',
  'workloads: [{name: web, kind: Deployment, service: {port: 80}}]', 'fault: {type: power-off, duration: 30s}', 'probes:', ...probes].join('\n'));

describe('run/plan: traffic probers', () => {
  it('a dns probe: the replica move with its uncordon undo, then the queries through the twin Service, deleted at the end', () => {
    const plan = planExperiment(file(['  - {name: dns, type: dns, placeReplicaOnTarget: true, ratePerSecond: 10}']).variants[0]!.experiment).join('\n');
    expect(plan).to.contain('cluster DNS: if no Ready replica runs on the (first) fault target, cordon every other node, delete one replica elsewhere, wait for its replacement Ready on the target\n    undo: uncordon those nodes once it is Ready (each cordon registered before acting)');
    expect(plan).to.contain('probe dns: UDP DNS query for kubernetes.default.svc.cluster.local through the node port of Service kube-system/rebootlab-dns (the kube-dns selector) on the first worker that is not a target, 10/s, timeout 1 s\n    undo: delete Service kube-system/rebootlab-dns when the prober stops');
  });

  it('an http probe through its workload\'s Service; no replica move without placeReplicaOnTarget', () => {
    const plan = planExperiment(file(['  - {name: web, service: web}', '  - {name: dns, type: dns, query: web.rebootlab.svc.cluster.local}']).variants[0]!.experiment).join('\n');
    expect(plan).to.contain('probe web: GET / through the node port of Service rebootlab/web on the first worker that is not a target, 20/s, timeout 1 s\n');
    expect(plan).to.contain('probe dns: UDP DNS query for web.rebootlab.svc.cluster.local');
    expect(plan).to.not.contain('cordon');
  });
});
