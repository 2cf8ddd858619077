// Issue 12: every shipped experiment file (experiments/*.yaml) that `npm test` does not already run (reboot-quick:
// readme-fresh-clone; outage-tuned: run-experiments), run end to end as written: the kind ones back to back on one
// 2-worker kind cluster (each run reconfigures its flags in place), the kwok ones on simulated clusters of their
// own. Each asserts exit code 0 (every expectation of the file, `count(predictions.missed) == 0` included), an
// empty `predictions.missed` in every result.json, and that predictions were made at all. About 40 minutes idle:
// `npm run test:shipped`, outside `.ci/run` like the catalog.
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../../../lib/report/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { nodeContainersIn, resultsIn } from '../../helpers/run-dirs.js';
import { readToolchain } from '../../helpers/toolchain.js';
import { detectionBounds, evictionDelayBounds } from '../../helpers/mechanism-bounds.js';

const MINUTE_MS = 60_000;
const KIND_CLUSTER = 'rl-shipped-e2e';

describe('shipped experiments end to end, as written (issue 12)', function () {
  this.timeout(25 * MINUTE_MS);
  const toolchain = readToolchain();
  const out = mkdtempSync(join(tmpdir(), 'rebootlab-shipped-'));
  const deleteKind = () => execa(toolchain.kind, ['delete', 'cluster', '--name', KIND_CLUSTER], { reject: false });

  /**
   * Runs `experiments/<name>.yaml` (extra CLI arguments appended), asserts exit 0 and no missed prediction in any
   * of its `runs` result.json files, and returns them.
   */
  async function run(name: string, runs: number, extra: string[], timeoutMs: number): Promise<Result[]> {
    const dir = join(out, name);
    const res = await runCli(['run', `experiments/${name}.yaml`, '--out', dir, ...extra], { timeoutMs });
    expect(res.exitCode, `${name}: ${res.stdout.slice(-4000)}\n${res.stderr}`).to.equal(0);
    const results = resultsIn(dir);
    expect(results, `${name}: result.json files`).to.have.length(runs);
    for (const r of results) {
      expect(r.predictions.missed, `${name}: missed predictions`).to.deep.equal([]);
      expect(r.forecast?.frozen, `${name}: forecast frozen before the fault`).to.equal('journal');
      expect(r.forecast?.missed, `${name}: missed forecast items`).to.deep.equal([]);
      expect(r.predictions.predictedCount, `${name}: predictions made`).to.be.greaterThan(0);
      expect(r.predictions.heldCount).to.equal(r.predictions.predictedCount);
    }
    const held = results.reduce((sum, r) => sum + r.predictions.heldCount, 0);
    console.log(`      ${name}: ${results.length} run(s), ${held} / ${held} predictions held`);
    return results;
  }

  after(async function () {
    await deleteKind();
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(out, { recursive: true, force: true });
  });

  describe('kind: one 2-worker cluster, reconfigured in place by each experiment', function () {
    const onShared = ['--set', `cluster.name=${KIND_CLUSTER}`, '--reuse-cluster', '--keep-cluster'];
    before(() => deleteKind());

    it('node-delete-tuned: the Node object deleted, its pods removed by PodGC after the 40 s quarantine and replaced; the standalone pod lost', async function () {
      const [r] = await run('node-delete-tuned', 1, onShared, 10 * MINUTE_MS);
      expect(r!.pods.filter((p) => p.workload === 'solo').map((p) => p.outcome)).to.deep.equal(['evicted-lost']);
      expect(await nodeContainersIn(KIND_CLUSTER, 'exited'), 'stopped nodes left').to.deep.equal([]);
    });

    it('grace-matrix: power-off with node-monitor-grace-period 20 s and 40 s, two repeats each; NotReady within each run\'s grace + monitor passes', async function () {
      const results = await run('grace-matrix', 4, onShared, 24 * MINUTE_MS);
      const byGrace = (seconds: number) => results.filter((r) => r.spec.settings.controllerManager.nodeMonitorGracePeriodMs === seconds * 1000);
      expect(byGrace(20)).to.have.length(2);
      expect(byGrace(40)).to.have.length(2);
      for (const r of results) expect(r.nodes.find((n) => n.faultTarget)!.notReadyAfterSeconds!).to.be.within(...detectionBounds(r));
      expect(await nodeContainersIn(KIND_CLUSTER, 'exited'), 'stopped nodes left').to.deep.equal([]);
    });

    it('outage-default: Kubernetes defaults (grace 50 s, tolerations 300 s): pods evicted about 300 s after the taint and replaced', async function () {
      const [r] = await run('outage-default', 1, onShared, 14 * MINUTE_MS);
      const target = r!.nodes.find((n) => n.faultTarget)!;
      for (const pod of r!.pods.filter((p) => p.workload === 'web' && p.nodeBefore === target.name)) {
        expect(pod.evictedAfterSeconds! - target.noExecuteTaintAfterSeconds!).to.be.within(...evictionDelayBounds(300));
      }
      expect(await nodeContainersIn(KIND_CLUSTER, 'exited'), 'stopped nodes left').to.deep.equal([]);
    });
  });

  describe('kwok: simulated clusters, one per experiment', function () {
    /** Each kwok experiment names its own cluster; a run deletes it at the end unless kept. */
    const kwok = (name: string, minutes: number) => run(name, 1, [], minutes * MINUTE_MS);

    it('zone-partial-disruption: 3 of 4 workers of one zone down, the zone PartialDisruption at rate 0: at most one taint', async function () {
      const [r] = await kwok('zone-partial-disruption', 8);
      expect(r!.nodes.filter((n) => n.faultTarget && n.noExecuteTaintAfterSeconds !== null).length).to.be.at.most(1);
      expect(r!.predictions.zoneStates.map((z) => z.state)).to.include('PartialDisruption');
    });

    it('full-disruption-multi-zone: every node of zone-a down while zone-b is healthy: zone-a tainted at the primary rate', async function () {
      const [r] = await kwok('full-disruption-multi-zone', 10);
      expect(r!.nodes.filter((n) => n.faultTarget && n.noExecuteTaintAfterSeconds !== null)).to.have.length(3);
    });

    it('eviction-rate-large-zone: 10 of 100 workers down: ten taints one --node-eviction-rate token (10 s) apart', async function () {
      const [r] = await kwok('eviction-rate-large-zone', 12);
      const taints = r!.nodes.filter((n) => n.faultTarget).map((n) => n.noExecuteTaintAfterSeconds!).sort((a, b) => a - b);
      expect(taints).to.have.length(10);
      // Each token 10 s after the previous one was taken; the write follows within the 0.1 s tainting loop and up to
      // 1 s of API latency, and timeAdded is truncated to the second: gaps in [10 − 1 − 1, 10 + 0.1 + 1 + 1].
      for (let i = 1; i < taints.length; i += 1) expect(taints[i]! - taints[i - 1]!).to.be.within(8, 12.1);
    });
  });
});
