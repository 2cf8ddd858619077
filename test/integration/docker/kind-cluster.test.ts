// The kind provider on a real kind cluster (1 control plane + 1 worker): the settings read back equal
// the ones requested, and node actions round-trip. Needs the offline node image (npm run toolchain).
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster, ClusterProvider } from '../../../lib/cluster/provider.js';
import { run } from '../../../lib/common/exec.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';
import { dockerUnavailableReason } from './helpers.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/common/versions.js';

const NODE_IMAGE = `rebootlab/node:${DEFAULT_KUBERNETES_VERSION}`;

async function skipReason(): Promise<string | null> {
  const docker = dockerUnavailableReason();
  if (docker) return docker;
  const present = await run('docker', ['image', 'inspect', '--format', '{{.Id}}', NODE_IMAGE]).then(() => true, () => false);
  return present ? null : `node image ${NODE_IMAGE} not built yet (npm run toolchain)`;
}

describe('kind provider on a real cluster (integration)', function () {
  this.timeout(600_000);
  let provider: ClusterProvider;
  let cluster: Cluster | undefined;
  let dir: string;
  const spec: ClusterSpec = {
    provider: 'kind', name: `rebootlab-it-${process.pid}`, kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: NODE_IMAGE, workers: 1,
    zones: ['zone-a'], workerLabels: {}, settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS),
    extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: ['nodeLeaseDurationSeconds', 'nodeStatusUpdateFrequency'], existing: null,
  };
  spec.settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  spec.settings.apiServer.defaultUnreachableTolerationSeconds = 30;
  spec.settings.kubelet.nodeLeaseDurationSeconds = 20;
  spec.settings.kubelet.nodeStatusUpdateFrequencyMs = 4_000;
  // Not written: the kubelet defaults nodeStatusReportFrequency to nodeStatusUpdateFrequency when only that one is
  // set (pkg/kubelet/apis/config/v1beta1/defaults.go, v1.34.4), which configz must show.
  spec.settings.kubelet.nodeStatusReportFrequencyMs = 4_000;

  before(async function () {
    const reason = await skipReason();
    if (reason) {
      console.log(`    skipped: ${reason}`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-it-kind-'));
    // Imported here, not at the top: it loads @kubernetes/client-node, and a load failure must fail
    // this test only, not every file of the run.
    const { createKindProvider } = await import('../../../lib/cluster/kind/provider.js');
    provider = createKindProvider({ clusterDir: dir });
    cluster = await provider.create(spec, { step: () => {} });
    const { waitForNodesReady } = await import('../../../lib/cluster/wait-nodes.js');
    await waitForNodesReady(cluster.kubeconfigPath, 2, 300_000);
  });

  after(async () => {
    if (cluster) await provider.delete(spec.name).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the cluster and its nodes with roles and addresses', async () => {
    expect(await provider.list()).to.include(spec.name);
    const nodes = await cluster!.nodes();
    expect(nodes.map((n) => [n.name, n.role])).to.deep.equal([[`${spec.name}-control-plane`, 'control-plane'], [`${spec.name}-worker`, 'worker']]);
    expect(nodes.every((n) => n.internalIP !== null)).to.equal(true);
  });

  it('reads back the requested settings from the static pods and kubelet configz, nodeStatusReportFrequency defaulted by the kubelet to the 4 s nodeStatusUpdateFrequency', async () => {
    const effective = await cluster!.effectiveSettings();
    expect(effective.missing).to.deep.equal([]);
    expect(effective.settings).to.deep.equal(spec.settings);
    expect(Object.keys(effective.kubeletConfigs)).to.have.length(2);
  });

  it('pauses and unpauses the worker', async () => {
    const worker = `${spec.name}-worker`;
    const undo = await cluster!.act(worker, 'pause');
    expect(await run('docker', ['inspect', '--format', '{{.State.Status}}', worker])).to.equal('paused');
    await undo();
    expect(await run('docker', ['inspect', '--format', '{{.State.Status}}', worker])).to.equal('running');
  });

  it('stops and starts the kubelet inside the worker', async () => {
    const worker = `${spec.name}-worker`;
    const active = () => run('docker', ['exec', worker, 'systemctl', 'is-active', 'kubelet']).catch(() => 'inactive');
    const undo = await cluster!.act(worker, 'stop-kubelet');
    expect(await active()).to.equal('inactive');
    await undo();
    expect(await active()).to.equal('active');
  });

  it('disconnects the worker from the kind network and reconnects it with the same IP', async () => {
    const worker = `${spec.name}-worker`;
    const undo = await cluster!.act(worker, 'disconnect');
    expect(undo.record!.ipAfter).to.equal(null);
    await undo();
    expect(undo.record!.ipAfterUndo).to.equal(undo.record!.ipBefore);
  });

  it('deletes the Node object and restarts the kubelet so it registers again', async () => {
    const worker = `${spec.name}-worker`;
    const { waitForNodesReady } = await import('../../../lib/cluster/wait-nodes.js');
    const undo = await cluster!.act(worker, 'delete-node-object');
    await undo();
    await waitForNodesReady(cluster!.kubeconfigPath, 2, 120_000);
  });

  it('deploys a StatefulSet with a hostPath volume, waits until ready, and keeps the data marker', async function () {
    const image = 'rebootlab/workload:v1';
    const worker = `${spec.name}-worker`;
    const inNode = await run('docker', ['exec', worker, 'ctr', '-n', 'k8s.io', 'images', 'ls', '-q'])
      .then((out) => out.includes('rebootlab/workload:v1'), () => false);
    if (!inNode) {
      const onHost = await run('docker', ['image', 'inspect', '--format', '{{.Id}}', image]).then(() => true, () => false);
      if (!onHost) {
        console.log(`    skipped: ${image} is neither in the node image nor on the host`);
        this.skip();
      }
      const { kindBinary } = await import('../../../lib/cluster/kind/tools.js');
      await run(kindBinary(), ['load', 'docker-image', image, '--name', spec.name], { timeoutMs: 300_000 });
    }
    const { loadKubeConfig } = await import('../../../lib/cluster/kube-client.js');
    const w = await import('../../../lib/workloads/index.js');
    const kc = loadKubeConfig(cluster!.kubeconfigPath);
    const workload = {
      name: 'db', kind: 'StatefulSet' as const, replicas: 1, placement: 'target' as const, image, tolerations: null, requiredNodeLabels: {},
      volume: { type: 'hostPath' as const, size: '16Mi' }, dataProbe: true, podDisruptionBudget: null,
      service: null, readinessProbe: null, livenessProbe: null, failReadiness: null, failLiveness: null, terminationGracePeriodSeconds: 5, manifest: null, job: null, selected: null,
    };
    await w.applyWorkloads(kc, [workload], { targetNodes: [worker] });
    await w.waitForWorkloadsReady(kc, [workload], { timeoutMs: 180_000 });
    const marker = await w.writeDataMarker(kc, 'db');
    const result = await w.readDataMarker(kc, 'db', marker);
    expect(result.outcome).to.equal('kept');
    expect(result.pods.map((p) => p.node)).to.deep.equal([worker]);
  });
});
