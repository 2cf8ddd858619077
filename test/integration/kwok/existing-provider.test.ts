// Issue 14: the existing provider against a real API server (a kwok cluster rebootlab made, used through its
// kubeconfig only). kwok runs its control plane as processes and simulates kubelets, so nothing can be read back:
// every source is listed as unread and cluster.assume fills the settings. API actions and the command backend act
// with their undo handed out first; a `rebootlab` namespace someone else made is refused; delete removes ours.
import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowFaultsOn, createExistingProvider, type ExistingCluster } from '../../../lib/cluster/existing/index.js';
import { createKwokProvider } from '../../../lib/cluster/kwok/index.js';
import type { ActionRecord, Undo } from '../../../lib/cluster/provider.js';
import { InputError } from '../../../lib/common/errors.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/common/versions.js';

describe('provider existing on a kwok cluster, through its kubeconfig only (issue 14)', function () {
  this.timeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-existing-it-'));
  const kwok = createKwokProvider({ clusterDir: dir });
  const kwokSpec: ClusterSpec = {
    provider: 'kwok', name: 'existing-it', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: 2, zones: [], workerLabels: {},
    settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS), extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
  let kubeconfig = '';
  let context = '';
  let core: k8s.CoreV1Api;
  const existing = createExistingProvider({ env: { ...process.env, REBOOTLAB_CACHE: dir } });
  const assumed = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  assumed.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  const spec = (): ClusterSpec => ({ ...kwokSpec, provider: 'existing', name: context, settings: assumed, existing: { kubeconfig, context } });

  before(async function () {
    const cluster = await kwok.create(kwokSpec, { step: () => {} });
    kubeconfig = cluster.kubeconfigPath;
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    context = kc.getCurrentContext();
    core = kc.makeApiClient(k8s.CoreV1Api);
  });

  it('refuses a context the command line did not consent to, before reading the cluster', async function () {
    await existing.create(spec(), { step: () => expect.fail('read the cluster') }).then(() => expect.fail('attached'), (error: unknown) => {
      expect(error).to.be.instanceOf(InputError);
      expect((error as Error).message).to.equal(`cluster.context ${context} is a cluster rebootlab does not own; run again with --allow-faults-on ${context}`);
    });
    allowFaultsOn(context);
  });

  after(async function () {
    await kwok.delete(kwokSpec.name).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a rebootlab namespace it did not create, with one line', async function () {
    await core.createNamespace({ body: { metadata: { name: 'rebootlab' } } });
    try {
      await existing.create(spec(), { step: () => {} }).then(() => expect.fail('attached'), (error: unknown) => {
        expect(error).to.be.instanceOf(InputError);
        expect((error as Error).message).to.equal(`namespace rebootlab on context ${context} was not created by rebootlab (no app.kubernetes.io/managed-by=rebootlab label); rebootlab deletes it after a run, so rename yours first`);
      });
    } finally {
      await core.deleteNamespace({ name: 'rebootlab' });
    }
  });

  it('attaches: lists what it could not read and takes cluster.assume for it; nodes from the API', async function () {
    // The namespace deleted above may still be terminating: wait until it is gone.
    for (let i = 0; i < 60 && (await core.listNamespace({ fieldSelector: 'metadata.name=rebootlab' })).items.length > 0; i++) await new Promise((r) => setTimeout(r, 500));
    const steps: string[] = [];
    const cluster = (await existing.create(spec(), { step: (m) => steps.push(m) })) as ExistingCluster;
    expect(steps[0]).to.equal(`using existing cluster of context ${context} (${kubeconfig}); it is not created, reconfigured or deleted`);
    expect(steps[1]).to.match(/^could not read kube-apiserver flags \(no static pod in kube-system\); kube-controller-manager flags \(no static pod in kube-system\); kubelet configz of /);
    const settings = await cluster.effectiveSettings();
    expect(settings.settings.controllerManager.nodeMonitorGracePeriodMs).to.equal(20_000);
    expect(settings.missing).to.include('controllerManager.nodeMonitorGracePeriodMs');
    const nodes = await cluster.nodes();
    expect(nodes.map((n) => n.role)).to.include('worker');
    expect(nodes.length).to.be.at.least(2);
  });

  it('cordon through the API: the undo is handed out before acting and uncordons', async function () {
    const cluster = (await existing.attach(context)) as ExistingCluster;
    const node = (await cluster.nodes()).find((n) => n.role === 'worker')!.name;
    let handed: Undo | null = null;
    let unschedulableWhenHanded: boolean | undefined;
    const undo = await cluster.act(node, 'cordon', {
      beforeAct: async (u) => {
        handed = u;
        unschedulableWhenHanded = (await core.readNode({ name: node })).spec?.unschedulable;
      },
    });
    expect(handed).to.equal(undo);
    expect(unschedulableWhenHanded).to.not.equal(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).to.equal(true);
    await undo();
    expect((await core.readNode({ name: node })).spec?.unschedulable ?? false).to.equal(false);
  });

  it('command backend: on is registered before off runs, both filled from the Node object', async function () {
    const cluster = (await existing.attach(context)) as ExistingCluster;
    const node = (await cluster.nodes()).find((n) => n.role === 'worker')!.name;
    const log = join(dir, 'power.log');
    const acting = cluster.withBackend({ kind: 'command', off: `echo off {node} >> ${log}`, on: `echo on {node} >> ${log}` });
    let record: ActionRecord | null = null;
    let logWhenHanded: string | null = null;
    const undo = await acting.act(node, 'stop', { beforeAct: (_u, r) => { record = r; logWhenHanded = existsSync(log) ? readFileSync(log, 'utf8') : ''; } });
    expect(logWhenHanded).to.equal('');
    expect(record!.restoreCommands).to.deep.equal([['rebootlab-user-undo', context, `echo on {node} >> ${log}`, node, '', '', record!.ipBefore ?? '']]);
    await undo();
    expect(readFileSync(log, 'utf8')).to.equal(`off ${node}\non ${node}\n`);
    await acting.act(node, 'stop-kubelet').then(() => expect.fail('acted'), (e: unknown) => expect((e as Error).message).to.equal(`stop-kubelet cannot be done on existing cluster ${context} by this fault backend`));
  });

  it('delete removes only the rebootlab namespace; the cluster and its nodes stay', async function () {
    await core.createNamespace({ body: { metadata: { name: 'rebootlab', labels: { 'app.kubernetes.io/managed-by': 'rebootlab' } } } });
    await existing.delete(context);
    expect((await core.listNamespace({ fieldSelector: 'metadata.name=rebootlab' })).items).to.deep.equal([]);
    expect((await core.listNode()).items.length).to.be.at.least(2);
  });
});
