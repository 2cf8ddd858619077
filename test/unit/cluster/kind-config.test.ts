import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { renderKindConfig } from '../../../lib/cluster/kind/config.js';
import { kubeadmApiVersionFor, kubeletConfigurationPatch } from '../../../lib/cluster/kind/kubeadm-patches.js';
import { tunedSpec } from './fixtures.js';

interface KindConfig {
  kind: string;
  apiVersion: string;
  nodes: { role: string; labels?: Record<string, string> }[];
  kubeadmConfigPatches: string[];
}

function render(apiVersion?: 'v1beta3' | 'v1beta4', spec = tunedSpec()) {
  const config = parse(renderKindConfig(spec, apiVersion ? { kubeadmApiVersion: apiVersion } : {})) as KindConfig;
  const patches = config.kubeadmConfigPatches.map((p) => parse(p) as Record<string, any>);
  const cluster = patches.find((p) => p['kind'] === 'ClusterConfiguration')!;
  const kubelet = patches.find((p) => p['kind'] === 'KubeletConfiguration')!;
  return { config, cluster, kubelet };
}

describe('renderKindConfig', () => {
  it('renders a kind v1alpha4 Cluster with 1 control plane and N workers', () => {
    const { config } = render();
    expect(config.kind).to.equal('Cluster');
    expect(config.apiVersion).to.equal('kind.x-k8s.io/v1alpha4');
    expect(config.nodes.map((n) => n.role)).to.deep.equal(['control-plane', 'worker', 'worker', 'worker']);
  });

  it('labels workers with zones round-robin and leaves the control plane unlabelled', () => {
    const { config } = render();
    expect(config.nodes[0]!.labels).to.equal(undefined);
    expect(config.nodes.slice(1).map((n) => n.labels?.['topology.kubernetes.io/zone'])).to.deep.equal(['zone-a', 'zone-b', 'zone-a']);
  });

  it('adds no labels when no zones are given', () => {
    const { config } = render(undefined, tunedSpec({ zones: [], workers: 2 }));
    expect(config.nodes.map((n) => n.labels)).to.deep.equal([undefined, undefined, undefined]);
  });

  it('writes v1beta3 extraArgs as a map with Go durations and extraArgs', () => {
    const { cluster } = render('v1beta3');
    expect(cluster['apiVersion']).to.equal('kubeadm.k8s.io/v1beta3');
    expect(cluster['controllerManager'].extraArgs).to.deep.equal({
      'node-monitor-period': '500ms',
      'node-monitor-grace-period': '20s',
      'node-startup-grace-period': '1m30s',
      'node-eviction-rate': '0.1',
      'secondary-node-eviction-rate': '0.01',
      'unhealthy-zone-threshold': '0.55',
      'large-cluster-size-threshold': '50',
      v: '2',
    });
    expect(cluster['apiServer'].extraArgs).to.deep.equal({
      'default-not-ready-toleration-seconds': '300',
      'default-unreachable-toleration-seconds': '30',
      'audit-log-maxage': '1',
    });
    expect(cluster['scheduler'].extraArgs).to.deep.equal({ 'bind-timeout-seconds': '10' });
  });

  it('writes v1beta4 extraArgs as a list of {name, value}', () => {
    const { cluster } = render('v1beta4');
    expect(cluster['apiVersion']).to.equal('kubeadm.k8s.io/v1beta4');
    expect(cluster['controllerManager'].extraArgs).to.deep.include({ name: 'node-monitor-grace-period', value: '20s' });
    expect(cluster['apiServer'].extraArgs).to.deep.equal([
      { name: 'default-not-ready-toleration-seconds', value: '300' },
      { name: 'default-unreachable-toleration-seconds', value: '30' },
      { name: 'audit-log-maxage', value: '1' },
    ]);
    expect(cluster['scheduler'].extraArgs).to.deep.equal([{ name: 'bind-timeout-seconds', value: '10' }]);
  });

  it('omits the scheduler when it has no extraArgs', () => {
    const spec = tunedSpec();
    spec.extraArgs.scheduler = {};
    expect(render('v1beta3', spec).cluster['scheduler']).to.equal(undefined);
  });

  it('lets an extraArgs entry override a named setting', () => {
    const spec = tunedSpec();
    spec.extraArgs.controllerManager['node-monitor-grace-period'] = '33s';
    expect(render('v1beta3', spec).cluster['controllerManager'].extraArgs['node-monitor-grace-period']).to.equal('33s');
  });

  it('patches the KubeletConfiguration with Go durations and extra config, only the fields the experiment sets', () => {
    const { kubelet } = render();
    expect(kubelet).to.deep.equal({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      nodeLeaseDurationSeconds: 20,
      shutdownGracePeriod: '30s',
      shutdownGracePeriodCriticalPods: '10s',
      maxPods: 50,
    });
  });

  it('emits each patch as a single YAML document', () => {
    const config = parse(renderKindConfig(tunedSpec())) as KindConfig;
    for (const patch of config.kubeadmConfigPatches) expect(parseAllDocuments(patch)).to.have.length(1);
  });
});

describe('kubeadmApiVersionFor', () => {
  it('is v1beta3 for every Kubernetes version with kind v0.30.0 and v0.31.0 (config.go Config: always ConfigTemplateBetaV3)', () => {
    expect(kubeadmApiVersionFor('v1.34.4', 'v0.30.0')).to.equal('v1beta3');
    expect(kubeadmApiVersionFor('v1.36.0', 'v0.31.0')).to.equal('v1beta3');
  });

  it('is v1beta4 from Kubernetes 1.36 with kind v0.32.0 or later, as with the pinned kind for the supported versions', () => {
    expect(kubeadmApiVersionFor('v1.36.0', 'v0.32.0')).to.equal('v1beta4');
    expect(kubeadmApiVersionFor('v1.35.9', 'v0.33.0')).to.equal('v1beta3');
    expect(['v1.34.4', 'v1.35.4', 'v1.36.3', 'v1.37.2'].map((v) => kubeadmApiVersionFor(v))).to.deep.equal(['v1beta3', 'v1beta3', 'v1beta4', 'v1beta4']);
  });
});

describe('kubeletConfigurationPatch on Kubernetes v1.35 and later', () => {
  it('sets failCgroupV1: false, whose default turned true in v1.35 (kind nodes on a cgroup v1 host)', () => {
    expect(kubeletConfigurationPatch(tunedSpec({ kubernetesVersion: 'v1.35.4' }))).to.include({ failCgroupV1: false });
    expect(kubeletConfigurationPatch(tunedSpec({ kubernetesVersion: 'v1.37.2' }))).to.include({ failCgroupV1: false });
    expect(kubeletConfigurationPatch(tunedSpec({ kubernetesVersion: 'v1.34.4' }))).to.not.have.property('failCgroupV1');
  });
});
