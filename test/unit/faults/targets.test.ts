import { expect } from 'chai';
import { checkStepNodes, resolveTargets, type TargetNode, type TargetPod } from '../../../lib/faults/targets.js';
import type { FaultSpec } from '../../../lib/spec/types.js';

const NODES: TargetNode[] = [
  { name: 'kind-control-plane', role: 'control-plane', labels: { 'node-role.kubernetes.io/control-plane': '' } },
  { name: 'kind-worker', role: 'worker', labels: { 'topology.kubernetes.io/zone': 'a' } },
  { name: 'kind-worker2', role: 'worker', labels: { 'topology.kubernetes.io/zone': 'b' } },
  { name: 'kind-worker3', role: 'worker', labels: { 'topology.kubernetes.io/zone': 'a' } },
];
const pods = (...nodes: string[]): TargetPod[] => nodes.map((nodeName) => ({ nodeName, terminating: false }));
const fault = (target: FaultSpec['target'], count = 1, allowControlPlane = false) => ({ target, count, allowControlPlane });

describe('resolveTargets', () => {
  it('picks the worker with most pods', () => {
    const p = pods('kind-worker', 'kind-worker2', 'kind-worker2', 'kind-control-plane', 'kind-control-plane', 'kind-control-plane');
    expect(resolveTargets(fault({ kind: 'worker-with-most-pods' }), NODES, p)).to.deep.equal(['kind-worker2']);
  });

  it('orders by pod count then name for count > 1, ignoring terminating pods', () => {
    const p = [...pods('kind-worker3', 'kind-worker3', 'kind-worker'), { nodeName: 'kind-worker2', terminating: true }];
    expect(resolveTargets(fault({ kind: 'worker-with-most-pods' }, 3), NODES, p)).to.deep.equal(['kind-worker3', 'kind-worker', 'kind-worker2']);
  });

  it('breaks ties by node name when no pods exist', () => {
    expect(resolveTargets(fault({ kind: 'worker-with-most-pods' }), NODES, [])).to.deep.equal(['kind-worker']);
  });

  it('never picks the control plane for worker-with-most-pods unless allowed', () => {
    const p = pods('kind-control-plane', 'kind-control-plane');
    expect(resolveTargets(fault({ kind: 'worker-with-most-pods' }), NODES, p)).to.deep.equal(['kind-worker']);
    expect(resolveTargets(fault({ kind: 'worker-with-most-pods' }, 1, true), NODES, p)).to.deep.equal(['kind-control-plane']);
  });

  it('resolves a named node', () => {
    expect(resolveTargets(fault({ kind: 'node', node: 'kind-worker3' }), NODES, [])).to.deep.equal(['kind-worker3']);
  });

  it('refuses a named control-plane node without allowControlPlane', () => {
    expect(() => resolveTargets(fault({ kind: 'node', node: 'kind-control-plane' }), NODES, [])).to.throw('fault.target: kind-control-plane is a control-plane node');
    expect(resolveTargets(fault({ kind: 'node', node: 'kind-control-plane' }, 1, true), NODES, [])).to.deep.equal(['kind-control-plane']);
  });

  it('refuses an unknown node, naming the existing ones', () => {
    expect(() => resolveTargets(fault({ kind: 'node', node: 'nope' }), NODES, [])).to.throw('fault.target: node nope does not exist; nodes: kind-control-plane, kind-worker');
  });

  it('matches a label selector among workers, by name', () => {
    expect(resolveTargets(fault({ kind: 'selector', selector: { 'topology.kubernetes.io/zone': 'a' } }, 2), NODES, [])).to.deep.equal(['kind-worker', 'kind-worker3']);
  });

  it('excludes a control plane matched by a selector unless allowed', () => {
    const selector = { 'node-role.kubernetes.io/control-plane': '' };
    expect(() => resolveTargets(fault({ kind: 'selector', selector }), NODES, [])).to.throw('matches 0 eligible node(s), fault.count needs 1');
  });

  it('refuses a count larger than the eligible nodes', () => {
    expect(() => resolveTargets(fault({ kind: 'worker-with-most-pods' }, 4), NODES, [])).to.throw('matches 3 eligible node(s), fault.count needs 4');
  });
});

describe('checkStepNodes', () => {
  // An existing cluster's control plane need not be named so: its role label decides.
  const nodes: TargetNode[] = [...NODES, { name: 'cp-1', role: 'worker', labels: { 'node-role.kubernetes.io/control-plane': '' } }];
  it('refuses a step on a control-plane node, by role or by label, without fault.allowControlPlane', () => {
    expect(() => checkStepNodes([{ node: 'kind-worker', action: 'drain' }, { node: 'kind-control-plane', action: 'delete-node-object' }], { allowControlPlane: false }, nodes))
      .to.throw('steps[1].node: kind-control-plane is a control-plane node; delete-node-object would act on it').with.property('exitCode', 2);
    expect(() => checkStepNodes([{ node: 'cp-1', action: 'restart-kubelet' }], { allowControlPlane: false }, nodes)).to.throw('steps[0].node: cp-1 is a control-plane node');
  });
  it('allows it with fault.allowControlPlane, and leaves steps on the targets or on unknown nodes alone', () => {
    expect(() => checkStepNodes([{ node: 'kind-control-plane', action: 'drain' }], { allowControlPlane: true }, nodes)).not.to.throw();
    expect(() => checkStepNodes([{ node: null, action: 'drain' }, { node: 'elsewhere', action: 'drain' }], { allowControlPlane: false }, nodes)).not.to.throw();
  });
});
