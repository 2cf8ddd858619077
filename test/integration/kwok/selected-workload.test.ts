// Issue 14 item 4 on a real API server (kwok: simulated kubelets, real controllers): a Deployment the test creates
// in its own namespace before the run is the experiment's workload through `{name, namespace, selector}`. rebootlab
// reads its pods and controller, never creates or deletes them; the power-off of the worker with most of them evicts
// those pods (taint eviction, 30 s toleration) and the ReplicaSet replaces them, as for a built-in Deployment.
import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result, RunInfo } from '../../../lib/report/index.js';
import { evictionDelayBounds } from '../../helpers/mechanism-bounds.js';
import { runCli } from '../../helpers/run-cli.js';

const CLUSTER = 'rebootlab-it-selected';

describe('a workload of pods already running (namespace + selector) on kwok', function () {
  this.timeout(8 * 60_000);
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-selected-'));
  const out = join(dir, 'out');
  const file = join(dir, 'selected.yaml');
  writeFileSync(file, [
    'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: selected-shop}',
    `cluster: {provider: kwok, name: ${CLUSTER}, workers: 2, controllerManager: {nodeMonitorGracePeriod: 20s}, apiServer: {defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30}, kubelet: {nodeLeaseDurationSeconds: 20}}`,
    'workloads:', '  - {name: shop, namespace: shop, selector: "app=shop"}',
    'fault: {type: power-off, target: worker-with-most-pods, duration: 70s}',
    'observe: {until: recovered, timeout: 5m, settle: 5s}',
    'expect:', '  - workloads.shop.recovered == true', '  - workloads.shop.readyAtFault == 3', '',
  ].join('\n'));
  let apps: k8s.AppsV1Api;
  let core: k8s.CoreV1Api;

  before(async function () {
    const created = await runCli(['cluster', 'create', '--experiment', file], { timeoutMs: 3 * 60_000 });
    expect(created.exitCode, created.stderr).to.equal(0);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(/kubeconfig: (\S+)/.exec(created.stdout)![1]!);
    apps = kc.makeApiClient(k8s.AppsV1Api);
    core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'shop' } } });
    await apps.createNamespacedDeployment({
      namespace: 'shop',
      body: {
        metadata: { name: 'shop', labels: { app: 'shop' } },
        spec: {
          replicas: 3, selector: { matchLabels: { app: 'shop' } },
          template: {
            metadata: { labels: { app: 'shop' } },
            // Simulated pods: the image never runs.
            spec: { containers: [{ name: 'shop', image: 'shop:v1' }] },
          },
        },
      },
    });
    for (let i = 0; i < 120; i++) {
      const d = await apps.readNamespacedDeployment({ name: 'shop', namespace: 'shop' });
      if (d.status?.readyReplicas === 3) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect.fail('Deployment shop/shop not ready within 60 s');
  });

  after(async function () {
    // By name alone, as the kept-cluster line tells a user: not a kind cluster, so found among the kwok ones.
    const deleted = await runCli(['cluster', 'delete', CLUSTER], { timeoutMs: 60_000 });
    expect(deleted.stdout).to.contain(`deleted ${CLUSTER} (kwok)`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('its pods on the target are evicted and replaced from their own ReplicaSet; the Deployment and its namespace stay', async function () {
    const before = await apps.readNamespacedDeployment({ name: 'shop', namespace: 'shop' });
    const res = await runCli(['run', file, '--reuse-cluster', '--keep-cluster', '--out', out], { timeoutMs: 6 * 60_000 });
    const [run] = readdirSync(out);
    const result = JSON.parse(readFileSync(join(out, run!, 'result.json'), 'utf8')) as Result;
    const info = JSON.parse(readFileSync(join(out, run!, 'run.json'), 'utf8')) as RunInfo;
    expect(res.exitCode, res.stdout + res.stderr).to.equal(0);
    expect(result.status).to.equal('passed');
    // Kind and desired pods read from the controller (the ReplicaSet's Deployment) at the start of the run.
    expect(info.workloads).to.deep.equal([{ name: 'shop', kind: 'Deployment', desiredReplicas: 3, selector: { namespace: 'shop', matchLabels: { app: 'shop' } } }]);
    const target = result.nodes.find((n) => n.faultTarget)!;
    const shop = result.pods.filter((p) => p.workload === 'shop');
    expect(shop.map((p) => p.namespace)).to.deep.equal(['shop', 'shop', 'shop']);
    const onTarget = shop.filter((p) => p.nodeBefore === target.name);
    // worker-with-most-pods counted the selected pods: the target holds at least 2 of the 3.
    expect(onTarget.length).to.be.at.least(2);
    for (const pod of onTarget) {
      expect(pod.outcome, pod.name).to.equal('evicted-replaced');
      expect(pod.replacement!.name.startsWith(pod.name.replace(/-[a-z0-9]{5}$/, '-')), `${pod.replacement!.name} from the ReplicaSet of ${pod.name}`).to.equal(true);
      expect(pod.evictedAfterSeconds! - target.noExecuteTaintAfterSeconds!).to.be.within(...evictionDelayBounds(30));
    }
    const [timeline] = result.workloads;
    expect(timeline).to.deep.include({ name: 'shop', kind: 'Deployment', desired: 3, readyAtFault: 3, readyAtEnd: 3, recovered: true });
    // rebootlab never deleted what it did not create: the Deployment is the same object, its namespace still there.
    const after = await apps.readNamespacedDeployment({ name: 'shop', namespace: 'shop' });
    expect(after.metadata!.uid).to.equal(before.metadata!.uid);
    expect(after.status?.readyReplicas).to.equal(3);
    expect((await core.readNamespace({ name: 'shop' })).status?.phase).to.equal('Active');
    console.log(`      kwok: ${onTarget.length} shop pods on ${target.name} evicted after ${onTarget.map((p) => p.evictedAfterSeconds).join(', ')} s, taint at ${target.noExecuteTaintAfterSeconds} s`);
  });
});
