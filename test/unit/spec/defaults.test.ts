// Resolution of a user experiment: Kubernetes 1.34 defaults filled in, durations in milliseconds.
import { expect } from 'chai';
import { loadExperiment, loadExperimentText } from '../../../lib/spec/load.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import { DEFAULT_WORKLOAD_IMAGE } from '../../../lib/spec/types.js';

const DIR = 'test/fixtures/experiments';

describe('spec/defaults', () => {
  it('fills every default of a minimal experiment', async () => {
    const { experiment } = await loadExperiment(`${DIR}/valid-minimal.yaml`);
    expect(experiment.cluster).to.deep.include({ provider: 'kind', name: 'rebootlab', kubernetesVersion: 'v1.37.2', nodeImage: null, workers: 2, zones: [] });
    expect(experiment.cluster.settings).to.deep.equal(DEFAULT_TIMEOUT_SETTINGS);
    expect(experiment.fault).to.deep.equal({ type: 'reboot', target: { kind: 'worker-with-most-pods' }, count: 1, durationMs: null, staggerMs: 0, scope: 'node', allowControlPlane: false, backend: { kind: 'provider' } });
    expect(experiment.observe).to.deep.equal({ until: 'recovered', durationMs: null, timeoutMs: 600_000, settleMs: 5_000 });
    expect(experiment.workloads).to.deep.equal([]);
    expect(experiment.expect).to.deep.equal([]);
  });

  it('resolves probes: http by default with its Service; dns with the default query and no replica move', () => {
    const loaded = loadExperimentText('e.yaml', ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}',
      'workloads: [{name: web, kind: Deployment, service: {port: 80}}]', 'fault: {type: power-off, duration: 30s}',
      'probes: [{name: web, service: web}, {name: dns, type: dns, timeout: 2s}, {name: dns2, type: dns, query: web.rebootlab.svc.cluster.local., placeReplicaOnTarget: true}]'].join('\n'));
    expect(loaded.experiment.probes).to.deep.equal([
      { name: 'web', type: 'http', service: 'web', ratePerSecond: 20, timeoutMs: 1_000, node: null },
      { name: 'dns', type: 'dns', query: 'kubernetes.default.svc.cluster.local', placeReplicaOnTarget: false, ratePerSecond: 20, timeoutMs: 2_000, node: null },
      { name: 'dns2', type: 'dns', query: 'web.rebootlab.svc.cluster.local.', placeReplicaOnTarget: true, ratePerSecond: 20, timeoutMs: 1_000, node: null },
    ]);
  });

  it('converts every duration of the full fixture to milliseconds', async () => {
    const { experiment, repeat, variants } = await loadExperiment(`${DIR}/valid-full.yaml`);
    const { controllerManager, apiServer, kubelet } = experiment.cluster.settings;
    expect(controllerManager).to.deep.equal({
      nodeMonitorPeriodMs: 2_000, nodeMonitorGracePeriodMs: 20_000, nodeStartupGracePeriodMs: 60_000,
      nodeEvictionRate: 0.5, secondaryNodeEvictionRate: 0.05, unhealthyZoneThreshold: 1, largeClusterSizeThreshold: 10,
    });
    expect(apiServer).to.deep.equal({ defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30 });
    expect(kubelet).to.deep.equal({
      nodeStatusUpdateFrequencyMs: 4_000, nodeStatusReportFrequencyMs: 60_000, nodeLeaseDurationSeconds: 20,
      shutdownGracePeriodMs: 30_000, shutdownGracePeriodCriticalPodsMs: 10_000,
    });
    expect(experiment.fault).to.deep.equal({
      type: 'network-partition', target: { kind: 'selector', selector: { 'topology.kubernetes.io/zone': 'zone-a' } },
      count: 2, durationMs: 90_000, staggerMs: 500, scope: 'node', allowControlPlane: false, backend: { kind: 'provider' },
    });
    expect(experiment.observe).to.deep.equal({ until: 'duration', durationMs: 180_000, timeoutMs: 300_000, settleMs: 10_000 });
    expect(experiment.cluster.extraArgs.controllerManager).to.deep.equal({ v: '2' });
    expect(experiment.cluster.kubeletExtraConfig).to.deep.equal({ maxPods: 50 });
    expect(repeat).to.equal(2);
    expect(variants.map((v) => [v.variantName, v.repeatIndex])).to.deep.equal([['full', 0], ['full', 1]]);
  });

  it('resolves workloads: replicas per kind, image, volume size, PDB', async () => {
    const { experiment } = await loadExperiment(`${DIR}/valid-full.yaml`);
    const byName = Object.fromEntries(experiment.workloads.map((w) => [w.name, w]));
    expect(byName.web!.replicas).to.equal(3);
    expect(byName.db!.replicas).to.equal(1);
    expect(byName.agent!.replicas).to.equal(null);
    expect(byName.solo!.replicas).to.equal(1);
    expect(byName.solo!.image).to.equal(DEFAULT_WORKLOAD_IMAGE);
    expect(byName.solo!.volume).to.deep.equal({ type: 'emptyDir-memory', size: '64Mi' });
    expect(byName.solo!.tolerations).to.equal(null);
    expect(byName.web!.tolerations![0]!.tolerationSeconds).to.equal(10);
    expect(byName.db!.podDisruptionBudget).to.deep.equal({ minAvailable: null, maxUnavailable: '50%' });
    expect(byName.web!.placement).to.equal('spread');
    expect(byName.db!.placement).to.equal('target');
  });

  it('passes kubeAPIQPS and kubeAPIBurst to kube-controller-manager as --kube-api-qps and --kube-api-burst and keeps them in the settings, unset by default', () => {
    const load = (cm: string) => loadExperimentText('e.yaml', `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  provider: kwok\n  controllerManager: ${cm}\nfault: {type: node-delete}\n`).experiment.cluster;
    const cluster = load('{kubeAPIQPS: 200, kubeAPIBurst: 400, extraArgs: {v: "2"}}');
    expect(cluster.extraArgs.controllerManager).to.deep.equal({ 'kube-api-qps': '200', 'kube-api-burst': '400', v: '2' });
    // The analysis reads them too (the node lifecycle controller's writes share one throttled client); nothing else changes.
    expect(cluster.settings).to.deep.equal({ ...DEFAULT_TIMEOUT_SETTINGS, controllerManager: { ...DEFAULT_TIMEOUT_SETTINGS.controllerManager, kubeAPIQPS: 200, kubeAPIBurst: 400 } });
    expect(load('{}').extraArgs.controllerManager).to.deep.equal({});
    expect(load('{}').settings).to.deep.equal(DEFAULT_TIMEOUT_SETTINGS);
  });

  it('kubelet status frequencies as the kubelet defaults them (pkg/kubelet/apis/config/v1beta1/defaults.go, v1.34.4 to v1.37.2): only nodeStatusUpdateFrequency 4s set gives nodeStatusReportFrequency 4s, and the kubelet patch carries only what is set', async () => {
    const { kubeletConfigurationPatch } = await import('../../../lib/cluster/kind/kubeadm-patches.js');
    const load = (kubelet: string) => loadExperimentText('e.yaml', `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  kubelet: ${kubelet}\nfault: {type: reboot}\n`).experiment.cluster;
    const onlyUpdate = load('{nodeStatusUpdateFrequency: 4s}');
    expect(onlyUpdate.settings.kubelet).to.include({ nodeStatusUpdateFrequencyMs: 4_000, nodeStatusReportFrequencyMs: 4_000 });
    expect(onlyUpdate.kubeletFieldsSet).to.deep.equal(['nodeStatusUpdateFrequency']);
    // failCgroupV1: false is no timing field: the default version (v1.35 and later) needs it on a cgroup v1 host (kubeletFailsOnCgroupV1ByDefault).
    const base = { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', failCgroupV1: false };
    expect(kubeletConfigurationPatch(onlyUpdate)).to.deep.equal({ ...base, nodeStatusUpdateFrequency: '4s' });
    const both = load('{nodeStatusUpdateFrequency: 4s, nodeStatusReportFrequency: 1m}');
    expect(both.settings.kubelet).to.include({ nodeStatusUpdateFrequencyMs: 4_000, nodeStatusReportFrequencyMs: 60_000 });
    expect(kubeletConfigurationPatch(both)).to.include({ nodeStatusUpdateFrequency: '4s', nodeStatusReportFrequency: '1m0s' });
    const none = load('{}');
    expect(none.settings.kubelet).to.deep.equal(DEFAULT_TIMEOUT_SETTINGS.kubelet);
    expect(kubeletConfigurationPatch(none)).to.deep.equal(base);
    expect(kubeletConfigurationPatch({ ...none, kubernetesVersion: 'v1.34.4' })).to.deep.equal({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration' });
  });

  it('uses cluster.nodes as the worker count with kwok', async () => {
    const { experiment } = await loadExperiment(`${DIR}/valid-kwok.yaml`);
    expect(experiment.cluster.provider).to.equal('kwok');
    expect(experiment.cluster.workers).to.equal(5);
  });

  it('resolves a named target', () => {
    const text = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\nfault: {type: freeze, target: rebootlab-worker2, duration: 1m}\n';
    const { experiment } = loadExperimentText('x.yaml', text);
    expect(experiment.fault.target).to.deep.equal({ kind: 'node', node: 'rebootlab-worker2' });
    expect(experiment.fault.durationMs).to.equal(60_000);
  });

  it('fills workload service, probe and grace-period defaults: Kubernetes Probe defaults 10/1/3/1/0, grace 30 s', () => {
    const doc = [
      'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}', 'fault: {type: reboot}',
      'workloads:',
      '  - {name: plain, kind: Deployment}',
      '  - name: web',
      '    kind: Deployment',
      '    service: {port: 80}',
      '    readinessProbe: {periodSeconds: 2}',
      '    livenessProbe: {failureThreshold: 5, initialDelaySeconds: 3}',
      '    terminationGracePeriodSeconds: 0',
    ].join('\n');
    const [plain, web] = loadExperimentText('e.yaml', doc).experiment.workloads;
    expect(plain).to.deep.include({ service: null, readinessProbe: null, livenessProbe: null, failReadiness: null, failLiveness: null, terminationGracePeriodSeconds: 30 });
    expect(web!.service).to.deep.equal({ port: 80 });
    expect(web!.readinessProbe).to.deep.equal({ handler: 'httpGet', periodSeconds: 2, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1, initialDelaySeconds: 0 });
    expect(web!.livenessProbe).to.deep.equal({ handler: 'httpGet', periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 5, successThreshold: 1, initialDelaySeconds: 3 });
    expect(web!.terminationGracePeriodSeconds).to.equal(0);
  });
});
