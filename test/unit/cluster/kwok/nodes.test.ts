import { expect } from 'chai';
import { kwokNodeNames, renderNodes } from '../../../../lib/cluster/kwok/nodes.js';
import { kwokSpec } from './fixtures.js';

describe('kwok nodes', () => {
  it('names nodes as kind does', () => {
    expect(kwokNodeNames('rl', 3)).to.deep.equal({ controlPlane: 'rl-control-plane', workers: ['rl-worker', 'rl-worker2', 'rl-worker3'] });
  });

  it('assigns zones round-robin to workers, none to the tainted control plane', () => {
    const nodes = renderNodes(kwokSpec());
    expect(nodes).to.have.length(6);
    const zone = (i: number) => nodes[i]!.metadata!.labels!['topology.kubernetes.io/zone'];
    expect([1, 2, 3, 4, 5].map(zone)).to.deep.equal(['zone-a', 'zone-b', 'zone-a', 'zone-b', 'zone-a']);
    expect(zone(0)).to.equal(undefined);
    expect(nodes[0]!.spec!.taints).to.deep.equal([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  });

  it('marks every node for kwok and gives each its own pod CIDR', () => {
    const nodes = renderNodes(kwokSpec({ workers: 300 }));
    expect(nodes.every((n) => n.metadata!.labels!['rebootlab.dev/kwok-heartbeat'] === 'on')).to.equal(true);
    expect(nodes.every((n) => n.metadata!.annotations!['kwok.x-k8s.io/node'] === 'fake')).to.equal(true);
    expect(new Set(nodes.map((n) => n.spec!.podCIDR)).size).to.equal(301);
  });

  it('reports the cluster\'s Kubernetes version as every simulated kubelet\'s version', () => {
    const nodes = renderNodes(kwokSpec({ kubernetesVersion: 'v1.36.3' }));
    expect(new Set(nodes.map((n) => n.status!.nodeInfo!.kubeletVersion))).to.deep.equal(new Set(['v1.36.3']));
  });
});
