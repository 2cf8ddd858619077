// Tests for lib/analyze/predict.ts and the toleration rules of lib/analyze/objects.ts.
import { expect } from 'chai';
import { detectionWindow, leaseRenewIntervalSeconds, predict, zoneState } from '../../../lib/analyze/predict.js';
import { tolerationSecondsFor } from '../../../lib/analyze/objects.js';
import type { PodTimeline } from '../../../lib/analyze/types.js';
import { DEFAULT_TIMEOUT_SETTINGS, type TimeoutSettings } from '../../../lib/spec/settings.js';

const TUNED: TimeoutSettings = {
  ...DEFAULT_TIMEOUT_SETTINGS,
  controllerManager: { ...DEFAULT_TIMEOUT_SETTINGS.controllerManager, nodeMonitorGracePeriodMs: 20_000 },
  kubelet: { ...DEFAULT_TIMEOUT_SETTINGS.kubelet, nodeLeaseDurationSeconds: 20 },
};

const podOn = (name: string, node: string, unreachableTolerationSeconds: number | null) =>
  ({ namespace: 'rebootlab', name, nodeBefore: node, tolerations: { unreachableTolerationSeconds, notReadyTolerationSeconds: unreachableTolerationSeconds, tolerations: [] } }) as unknown as PodTimeline;

describe('analyze/predict', () => {
  it('1.34 defaults: lease renewed every 10 s (25% of 40 s), detection in [40, 55] s', () => {
    expect(leaseRenewIntervalSeconds(DEFAULT_TIMEOUT_SETTINGS)).to.equal(10);
    expect(detectionWindow(DEFAULT_TIMEOUT_SETTINGS)).to.deep.equal({ fromSeconds: 40, toSeconds: 55 });
  });

  it('tuned (grace 20 s, lease 20 s): detection in [15, 25] s, eviction with 30 s tolerations in [45, 55] s', () => {
    const p = predict(TUNED, { targets: ['w1'], clusterNodes: 3, restoredAfterSeconds: null, pods: [podOn('web', 'w1', 30)] });
    expect(p.nodes[0].detection).to.deep.equal({ fromSeconds: 15, toSeconds: 25 });
    expect(p.pods[0].eviction).to.deep.equal({ fromSeconds: 45, toSeconds: 55 });
  });

  it('defaults with 300 s tolerations: eviction in [340, 355] s (the issue-3 outage-default window)', () => {
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1'], clusterNodes: 3, restoredAfterSeconds: null, pods: [podOn('web', 'w1', 300)] });
    expect(p.pods[0].eviction).to.deep.equal({ fromSeconds: 340, toSeconds: 355 });
  });

  it('spaces the second target’s taint by 1 / nodeEvictionRate = 10 s', () => {
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1', 'w2'], clusterNodes: 5, restoredAfterSeconds: null, pods: [] });
    expect(p.nodes[1].noExecuteTaint).to.deep.equal({ fromSeconds: 50, toSeconds: 65 });
  });

  it('a staggered second target hit at +15 s: its detection shifts by 15 s and its taint follows its own detection', () => {
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1', 'w2'], targetOffsetSeconds: new Map([['w1', 0], ['w2', 15]]), clusterNodes: 5, restoredAfterSeconds: null, pods: [] });
    expect(p.nodes[1].detection).to.deep.equal({ fromSeconds: 55, toSeconds: 70 });
    expect(p.nodes[1].noExecuteTaint).to.deep.equal({ fromSeconds: 55, toSeconds: 70 });
  });

  it('a pod that tolerates unreachable forever (DaemonSet) gets no predicted eviction', () => {
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1'], clusterNodes: 3, restoredAfterSeconds: null, pods: [podOn('agent', 'w1', null)] });
    expect(p.pods[0].eviction).to.equal(null);
  });

  it('a fault restored before grace − renew is not expected to be detected, and evicts nothing', () => {
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1'], clusterNodes: 3, restoredAfterSeconds: 10, pods: [podOn('web', 'w1', 300)] });
    expect(p.nodes[0].detectionExpected).to.equal(false);
    expect(p.pods[0].eviction).to.equal(null);
  });

  it('case C1: 3 of 4 nodes down is PartialDisruption (≥ 55%, > 2 nodes); a ≤ 50-node zone suppresses further taints', () => {
    expect(zoneState(DEFAULT_TIMEOUT_SETTINGS, 4, 3)).to.deep.equal({ state: 'PartialDisruption', suppressed: true });
    const p = predict(DEFAULT_TIMEOUT_SETTINGS, { targets: ['w1', 'w2', 'w3'], clusterNodes: 4, restoredAfterSeconds: null, pods: [] });
    expect(p.nodes.map((n) => n.noExecuteTaint === null)).to.deep.equal([false, true, true]);
  });

  it('one of three nodes down is Normal', () => {
    expect(zoneState(DEFAULT_TIMEOUT_SETTINGS, 3, 1)).to.deep.equal({ state: 'Normal', suppressed: false });
  });
});

describe('analyze/objects tolerationSecondsFor', () => {
  const pod = (tolerations: unknown[]) => ({ spec: { tolerations } });
  it('DefaultTolerationSeconds admission: 300 s for unreachable', () => {
    expect(tolerationSecondsFor(pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]), 'node.kubernetes.io/unreachable')).to.equal(300);
  });
  it('no matching toleration: evicted at once (0)', () => {
    expect(tolerationSecondsFor(pod([{ key: 'other', operator: 'Exists' }]), 'node.kubernetes.io/unreachable')).to.equal(0);
  });
  it('operator Exists without key tolerates everything forever (null)', () => {
    expect(tolerationSecondsFor(pod([{ operator: 'Exists' }]), 'node.kubernetes.io/unreachable')).to.equal(null);
  });
  it('the smallest tolerationSeconds among matches wins; negative counts as 0', () => {
    const tols = [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: -5 },
    ];
    expect(tolerationSecondsFor(pod(tols), 'node.kubernetes.io/unreachable')).to.equal(0);
  });
  it('a NoSchedule-only toleration does not count for NoExecute', () => {
    expect(tolerationSecondsFor(pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }]), 'node.kubernetes.io/unreachable')).to.equal(0);
  });
});
