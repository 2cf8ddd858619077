// provider existing and fault.backend: validation (one line per issue, naming the field) and resolution.
import { expect } from 'chai';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadExperimentText } from '../../../lib/spec/load.js';
import { inputIssuesOf } from '../../helpers/input-issues.js';

const head = ['apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: x}'];
const cluster = 'cluster: {provider: existing, kubeconfig: ./kc, context: prod}';

function issuesOf(lines: string[]): string[] {
  return inputIssuesOf(() => loadExperimentText('dir/e.yaml', [...head, ...lines].join('\n')));
}

describe('spec: provider existing and fault.backend', () => {
  it('resolves an existing cluster: kubeconfig against the file, settings from cluster.assume, the command backend', () => {
    const loaded = loadExperimentText('dir/e.yaml', [...head,
      'cluster: {provider: existing, kubeconfig: ./kc, context: prod, assume: {controllerManager: {nodeMonitorGracePeriod: 40s}}}',
      'fault: {type: power-off, duration: 30s, backend: {command: {off: "virsh destroy {node}", on: "virsh start {node}"}}}'].join('\n'));
    const { cluster: c, fault } = loaded.experiment;
    expect(c.provider).to.equal('existing');
    expect(c.name).to.equal('prod');
    expect(c.existing).to.deep.equal({ kubeconfig: join(process.cwd(), 'dir', 'kc'), context: 'prod' });
    expect(c.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(40_000);
    expect(fault.backend).to.deep.equal({ kind: 'command', off: 'virsh destroy {node}', on: 'virsh start {node}' });
  });

  it('expands ~/ in the kubeconfig path and defaults the agent image', () => {
    const loaded = loadExperimentText('e.yaml', [...head, 'cluster: {provider: existing, kubeconfig: ~/.kube/config, context: c}', 'fault: {type: kubelet-stop, duration: 10s, backend: agent}'].join('\n'));
    expect(loaded.experiment.cluster.existing!.kubeconfig).to.equal(join(homedir(), '.kube/config'));
    expect(loaded.experiment.fault.backend).to.deep.equal({ kind: 'agent', image: 'debian:bookworm-slim', healAfterMs: 10_000 });
  });

  it('refuses an attachable volume: rebootlab deploys its CSI driver only on kind clusters it creates (case C18)', () => {
    expect(issuesOf([cluster, 'workloads: [{name: db, kind: StatefulSet, volume: {type: attachable}}]', 'fault: {type: power-off, duration: 30s, backend: {command: {off: a, on: b}}}'])).to.deep.equal([
      'dir/e.yaml:5:58: workloads[0].volume.type: attachable volumes come from rebootlab\'s own CSI driver, which it deploys only on kind clusters it creates; use provider kind, or a workload manifest with your cluster\'s own StorageClass',
    ]);
  });

  it('a command backend without on: one line naming the field', () => {
    expect(issuesOf([cluster, 'fault: {type: power-off, duration: 30s, backend: {command: {off: "virsh destroy {node}"}}}'])).to.deep.equal([
      'dir/e.yaml:5:51: fault.backend.command: on is required: the command that brings the node back, registered as the undo before off runs',
    ]);
  });

  it('refuses create-only fields, a missing backend, an unknown placeholder and a fault the backend cannot do', () => {
    expect(issuesOf(['cluster: {provider: existing, kubeconfig: ./kc, context: prod, workers: 3}', 'fault: {type: power-off, duration: 30s}'])).to.deep.equal([
      'dir/e.yaml:4:64: cluster.workers: provider existing never creates or reconfigures the cluster; remove it',
      'dir/e.yaml:5:8: fault: fault.backend is required with provider existing: agent (a privileged pod on the node) or {command: {off, on}} (your power commands)',
    ]);
    expect(issuesOf([cluster, 'fault: {type: power-off, duration: 30s, backend: {command: {off: "stop {name}", on: "start {node}"}}}'])).to.deep.equal([
      'dir/e.yaml:5:66: fault.backend.command.off: unknown placeholder {name}; use {node}, {providerID}, {zone}, {internalIP}',
    ]);
    expect(issuesOf([cluster, 'fault: {type: freeze, duration: 30s, backend: agent}'])).to.deep.equal([
      'dir/e.yaml:5:15: fault.type: freeze cannot be done by backend agent (it does reboot, kubelet-stop, kubelet-restart, runtime-stop, network-partition)',
    ]);
    expect(issuesOf([cluster, 'fault: {type: kubelet-stop, duration: 30s, backend: {command: {off: a, on: b}}}'])).to.deep.equal([
      'dir/e.yaml:5:15: fault.type: kubelet-stop cannot be done by backend command (it does power-off, node-delete); use backend agent',
    ]);
  });

  it('a backend or kubeconfig on kind is refused', () => {
    expect(issuesOf(['cluster: {kubeconfig: ./kc}', 'fault: {type: reboot, backend: agent}'])).to.deep.equal([
      'dir/e.yaml:4:11: cluster.kubeconfig: is for provider existing; provider kind creates its own cluster',
      'dir/e.yaml:5:23: fault.backend: is for provider existing; provider kind acts on its nodes itself',
    ]);
  });

  it('requires kubeconfig and context', () => {
    expect(issuesOf(['cluster: {provider: existing}', 'fault: {type: reboot, backend: agent}'])).to.deep.equal([
      'dir/e.yaml:4:10: cluster: cluster.kubeconfig is required with provider existing (the kubeconfig file of your cluster)',
      'dir/e.yaml:4:10: cluster: cluster.context is required with provider existing (the context in it to use)',
    ]);
  });
});

describe('spec: workloads of pods already running (namespace + selector)', () => {
  const fault = 'fault: {type: kubelet-stop, duration: 20s, backend: agent}';

  it('resolves to the namespace and labels, with nothing for rebootlab to create', () => {
    const loaded = loadExperimentText('dir/e.yaml', [...head, cluster, fault, 'workloads:', '  - {name: shop, namespace: shop, selector: "app=web, tier==front"}',
      'expect: ["pods[workload=shop].outcome == unaffected", "workloads.shop.recovered == true"]'].join('\n'));
    const [w] = loaded.experiment.workloads;
    expect(w!.selected).to.deep.equal({ namespace: 'shop', matchLabels: { app: 'web', tier: 'front' } });
    expect(w!.manifest).to.equal(null);
  });

  it('one line per bad field: selector without namespace, namespace rebootlab, a part that is not key=value, built-in fields, manifest as well', () => {
    expect(issuesOf([cluster, fault, 'workloads:',
      '  - {name: a, selector: "app=a"}',
      '  - {name: b, namespace: rebootlab, selector: "app=b"}',
      '  - {name: c, namespace: shop, selector: "app in (c)"}',
      '  - {name: d, namespace: shop, selector: "app=d", replicas: 2}',
      '  - {name: e, namespace: shop, selector: "app=e", manifest: e.yaml}',
      '  - {name: f, namespace: shop}',
    ])).to.deep.equal([
      'dir/e.yaml:7:5: workloads[0]: selector needs namespace: the namespace the pods run in',
      'dir/e.yaml:8:26: workloads[1].namespace: rebootlab is the namespace rebootlab creates and deletes with everything in it; follow pods of another namespace',
      'dir/e.yaml:9:42: workloads[2].selector: "app in (c)" is not key=value; write e.g. "app=web" or "app=web,tier=front"',
      'dir/e.yaml:10:51: workloads[3].replicas: is for built-in workloads; pods already running take their shape from their controller',
      'dir/e.yaml:11:51: workloads[4].manifest: is for your own manifest; with namespace and selector, rebootlab follows pods already running',
      'dir/e.yaml:12:5: workloads[5]: namespace needs selector: the labels of the pods to follow, e.g. selector: "app=web"',
    ]);
  });
});
