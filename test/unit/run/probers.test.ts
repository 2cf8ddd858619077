// Which node a traffic prober sends through (lib/run/probers.ts): never a fault target, the runtime half of the check
// whose static half is in lib/spec/semantic-check.ts (a target picked at run time, e.g. worker-with-most-pods).
import { expect } from 'chai';
import { InputError } from '../../../lib/common/errors.js';
import type { ClusterNode } from '../../../lib/cluster/index.js';
import { proberNode } from '../../../lib/run/probers.js';

const NODES: ClusterNode[] = [
  { name: 'rl-control-plane', role: 'control-plane', internalIP: '172.18.0.2', state: 'running' },
  { name: 'rl-worker', role: 'worker', internalIP: '172.18.0.3', state: 'running' },
  { name: 'rl-worker2', role: 'worker', internalIP: '172.18.0.4', state: 'running' },
];
const probe = (node: string | null) => ({ name: 'web', type: 'http' as const, service: 'web', ratePerSecond: 20, timeoutMs: 1000, node });

describe('run/probers: proberNode', () => {
  it('picks the first worker that is not a target, else the control plane', () => {
    expect(proberNode(probe(null), NODES, ['rl-worker']).name).to.equal('rl-worker2');
    expect(proberNode(probe(null), NODES, ['rl-worker', 'rl-worker2']).name).to.equal('rl-control-plane');
  });

  it('refuses a named node that the fault picked at run time, in one line naming the field', () => {
    expect(() => proberNode(probe('rl-worker'), NODES, ['rl-worker'])).to.throw(InputError,
      'probes.web.node: "rl-worker" is a fault target; send through a node that stays up (omit node: to pick the first worker that is not a target)');
  });

  it('refuses a node that does not exist and a run where every node is a target', () => {
    expect(() => proberNode(probe('ghost'), NODES, [])).to.throw(InputError, 'probes.web.node: no node "ghost"; nodes: rl-control-plane, rl-worker, rl-worker2');
    expect(() => proberNode(probe(null), NODES, NODES.map((n) => n.name))).to.throw(InputError, 'probes.web: every node is a fault target');
  });
});
