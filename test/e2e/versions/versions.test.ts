// Issue 25: the same experiments on every supported Kubernetes version other than the recorded v1.34 — reboot-quick,
// outage-tuned, node-delete-tuned and the staggered-workers catalog experiment on kind, zone-partial-disruption on
// kwok — each on v1.35.4, v1.36.3 and v1.37.2 (REBOOTLAB_TEST_VERSIONS="v1.36.3 v1.37.2" picks others). Each asserts
// exit code 0 (every expectation of the file), no missed prediction in any result.json, that predictions were made,
// and that the cluster really ran that version (the API server's /version, the kubelets' kubeletVersion).
// `npm run test:versions`, outside `.ci/run`: about 20 minutes per version idle; each version must be built first
// (`npm run toolchain -- --kubernetes all`).
import * as k8s from '@kubernetes/client-node';
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from '../../../lib/common/cache.js';
import type { Result } from '../../../lib/report/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { nodeContainersIn, resultsIn } from '../../helpers/run-dirs.js';
import { readToolchain } from '../../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const VERSIONS = (process.env['REBOOTLAB_TEST_VERSIONS'] ?? 'v1.35.4 v1.36.3 v1.37.2').split(/[\s,]+/).filter(Boolean);

/** The server version and every kubelet's version of the kind cluster `name` (its rebootlab kubeconfig). */
async function clusterVersions(name: string): Promise<{ server: string; kubelets: string[] }> {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(join(cacheDir(), 'clusters', `${name}.kubeconfig`));
  const server = (await kc.makeApiClient(k8s.VersionApi).getCode()).gitVersion;
  const nodes = await kc.makeApiClient(k8s.CoreV1Api).listNode();
  return { server, kubelets: nodes.items.map((n) => n.status?.nodeInfo?.kubeletVersion ?? '') };
}

for (const version of VERSIONS) {
  describe(`Kubernetes ${version} (issue 25)`, function () {
    this.timeout(25 * MINUTE_MS);
    const toolchain = readToolchain(version);
    const out = mkdtempSync(join(tmpdir(), `rebootlab-versions-${version}-`));
    const minor = version.split('.')[1];
    const shared = `rl-ver-${minor}`;
    const staggered = `rl-ver-${minor}-3w`;
    const deleteKind = (name: string) => execa(toolchain.kind, ['delete', 'cluster', '--name', name], { reject: false });

    /** Runs `<file>` on `version` (extra CLI arguments appended); asserts exit 0, predictions made and none missed. */
    async function run(file: string, extra: string[], timeoutMs: number): Promise<Result> {
      const dir = join(out, file.replace(/[/.]/g, '_'));
      const res = await runCli(['run', file, '--out', dir, '--set', `cluster.kubernetesVersion=${version}`, ...extra], { timeoutMs });
      expect(res.exitCode, `${file} on ${version}: ${res.stdout.slice(-4000)}\n${res.stderr.slice(-2000)}`).to.equal(0);
      const results = resultsIn(dir);
      expect(results, `${file}: result.json files`).to.have.length(1);
      const [r] = results as [Result];
      expect(r.spec.cluster.kubernetesVersion).to.equal(version);
      expect(r.predictions.missed, `${file} on ${version}: missed predictions (${dir})`).to.deep.equal([]);
      expect(r.predictions.predictedCount, `${file}: predictions made`).to.be.greaterThan(0);
      console.log(`      ${file} on ${version}: ${r.predictions.heldCount} / ${r.predictions.predictedCount} predictions held`);
      return r;
    }

    after(async function () {
      await deleteKind(shared);
      await deleteKind(staggered);
      if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(out, { recursive: true, force: true });
    });

    describe('kind: one 2-worker cluster, reconfigured in place by each experiment', function () {
      const onShared = ['--set', `cluster.name=${shared}`, '--keep-cluster'];
      before(() => deleteKind(shared));
      after(() => deleteKind(shared));

      it('reboot-quick: the node is back before the grace period; pods restart in place; the cluster runs this version', async function () {
        await run('experiments/reboot-quick.yaml', onShared, 10 * MINUTE_MS);
        const { server, kubelets } = await clusterVersions(shared);
        expect(server).to.equal(version);
        expect(kubelets).to.have.length(3);
        for (const kubelet of kubelets) expect(kubelet).to.equal(version);
      });

      it('outage-tuned: NotReady, NoExecute eviction 30 s after the taint, replaced; the standalone pod lost', async function () {
        const r = await run('experiments/outage-tuned.yaml', [...onShared, '--reuse-cluster'], 12 * MINUTE_MS);
        expect(r.pods.filter((p) => p.workload === 'solo').map((p) => p.outcome)).to.deep.equal(['evicted-lost']);
        expect(await nodeContainersIn(shared, 'exited'), 'stopped nodes left').to.deep.equal([]);
      });

      it('node-delete-tuned: the Node object deleted, its pods removed by PodGC and replaced', async function () {
        const r = await run('experiments/node-delete-tuned.yaml', [...onShared, '--reuse-cluster'], 12 * MINUTE_MS);
        expect(r.pods.filter((p) => p.workload === 'solo').map((p) => p.outcome)).to.deep.equal(['evicted-lost']);
        expect(await nodeContainersIn(shared, 'exited'), 'stopped nodes left').to.deep.equal([]);
      });
    });

    describe('kind: a 3-worker cluster', function () {
      before(() => deleteKind(staggered));

      it('staggered-workers (catalog C9): three workers powered off 15 s apart, each taint and eviction predicted', async function () {
        await run('experiments/catalog/staggered-workers.yaml', ['--set', `cluster.name=${staggered}`], 14 * MINUTE_MS);
        expect(await nodeContainersIn(staggered, 'exited'), 'stopped nodes left').to.deep.equal([]);
      });
    });

    describe('kwok: the real control plane of this version with simulated nodes', function () {
      it('zone-partial-disruption: 3 of 4 workers of one zone down, PartialDisruption at rate 0: at most one taint', async function () {
        const r = await run('experiments/zone-partial-disruption.yaml', [], 8 * MINUTE_MS);
        expect(r.nodes.filter((n) => n.faultTarget && n.noExecuteTaintAfterSeconds !== null).length).to.be.at.most(1);
        expect(r.predictions.zoneStates.map((z) => z.state)).to.include('PartialDisruption');
      });
    });
  });
}
