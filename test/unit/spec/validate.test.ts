// Validation collects every issue, sorted by place, each one line.
import { expect } from 'chai';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { settingsLeafPaths } from '../../../lib/spec/validate.js';
import { inputIssuesOf } from '../../helpers/input-issues.js';

function issuesOf(text: string): string[] {
  return inputIssuesOf(() => loadExperimentText('e.yaml', text));
}

describe('spec/validate', () => {
  it('collects every issue of a file, in file order', () => {
    const text = [
      'apiVersion: rebootlab.dev/v1alpha1',
      'kind: Experiment',
      'metadata: {name: Bad_Name}',
      'cluster:',
      '  workers: 0',
      '  controllerManager: {nodeMonitorGracePeriod: 40, bogus: 1}',
      'fault: {type: power-off}',
    ].join('\n');
    expect(issuesOf(text)).to.deep.equal([
      'e.yaml:3:18: metadata.name: "Bad_Name" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)',
      'e.yaml:5:12: cluster.workers: must be ≥ 1, got 0',
      'e.yaml:6:47: cluster.controllerManager.nodeMonitorGracePeriod: 40 has no unit; add a unit, e.g. "40s"',
      'e.yaml:6:51: cluster.controllerManager.bogus: unknown field; allowed: extraArgs, kubeAPIBurst, kubeAPIQPS, largeClusterSizeThreshold, nodeEvictionRate, nodeMonitorGracePeriod, nodeMonitorPeriod, nodeStartupGracePeriod, secondaryNodeEvictionRate, unhealthyZoneThreshold',
      'e.yaml:7:8: fault.duration: is required for power-off',
    ]);
  });

  it('validates the controller-manager client rate limits and refuses them as extraArgs (named settings)', () => {
    const doc = (cm: string): string => `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  controllerManager: ${cm}\nfault: {type: reboot}\n`;
    expect(issuesOf(doc('{kubeAPIQPS: 200.5, kubeAPIBurst: 400}'))).to.deep.equal([]);
    expect(issuesOf(doc('{kubeAPIQPS: 0, kubeAPIBurst: 0}'))).to.deep.equal([
      'e.yaml:5:35: cluster.controllerManager.kubeAPIQPS: must be > 0, got 0',
      'e.yaml:5:52: cluster.controllerManager.kubeAPIBurst: must be ≥ 1, got 0',
    ]);
    expect(issuesOf(doc('{kubeAPIBurst: 2.5}'))).to.have.length(1);
    expect(issuesOf(doc('{extraArgs: {kube-api-qps: "100", kube-api-burst: "200"}}'))).to.deep.equal([
      'e.yaml:5:35: cluster.controllerManager.extraArgs.kube-api-qps: --kube-api-qps has a named setting; use cluster.controllerManager.kubeAPIQPS',
      'e.yaml:5:56: cluster.controllerManager.extraArgs.kube-api-burst: --kube-api-burst has a named setting; use cluster.controllerManager.kubeAPIBurst',
    ]);
  });

  it('rejects pod-eviction-timeout (removed in v1.27) on every supported version, naming the version', () => {
    const doc = (version: string): string =>
      `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  kubernetesVersion: ${version}\n  controllerManager:\n    extraArgs: {pod-eviction-timeout: 1m}\nfault: {type: reboot}\n`;
    for (const version of ['v1.34.4', 'v1.37.2']) {
      expect(issuesOf(doc(version))).to.deep.equal([`e.yaml:7:17: cluster.controllerManager.extraArgs.pod-eviction-timeout: --pod-eviction-timeout was removed in Kubernetes v1.27 (cluster uses ${version}); pods are evicted by NoExecute taints: set workloads[].tolerations tolerationSeconds, or cluster.apiServer.defaultUnreachableTolerationSeconds (--default-unreachable-toleration-seconds)`]);
    }
  });

  it('rejects a grace period no longer than the heartbeat interval + nodeMonitorPeriod (nodelifecycle tryUpdateNodeHealth, v1.34.4): 5s against Lease renewals every 10.4 s + 5 s', () => {
    const text = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  controllerManager: {nodeMonitorGracePeriod: 5s}\nfault: {type: reboot}\n';
    expect(issuesOf(text)).to.deep.equal([
      'e.yaml:5:47: cluster.controllerManager.nodeMonitorGracePeriod: nodeMonitorGracePeriod (5s) must be longer than the longest silence between two heartbeats of a healthy node (Lease renewals every 10.4s: 0.25 × nodeLeaseDurationSeconds 40, + 4% jitter) plus nodeMonitorPeriod (5s), 15.4s in all, or healthy nodes are marked NotReady between heartbeats; raise the grace period or lower nodeLeaseDurationSeconds',
    ]);
  });

  it('does not require the grace period to exceed nodeStatusUpdateFrequency: with Leases a 1m status update frequency and a 20s grace period never flap', () => {
    const text = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  controllerManager: {nodeMonitorGracePeriod: 20s}\n  kubelet: {nodeStatusUpdateFrequency: 1m}\nfault: {type: reboot}\n';
    expect(issuesOf(text)).to.deep.equal([]);
  });

  it('counts status posts as heartbeats: a 60 s Lease (renewals every 15.6 s) with status posts every 4 s (only nodeStatusUpdateFrequency 4s set) allows a 12 s grace period; without them it does not', () => {
    const doc = (grace: string, lease: number, kubelet = ''): string =>
      `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  controllerManager: {nodeMonitorGracePeriod: ${grace}}\n  kubelet: {nodeLeaseDurationSeconds: ${lease}${kubelet}}\nfault: {type: reboot}\n`;
    expect(issuesOf(doc('20s', 40))).to.deep.equal([]);
    expect(issuesOf(doc('19s', 40))).to.deep.equal([]);
    expect(issuesOf(doc('12s', 60, ', nodeStatusUpdateFrequency: 4s'))).to.deep.equal([]);
    expect(issuesOf(doc('12s', 60))[0]).to.match(/nodeMonitorGracePeriod \(12s\) must be longer than the longest silence between two heartbeats of a healthy node \(Lease renewals every 15\.6s: 0\.25 × nodeLeaseDurationSeconds 60, \+ 4% jitter\) plus nodeMonitorPeriod \(5s\), 20\.6s in all/);
    expect(issuesOf(doc('9s', 60, ', nodeStatusUpdateFrequency: 4s'))[0]).to.match(/\(status posts every 4\.16s: nodeStatusReportFrequency 4s checked every nodeStatusUpdateFrequency 4s, \+ 4% jitter\) plus nodeMonitorPeriod \(5s\), 9\.16s in all/);
  });

  it('accepts exactly the supported versions of versions.json and refuses any other, naming the set', () => {
    const doc = (version: string): string => `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster: {kubernetesVersion: ${version}}\nfault: {type: reboot}\n`;
    for (const version of ['v1.34.4', 'v1.35.4', 'v1.36.3', 'v1.37.2']) expect(issuesOf(doc(version)), version).to.deep.equal([]);
    expect(issuesOf(doc('v1.25.16'))).to.deep.equal(['e.yaml:4:30: cluster.kubernetesVersion: rebootlab cannot run Kubernetes v1.25.16; it runs v1.37.2, v1.36.3, v1.35.4 or v1.34.4']);
    expect(issuesOf(doc('v1.36.1'))).to.deep.equal(['e.yaml:4:30: cluster.kubernetesVersion: rebootlab cannot run Kubernetes v1.36.1; it runs v1.37.2, v1.36.3, v1.35.4 or v1.34.4 (for v1.36 use v1.36.3)']);
    expect(issuesOf(doc('v2.0.0'))[0]).to.match(/cannot run Kubernetes v2\.0\.0; it runs v1\.37\.2, /);
  });

  it('refuses expectations naming workloads or nodes the experiment does not have', () => {
    const doc = (expectation: string): string =>
      `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster: {name: lab, workers: 1}\nworkloads: [{name: web, kind: Deployment}]\nfault: {type: reboot}\nexpect: ["${expectation}"]\n`;
    expect(issuesOf(doc('pods[workload=web].outcome == restarted-in-place'))).to.deep.equal([]);
    expect(issuesOf(doc('pods[namespace=kube-system,workload=coredns].outcome == unaffected'))).to.deep.equal([]);
    expect(issuesOf(doc('nodes[name=lab-worker].readyAtEnd == true'))).to.deep.equal([]);
    expect(issuesOf(doc('workloads.api.recovered == true'))).to.deep.equal(['e.yaml:7:10: expect[0]: workloads.api: no workload "api" in this experiment; workloads: web']);
    expect(issuesOf(doc('pods[node=lab-worker2].outcome == unaffected'))[0]).to.include('pods[node=lab-worker2]: no node "lab-worker2" in kind cluster "lab" (1 workers); its nodes are lab-control-plane, lab-worker');
    expect(issuesOf(doc('nodes[name=rebootlab-worker].readyAtEnd == true'))[0]).to.include('no node "rebootlab-worker" in kind cluster "lab"');
    // jobs.<name> passed validation and failed only after the run ("no Job ghost in the journal"): hostile-input tryout, 8 Dec.
    expect(issuesOf(doc('jobs.ghost.failed < 1'))).to.deep.equal(['e.yaml:7:10: expect[0]: jobs.ghost: no workload "ghost" in this experiment; Jobs: none (add a workload of kind: Job)']);
    expect(issuesOf(doc('jobs.web.failed < 1'))).to.deep.equal(['e.yaml:7:10: expect[0]: jobs.web: workload "web" is not a Job; Jobs: none (add a workload of kind: Job)']);
  });

  it('lists the matrix-able settings paths', () => {
    const paths = settingsLeafPaths();
    expect(paths).to.include('cluster.controllerManager.nodeMonitorGracePeriod');
    expect(paths).to.include('cluster.kubelet.nodeLeaseDurationSeconds');
    expect(paths).to.include('fault.target');
    expect(paths).to.not.include('cluster.zones');
  });

  it('rejects bad service, probe and grace-period fields, one line each at their place', () => {
    const text = [
      'apiVersion: rebootlab.dev/v1alpha1',
      'kind: Experiment',
      'metadata: {name: x}',
      'workloads:',
      '  - name: web',
      '    kind: Deployment',
      '    service: {port: 0}',
      '    readinessProbe: {periodSeconds: 0, bogus: 1}',
      '    livenessProbe: {successThreshold: 2}',
      '    terminationGracePeriodSeconds: -1',
      '  - name: db',
      '    kind: StatefulSet',
      '    service: {}',
      'fault: {type: reboot}',
    ].join('\n');
    expect(issuesOf(text)).to.deep.equal([
      'e.yaml:7:21: workloads[0].service.port: must be ≥ 1, got 0',
      'e.yaml:8:37: workloads[0].readinessProbe.periodSeconds: must be ≥ 1, got 0',
      'e.yaml:8:40: workloads[0].readinessProbe.bogus: unknown field; allowed: failureThreshold, handler, initialDelaySeconds, periodSeconds, successThreshold, timeoutSeconds',
      'e.yaml:9:39: workloads[0].livenessProbe.successThreshold: must be 1 for a liveness probe (Kubernetes API rule), got 2',
      'e.yaml:10:36: workloads[0].terminationGracePeriodSeconds: must be ≥ 0, got -1',
      'e.yaml:13:14: workloads[1].service.port: missing required field',
    ]);
  });

  it('rejects probes on simulated pods (provider kwok)', () => {
    const text = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster: {provider: kwok}\nworkloads:\n  - {name: web, kind: Deployment, service: {port: 80}, readinessProbe: {}}\nfault: {type: power-off, duration: 10s}\n';
    expect(issuesOf(text)).to.deep.equal([
      'e.yaml:6:72: workloads[0].readinessProbe: simulated pods (provider kwok) run no container to probe; remove it or use provider kind',
    ]);
  });
});
