import { expect } from 'chai';
import { parseConfigz, parseStaticPodFlags, toEffectiveSettings } from '../../../lib/cluster/effective-settings.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';

const CONTROLLER_MANAGER_MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager
  namespace: kube-system
spec:
  containers:
  - command:
    - kube-controller-manager
    - --allocate-node-cidrs=true
    - --node-monitor-grace-period=20s
    - --node-monitor-period=500ms
    - --node-eviction-rate=0.5
    - --enable-hostpath-provisioner=true
    - --use-service-account-credentials
    image: registry.k8s.io/kube-controller-manager:v1.34.4
    name: kube-controller-manager
`;

describe('parseStaticPodFlags', () => {
  it('maps --name=value and bare --flag from the container command', () => {
    const flags = parseStaticPodFlags(CONTROLLER_MANAGER_MANIFEST);
    expect(flags['node-monitor-grace-period']).to.equal('20s');
    expect(flags['use-service-account-credentials']).to.equal('true');
    expect(flags).to.not.have.property('kube-controller-manager');
  });

  it('rejects a document that is not a Pod', () => {
    expect(() => parseStaticPodFlags('kind: Service\n')).to.throw('not a Pod manifest');
  });
});

describe('toEffectiveSettings', () => {
  const kubelet = (lease: number) => ({ nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m0s', nodeLeaseDurationSeconds: lease, shutdownGracePeriod: '0s', shutdownGracePeriodCriticalPods: '0s' });

  it('reads flags and kubelet configs into milliseconds and seconds', () => {
    const result = toEffectiveSettings(
      parseStaticPodFlags(CONTROLLER_MANAGER_MANIFEST),
      { 'default-unreachable-toleration-seconds': '30', 'default-not-ready-toleration-seconds': '300' },
      { 'kind-worker': kubelet(20), 'kind-control-plane': kubelet(20) },
    );
    expect(result.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
    expect(result.settings.controllerManager.nodeMonitorPeriodMs).to.equal(500);
    expect(result.settings.controllerManager.nodeEvictionRate).to.equal(0.5);
    expect(result.settings.apiServer.defaultUnreachableTolerationSeconds).to.equal(30);
    expect(result.settings.kubelet.nodeLeaseDurationSeconds).to.equal(20);
    expect(result.settings.kubelet.nodeStatusReportFrequencyMs).to.equal(300_000);
    expect(result.inconsistent).to.deep.equal([]);
  });

  it('fills absent flags with the 1.34 defaults and lists them as missing', () => {
    const result = toEffectiveSettings({}, {}, {});
    expect(result.settings).to.deep.equal(DEFAULT_TIMEOUT_SETTINGS);
    expect(result.missing).to.include('controllerManager.nodeMonitorGracePeriodMs');
    expect(result.missing).to.include('kubelet.nodeLeaseDurationSeconds');
    expect(result.missing).to.have.length(14);
  });

  it('reads --kube-api-qps and --kube-api-burst when set; absent they stay unset (the component defaults) and are not missing', () => {
    const set = toEffectiveSettings({ 'kube-api-qps': '200', 'kube-api-burst': '400' }, {}, {});
    expect(set.settings.controllerManager).to.include({ kubeAPIQPS: 200, kubeAPIBurst: 400 });
    const unset = toEffectiveSettings({}, {}, {});
    expect(unset.settings.controllerManager).to.not.have.any.keys('kubeAPIQPS', 'kubeAPIBurst');
    expect(unset.missing.filter((m) => m.includes('kubeAPI'))).to.deep.equal([]);
  });

  it('flags kubelets that disagree and keeps the first node by name', () => {
    const result = toEffectiveSettings({}, {}, { 'b-worker': kubelet(40), 'a-worker': kubelet(20) });
    expect(result.settings.kubelet.nodeLeaseDurationSeconds).to.equal(20);
    expect(result.inconsistent).to.deep.equal(['kubelet.nodeLeaseDurationSeconds']);
  });
});

describe('parseConfigz', () => {
  it('returns the kubeletconfig object', () => {
    expect(parseConfigz('{"kubeletconfig":{"nodeLeaseDurationSeconds":40}}')).to.deep.equal({ nodeLeaseDurationSeconds: 40 });
  });
});
