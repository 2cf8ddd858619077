import { expect } from 'chai';
import { apiServerArgs, controllerManagerArgs, etcdArgs, kwokArgs, schedulerArgs } from '../../../../lib/cluster/kwok/flags.js';
import { loadExperimentText } from '../../../../lib/spec/load.js';
import { files, kwokSpec } from './fixtures.js';

const ports = { etcdClient: 2379, etcdPeer: 2380, apiServer: 6443 };
const noScale = { unlimitedQps: false };

describe('kwok component flags', () => {
  it('passes every controller-manager timeout setting with its Kubernetes flag name and unit', () => {
    const args = controllerManagerArgs(kwokSpec(), files, noScale);
    expect(args).to.include.members([
      '--node-monitor-period=2s', '--node-monitor-grace-period=20s', '--node-startup-grace-period=1m0s',
      '--node-eviction-rate=0.5', '--secondary-node-eviction-rate=0.01', '--unhealthy-zone-threshold=0.55',
      '--large-cluster-size-threshold=50', '--leader-elect=false', '--v=2',
    ]);
    expect(args.some((a) => a.startsWith('--kube-api-qps'))).to.equal(false);
  });

  it('passes the default toleration seconds to the apiserver, bound to loopback', () => {
    const args = apiServerArgs(kwokSpec(), files, ports, noScale);
    expect(args).to.include.members([
      '--default-not-ready-toleration-seconds=300', '--default-unreachable-toleration-seconds=30',
      '--bind-address=127.0.0.1', '--secure-port=6443', '--etcd-servers=http://127.0.0.1:2379',
    ]);
  });

  it('runs no endpoint reconciler: from v1.37 the lease reconciler refuses the loopback advertise address', () => {
    expect(apiServerArgs(kwokSpec(), files, ports, noScale)).to.include.members(['--advertise-address=127.0.0.1', '--endpoint-reconciler-type=none']);
  });

  it('lets extraArgs override a rendered flag (last one wins)', () => {
    const spec = kwokSpec({ extraArgs: { controllerManager: {}, apiServer: { 'secure-port': '7443' }, scheduler: {} } });
    const args = apiServerArgs(spec, files, ports, noScale);
    expect(args.filter((a) => a.startsWith('--secure-port='))).to.deep.equal(['--secure-port=7443']);
  });

  it('lifts QPS limits only when asked', () => {
    expect(schedulerArgs(kwokSpec(), files, { unlimitedQps: true })).to.include('--kube-api-qps=5000');
    expect(apiServerArgs(kwokSpec(), files, ports, { unlimitedQps: true })).to.include('--enable-priority-and-fairness=false');
  });

  it('passes cluster.controllerManager.kubeAPIQPS/kubeAPIBurst as --kube-api-qps/--kube-api-burst, over the lifted limits', () => {
    const spec = loadExperimentText('e.yaml', 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\ncluster:\n  provider: kwok\n  nodes: 1000\n  controllerManager: {kubeAPIQPS: 300, kubeAPIBurst: 600}\nfault: {type: node-delete}\n').experiment.cluster;
    for (const scale of [noScale, { unlimitedQps: true }]) {
      const args = controllerManagerArgs(spec, files, scale);
      expect(args.filter((a) => a.startsWith('--kube-api-'))).to.deep.equal(['--kube-api-qps=300', '--kube-api-burst=600']);
    }
  });

  it('gives kwok the lease duration and the label selector it manages nodes by', () => {
    expect(kwokArgs(kwokSpec(), files)).to.include.members([
      '--node-lease-duration-seconds=20', '--manage-nodes-with-label-selector=rebootlab.dev/kwok-heartbeat=on',
    ]);
  });

  it('keeps etcd on loopback', () => {
    expect(etcdArgs(files, ports)).to.include.members(['--listen-client-urls=http://127.0.0.1:2379', '--listen-peer-urls=http://127.0.0.1:2380']);
  });
});
