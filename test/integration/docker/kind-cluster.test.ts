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

const NODE_IMAGE = 'rebootlab/node:v1.34.4';

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
    provider: 'kind', name: `rebootlab-it-${process.pid}`, kubernetesVersion: 'v1.34.4', nodeImage: NODE_IMAGE, workers: 1,
    zones: ['zone-a'], settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS),
    extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {},
  };
  spec.settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  spec.settings.apiServer.defaultUnreachableTolerationSeconds = 30;
  spec.settings.kubelet.nodeLeaseDurationSeconds = 20;
  spec.settings.kubelet.nodeStatusUpdateFrequencyMs = 4_000;

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

  it('reads back the requested settings from the static pods and kubelet configz', async () => {
    // The kubelets answer configz only once registered; give them time.
    let effective = await cluster!.effectiveSettings();
    for (let i = 0; i < 60 && effective.missing.some((m) => m.startsWith('kubelet.')); i++) {
      await new Promise((r) => setTimeout(r, 2_000));
      effective = await cluster!.effectiveSettings();
    }
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
});
