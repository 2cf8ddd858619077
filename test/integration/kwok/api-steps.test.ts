// Issue 28 item 4 against a real API server (a kwok cluster: kube-apiserver, kube-controller-manager with its disruption
// controller, simulated kubelets): label-node / unlabel-node put back what they changed; evict-pods and drain go
// through the Eviction API, a PodDisruptionBudget's refusal (HTTP 429) is an outcome with its attempts, not an error;
// drain cordons and its undo uncordons. Each action's undo is handed out before the node is touched.
import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKwokProvider } from '../../../lib/cluster/kwok/index.js';
import type { ActionRecord, Cluster, EvictionAttempt, Undo } from '../../../lib/cluster/provider.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/common/versions.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';

const NS = 'api-steps';

describe('API steps on a kwok cluster: labels, the Eviction API and PodDisruptionBudgets (issue 28)', function () {
  this.timeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-api-steps-'));
  const kwok = createKwokProvider({ clusterDir: dir });
  const spec: ClusterSpec = {
    provider: 'kwok', name: 'api-steps', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: 2, zones: [], workerLabels: { 'rebootlab.dev/pool': 'blue' },
    settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS), extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
  let cluster: Cluster;
  let core: k8s.CoreV1Api;
  let worker = '';

  /** Acts with the undo captured before acting, as the fault guard registers it. */
  async function act(action: Parameters<Cluster['act']>[1], args: Parameters<Cluster['act']>[3], evictions: EvictionAttempt[] = []) {
    let handed: { undo: Undo; record: ActionRecord } | null = null;
    const undo = await cluster.act(worker, action, { beforeAct: (u, record) => void (handed = { undo: u, record: { ...record } }), onEviction: (a) => evictions.push(a) }, args);
    expect(handed, 'undo handed out before acting').to.not.equal(null);
    return { undo, before: handed!.record };
  }
  const label = async (key: string) => (await core.readNode({ name: worker })).metadata?.labels?.[key];
  async function waitFor(what: string, done: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  before(async function () {
    cluster = await kwok.create(spec, { step: () => {} });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    core = kc.makeApiClient(k8s.CoreV1Api);
    worker = (await cluster.nodes()).find((n) => n.role === 'worker')!.name;
    await core.createNamespace({ body: { metadata: { name: NS } } });
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const labels = { app: 'web' };
    await apps.createNamespacedDeployment({
      namespace: NS,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2, selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              nodeName: worker, containers: [{ name: 'web', image: 'fake' }],
            },
          },
        },
      },
    });
    await kc.makeApiClient(k8s.PolicyV1Api).createNamespacedPodDisruptionBudget({ namespace: NS, body: { metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: labels } } } });
    const policy = kc.makeApiClient(k8s.PolicyV1Api);
    await waitFor('2 Ready pods and a PDB that allows no disruption', async () => {
      const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'web', namespace: NS });
      return pdb.status?.currentHealthy === 2 && pdb.status?.disruptionsAllowed === 0;
    });
  });

  after(async function () {
    await kwok.delete(spec.name).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('workers register with cluster.workerLabels', async function () {
    expect(await label('rebootlab.dev/pool')).to.equal('blue');
  });

  it('unlabel-node removes a label; its undo (and restore command) puts the old value back', async function () {
    const { undo, before } = await act('unlabel-node', { label: { key: 'rebootlab.dev/pool', value: '' } });
    expect(before.labelBefore).to.deep.equal({ key: 'rebootlab.dev/pool', value: 'blue' });
    expect(before.restoreCommands).to.deep.equal([['kubectl', '--kubeconfig', cluster.kubeconfigPath, 'label', 'node', worker, 'rebootlab.dev/pool=blue', '--overwrite']]);
    expect(await label('rebootlab.dev/pool')).to.equal(undefined);
    await undo();
    expect(await label('rebootlab.dev/pool')).to.equal('blue');
  });

  it('label-node sets a new label; its undo removes it again (it was absent)', async function () {
    const { undo, before } = await act('label-node', { label: { key: 'disk', value: 'ssd' } });
    expect(before.labelBefore).to.deep.equal({ key: 'disk', value: null });
    expect(before.restoreCommands).to.deep.equal([['kubectl', '--kubeconfig', cluster.kubeconfigPath, 'label', 'node', worker, 'disk-']]);
    expect(await label('disk')).to.equal('ssd');
    await undo();
    expect(await label('disk')).to.equal(undefined);
  });

  it('evict-pods: the PodDisruptionBudget refuses (429) each pod once; an outcome, not an error', async function () {
    const evictions: EvictionAttempt[] = [];
    await act('evict-pods', { pods: { namespace: NS, matchLabels: { app: 'web' } }, retryForMs: 0 }, evictions);
    const final = evictions.filter((e) => e.final);
    expect(final.map((e) => [e.outcome, e.attempts, e.refusals])).to.deep.equal([['refused', 1, 1], ['refused', 1, 1]]);
    expect(final[0]!.message).to.match(/disruption budget/);
    // The first refusal of each pod is reported at once, before its final record.
    expect(evictions.filter((e) => !e.final).map((e) => e.refusals)).to.deep.equal([1, 1]);
    expect((await core.listNamespacedPod({ namespace: NS })).items.filter((p) => !p.metadata?.deletionTimestamp)).to.have.length(2);
  });

  it('drain cordons, retries the refusals every 5 s until its time is up, and its undo uncordons', async function () {
    const evictions: EvictionAttempt[] = [];
    const { undo, before } = await act('drain', { pods: { namespace: null, matchLabels: {} }, retryForMs: 6_000 }, evictions);
    expect(before.restoreCommands).to.deep.equal([['kubectl', '--kubeconfig', cluster.kubeconfigPath, 'uncordon', worker]]);
    expect((await core.readNode({ name: worker })).spec?.unschedulable).to.equal(true);
    const final = evictions.filter((e) => e.final && e.namespace === NS);
    expect(final.map((e) => [e.outcome, e.attempts])).to.deep.equal([['refused', 2], ['refused', 2]]);
    expect(final[0]!.lastAttemptAtMs - final[0]!.firstAttemptAtMs).to.be.within(4_900, 6_000);
    await undo();
    expect((await core.readNode({ name: worker })).spec?.unschedulable).to.not.equal(true);
  });

  it('evict-pods once the budget allows it: evicted (HTTP 201)', async function () {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    await kc.makeApiClient(k8s.PolicyV1Api).deleteNamespacedPodDisruptionBudget({ name: 'web', namespace: NS });
    const evictions: EvictionAttempt[] = [];
    await act('evict-pods', { pods: { namespace: NS, matchLabels: { app: 'web' } }, retryForMs: 0 }, evictions);
    expect(evictions.filter((e) => e.final).map((e) => [e.outcome, e.attempts, e.refusals])).to.deep.equal([['evicted', 1, 0], ['evicted', 1, 0]]);
  });
});
