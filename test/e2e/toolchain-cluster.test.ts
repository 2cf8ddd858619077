// Issue 2 acceptance on a real kind cluster built by the offline toolchain: kind-config.yaml (1 control
// plane + 3 workers) comes up with every node and CoreDNS Ready, pods spread and talk across workers,
// and the node faults rebootlab relies on (docker restart, docker pause) behave as Kubernetes predicts.
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { readToolchain } from '../helpers/toolchain.js';
import { collectionOf, watchList } from '../../lib/cluster/index.js';

const CLUSTER = 'rebootlab-e2e-toolchain';
const NAMESPACE = 'default';
const MINUTE_MS = 60_000;

type Node = k8s.V1Node;
type Pod = k8s.V1Pod;
const readyStatus = (node: Node) => node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const podReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('offline toolchain: a real kind cluster (issue 2)', function () {
  this.timeout(15 * MINUTE_MS);
  const toolchain = readToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-e2e-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const kc = new k8s.KubeConfig();
  let createStartedAtMs = 0;

  before(async function () {
    await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER]);
    createStartedAtMs = Date.now();
    await execa(toolchain.kind, ['create', 'cluster', '--name', CLUSTER, '--config', 'kind-config.yaml',
      '--image', toolchain.nodeImage, '--kubeconfig', kubeconfigPath, '--wait', '0s']);
    kc.loadFromFile(kubeconfigPath);
  });

  after(async function () {
    if (!process.env.REBOOTLAB_KEEP_CLUSTER) await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    rmSync(dir, { recursive: true, force: true });
  });

  it('brings 4 nodes and CoreDNS to Ready within 4 minutes of the create command', async function () {
    const deadline = () => Math.max(1, createStartedAtMs + 4 * MINUTE_MS - Date.now());
    await watchList(kc, collectionOf(kc, 'Node'), (nodes) => nodes.size === 4 && [...nodes.values()].every((n) => readyStatus(n) === 'True'),
      { timeoutMs: deadline(), what: '4 Ready nodes', describe: (nodes) => [...nodes.values()].map((n) => `${n.metadata?.name}=${readyStatus(n)}`).join(' ') });
    const dns = await watchList(kc, collectionOf(kc, 'Pod', { namespace: 'kube-system' }),
      (pods) => { const c = [...pods.values()].filter((p) => p.metadata?.labels?.['k8s-app'] === 'kube-dns'); return c.length > 0 && c.every(podReady); },
      { timeoutMs: deadline(), what: 'CoreDNS Ready' });
    expect([...dns.values()].filter((p) => p.metadata?.labels?.['k8s-app'] === 'kube-dns')).to.have.length(2);
    console.log(`      cluster Ready ${((Date.now() - createStartedAtMs) / 1000).toFixed(1)} s after kind create`);
  });

  it('runs a 6-replica Deployment spread 2 per worker, Ready within 4 minutes of the create command', async function () {
    await k8s.KubernetesObjectApi.makeApiClient(kc).create(spreadDeployment('spread', 6));
    const pods = await watchList(kc, collectionOf(kc, 'Pod', { namespace: NAMESPACE }),
      (all) => [...all.values()].filter((p) => p.metadata?.labels?.app === 'spread' && podReady(p)).length === 6,
      { timeoutMs: Math.max(1, createStartedAtMs + 4 * MINUTE_MS - Date.now()), what: '6 Ready pods of Deployment spread' });
    const perNode = countBy([...pods.values()].map((p) => p.spec?.nodeName ?? ''));
    expect(Object.keys(perNode)).to.have.length(3);
    expect(Object.values(perNode)).to.deep.equal([2, 2, 2]);
    console.log(`      Deployment Ready ${((Date.now() - createStartedAtMs) / 1000).toFixed(1)} s after kind create`);
  });

  it('lets a pod on one worker reach a pod on another worker by pod IP', async function () {
    const pods = await listPods(kc, 'spread');
    const from = pods[0];
    const to = pods.find((p) => p.spec?.nodeName !== from.spec?.nodeName)!;
    const out = await execInPod(kc, from, ['/rebootlab-workload', 'get', `http://${to.status?.podIP}:8080/`]);
    expect(out).to.contain(`pod=${to.metadata?.name}`);
  });

  it('after docker restart of a worker, the node is Ready again and its pods run in place (same names, restartCount +1) within 2 minutes', async function () {
    const worker = `${CLUSTER}-worker`;
    const before = (await listPods(kc, 'spread')).filter((p) => p.spec?.nodeName === worker);
    expect(before).to.have.length(2);
    const restartedAtMs = Date.now();
    await execa('docker', ['restart', worker]);
    const after = await watchList(kc, collectionOf(kc, 'Pod', { namespace: NAMESPACE }), (all) => before.every((old) => {
      const now = all.get(`${NAMESPACE}/${old.metadata?.name}`);
      return now !== undefined && podReady(now) && restarts(now) === restarts(old) + 1;
    }), { timeoutMs: 2 * MINUTE_MS, what: `pods on ${worker} Ready again with restartCount +1` });
    for (const old of before) {
      const now = after.get(`${NAMESPACE}/${old.metadata?.name}`)!;
      expect(now.metadata?.uid).to.equal(old.metadata?.uid);
      expect(now.spec?.nodeName).to.equal(worker);
    }
    const nodes = await watchList(kc, collectionOf(kc, 'Node'), (all) => readyStatus(all.get(worker)!) === 'True', { timeoutMs: 2 * MINUTE_MS, what: `${worker} Ready` });
    expect(readyStatus(nodes.get(worker)!)).to.equal('True');
    console.log(`      pods Ready in place ${((Date.now() - restartedAtMs) / 1000).toFixed(1)} s after docker restart`);
  });

  it('after docker pause of a worker for 70 s, its Ready condition goes Unknown, then True after unpause', async function () {
    const worker = `${CLUSTER}-worker2`;
    const pausedAtMs = Date.now();
    await execa('docker', ['pause', worker]);
    try {
      // Default node-monitor-grace-period is 50 s on 1.34 (KEP-4662); allow for the 5 s monitor period.
      await watchList(kc, collectionOf(kc, 'Node'), (all) => readyStatus(all.get(worker)!) === 'Unknown', { timeoutMs: 70_000, what: `${worker} Ready=Unknown` });
      const unknownAfterMs = Date.now() - pausedAtMs;
      expect(unknownAfterMs).to.be.within(40_000, 70_000);
      console.log(`      Ready=Unknown ${(unknownAfterMs / 1000).toFixed(1)} s after docker pause`);
      await new Promise((r) => setTimeout(r, Math.max(0, pausedAtMs + 70_000 - Date.now())));
    } finally {
      await execa('docker', ['unpause', worker]);
    }
    await watchList(kc, collectionOf(kc, 'Node'), (all) => readyStatus(all.get(worker)!) === 'True', { timeoutMs: MINUTE_MS, what: `${worker} Ready=True after unpause` });
  });
});

