import { expect } from 'chai';
import { parse } from 'yaml';
import { parseStaticPodFlags } from '../../../lib/cluster/effective-settings.js';
import { mergeKubeletConfig, rewriteStaticPodFlags } from '../../../lib/cluster/kind/reconfigure.js';
import { reconfigurableInPlace } from '../../../lib/run/reconfigure-cluster.js';
import { tunedSpec } from './fixtures.js';

// The head of the kube-controller-manager manifest kubeadm v1.34.4 writes on a kind control plane
// (recorded from /etc/kubernetes/manifests/kube-controller-manager.yaml, volumes cut).
const MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  labels:
    component: kube-controller-manager
    tier: control-plane
  name: kube-controller-manager
  namespace: kube-system
spec:
  containers:
  - command:
    - kube-controller-manager
    - --allocate-node-cidrs=true
    - --authentication-kubeconfig=/etc/kubernetes/controller-manager.conf
    - --leader-elect=true
    - --node-monitor-grace-period=20s
    - --node-monitor-period=5s
    - --v=2
    image: registry.k8s.io/kube-controller-manager:v1.34.4
    name: kube-controller-manager
  hostNetwork: true
  priorityClassName: system-node-critical
`;

describe('rewriteStaticPodFlags', () => {
  it('replaces a flag where it stands and appends a new one, keeping the rest of the manifest', () => {
    const next = rewriteStaticPodFlags(MANIFEST, { 'node-monitor-grace-period': '40s', 'node-eviction-rate': '0.5' })!;
    const command = (parse(next) as { spec: { containers: { command: string[] }[] } }).spec.containers[0]!.command;
    expect(command.indexOf('--node-monitor-grace-period=40s')).to.equal(4);
    expect(command.at(-1)).to.equal('--node-eviction-rate=0.5');
    expect(command).to.have.length(8);
    expect(parseStaticPodFlags(next)['allocate-node-cidrs']).to.equal('true');
    expect(next).to.contain('priorityClassName: system-node-critical');
  });

  it('returns null when every flag already has its value (the kubelet must not restart the pod)', () => {
    expect(rewriteStaticPodFlags(MANIFEST, { 'node-monitor-grace-period': '20s', v: '2' })).to.equal(null);
  });

  it('drops extra flags the previous spec set and the new one does not', () => {
    const next = rewriteStaticPodFlags(MANIFEST, {}, ['v'])!;
    expect(parseStaticPodFlags(next)).to.not.have.property('v');
    expect(parseStaticPodFlags(next)['node-monitor-grace-period']).to.equal('20s');
  });

  it('throws on text that is not a static pod manifest', () => {
    expect(() => rewriteStaticPodFlags('kind: ConfigMap\n', { v: '1' })).to.throw(/spec.containers\[0\].command/);
  });
});

describe('mergeKubeletConfig', () => {
  const CONFIG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: 20\nnodeStatusUpdateFrequency: 10s\ncgroupDriver: systemd\n';

  it('sets the patched fields and keeps the others', () => {
    const next = mergeKubeletConfig(CONFIG, { apiVersion: 'x', kind: 'y', nodeLeaseDurationSeconds: 40, shutdownGracePeriod: '30s' })!;
    const config = parse(next) as Record<string, unknown>;
    expect(config).to.include({ nodeLeaseDurationSeconds: 40, shutdownGracePeriod: '30s', cgroupDriver: 'systemd', kind: 'KubeletConfiguration' });
  });

  it('removes a named field the new spec leaves unset, so the kubelet defaults it again (a 0s written by kubeadm stays)', () => {
    const previous = `${CONFIG}nodeStatusReportFrequency: 1m0s\nshutdownGracePeriod: 0s\n`;
    const config = parse(mergeKubeletConfig(previous, { nodeLeaseDurationSeconds: 20 }, ['nodeStatusReportFrequency', 'shutdownGracePeriod', 'nodeLeaseDurationSeconds'])!) as Record<string, unknown>;
    expect(config).to.not.have.property('nodeStatusReportFrequency');
    expect(config).to.include({ nodeLeaseDurationSeconds: 20, shutdownGracePeriod: '0s', nodeStatusUpdateFrequency: '10s' });
  });

  it('returns null when nothing changes', () => {
    expect(mergeKubeletConfig(CONFIG, { nodeLeaseDurationSeconds: 20, nodeStatusUpdateFrequency: '10s' })).to.equal(null);
  });
});

describe('reconfigurableInPlace', () => {
  it('allows a change of timeout settings, extra flags and kubelet fields on the same nodes', () => {
    const to = tunedSpec();
    to.settings.controllerManager.nodeMonitorGracePeriodMs = 40_000;
    expect(reconfigurableInPlace(tunedSpec(), { ...to, extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {} })).to.equal(true);
  });

  it('refuses another node count, version, image or zone layout', () => {
    expect(reconfigurableInPlace(tunedSpec(), tunedSpec({ workers: 2 }))).to.equal(false);
    expect(reconfigurableInPlace(tunedSpec(), tunedSpec({ kubernetesVersion: 'v1.33.1' }))).to.equal(false);
    expect(reconfigurableInPlace(tunedSpec(), tunedSpec({ nodeImage: 'kindest/node:v1.34.4' }))).to.equal(false);
    expect(reconfigurableInPlace(tunedSpec(), tunedSpec({ zones: [] }))).to.equal(false);
  });
});
