// A value the file gets wrong is reported once, at its root: a rule that combines fields (critical pods ≤ grace
// period, a graceful shutdown needs a grace period, duration ≤ timeout, count ≤ workers, a step before the end)
// skips when a field it reads is itself refused, instead of reading it as absent or as its default and adding lines
// that are not true (found by a new-user try: `shutdownGracePeriod: 30x` gave three lines).
import { expect } from 'chai';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { inputIssuesOf } from '../../helpers/input-issues.js';

const HEAD = ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}'];

/** The one-line issues of an experiment made of HEAD and `yaml` lines, in file order. */
function issuesOf(...yaml: string[]): string[] {
  return inputIssuesOf(() => loadExperimentText('e.yaml', [...HEAD, ...yaml].join('\n')));
}

describe('spec: rules that combine fields skip a field already refused', () => {
  it('shutdownGracePeriod: 30x is one line, not also critical pods > grace and "set shutdownGracePeriod"', () => {
    expect(issuesOf('cluster: {kubelet: {shutdownGracePeriod: 30x, shutdownGracePeriodCriticalPods: 10s}}', 'fault: {type: shutdown, duration: 60s}')).to.deep.equal([
      'e.yaml:4:42: cluster.kubelet.shutdownGracePeriod: "30x" is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"',
    ]);
  });

  it('shutdownGracePeriodCriticalPods: 500ms is one line (0s or ≥ 1s), not also "must not exceed shutdownGracePeriod"', () => {
    expect(issuesOf('cluster: {kubelet: {shutdownGracePeriodCriticalPods: 500ms}}', 'fault: {type: reboot}')).to.deep.equal([
      'e.yaml:4:54: cluster.kubelet.shutdownGracePeriodCriticalPods: must be 0s or at least 1s: the kubelet refuses it (ValidateKubeletConfiguration)',
    ]);
  });

  it('nodeMonitorGracePeriod: 40x is one line, not also the monitor-period rule against the default grace period', () => {
    expect(issuesOf('cluster: {controllerManager: {nodeMonitorGracePeriod: 40x, nodeMonitorPeriod: 60s}}', 'fault: {type: reboot}')).to.deep.equal([
      'e.yaml:4:55: cluster.controllerManager.nodeMonitorGracePeriod: "40x" is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"',
    ]);
  });

  it('nodeLeaseDurationSeconds: "4" (a string) is one line, not also the heartbeat rule computed with the default 40', () => {
    const issues = issuesOf('cluster: {controllerManager: {nodeMonitorGracePeriod: 12s}, kubelet: {nodeLeaseDurationSeconds: "4"}}', 'fault: {type: reboot}');
    expect(issues).to.have.length(1);
    expect(issues[0]).to.match(/^e\.yaml:4:\d+: cluster\.kubelet\.nodeLeaseDurationSeconds: /);
  });

  it('observe.timeout: 5x is one line, not also "must be longer than fault.duration" against the 600 s default', () => {
    expect(issuesOf('fault: {type: freeze, duration: 700s}', 'observe: {timeout: 5x}')).to.deep.equal([
      'e.yaml:5:20: observe.timeout: "5x" is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"',
    ]);
  });

  it('cluster.workers: three is one line, not also "3 nodes requested but the cluster has 2 workers"', () => {
    expect(issuesOf('cluster: {workers: three}', 'fault: {type: reboot, count: 3}')).to.deep.equal([
      'e.yaml:4:20: cluster.workers: expected an integer, got "three"',
    ]);
  });

  it('a step whose after is refused is not also missing for the undo step after it', () => {
    expect(issuesOf('fault: {type: reboot}', 'steps:', '  - {after: 3x, action: cordon, node: rebootlab-worker}', '  - {after: 10s, action: uncordon, node: rebootlab-worker}')).to.deep.equal([
      'e.yaml:6:13: steps[0].after: "3x" is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"',
    ]);
  });

  it('failReadiness.for: 5x is one line, not also "every needs for: shorter than every"', () => {
    expect(issuesOf('fault: {type: reboot}', 'workloads:', '  - {name: w, kind: Deployment, failReadiness: {after: 10s, every: 30s, for: 5x}}')).to.deep.equal([
      'e.yaml:6:78: workloads[0].failReadiness.for: "5x" is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"',
    ]);
  });

  it('but a rule whose fields are all valid still reports (critical pods above the grace period)', () => {
    expect(issuesOf('cluster: {kubelet: {shutdownGracePeriod: 10s, shutdownGracePeriodCriticalPods: 30s}}', 'fault: {type: reboot}')).to.deep.equal([
      'e.yaml:4:80: cluster.kubelet.shutdownGracePeriodCriticalPods: (30s) must not exceed shutdownGracePeriod (10s), the part of it reserved for critical pods: the kubelet refuses it (ValidateKubeletConfiguration)',
    ]);
  });
});