function spreadDeployment(name: string, replicas: number): k8s.V1Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: NAMESPACE, labels },
    spec: {
      replicas, selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 5,
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', nodeTaintsPolicy: 'Honor', labelSelector: { matchLabels: labels } }],
          containers: [{ name: 'app', image: 'docker.io/rebootlab/workload:v1', imagePullPolicy: 'IfNotPresent',
            readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1 } }],
        },
      },
    },
  };
}

async function listPods(kc: k8s.KubeConfig, app: string): Promise<Pod[]> {
  const list = await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: NAMESPACE, labelSelector: `app=${app}` });
  return list.items;
}

const restarts = (pod: Pod) => pod.status?.containerStatuses?.[0]?.restartCount ?? 0;

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** Runs a command in the pod's first container through the exec API and returns its stdout. */
async function execInPod(kc: k8s.KubeConfig, pod: Pod, command: string[]): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    new k8s.Exec(kc)
      .exec(pod.metadata!.namespace!, pod.metadata!.name!, pod.spec!.containers[0].name, command, stdout, stderr, null, false, (status) => {
        status.status === 'Success' ? resolve() : reject(new Error(`${command.join(' ')} in ${pod.metadata?.name} failed: ${status.message ?? ''} ${err}`));
      })
      .catch(reject);
  });
  return out;
}
