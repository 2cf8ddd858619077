// Issue 7 acceptance: the three shipped scripted experiments run on one real kind cluster through
// `rebootlab run <script>.ts` and write the same reports as YAML experiments; Ctrl-C during a script restores
// every fault it injected (no stopped or paused node left) and exits 130.
import { expect } from 'chai';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJournal } from '../../../lib/observe/index.js';
import type { Result } from '../../../lib/report/index.js';
import { REPO_ROOT, runCli } from '../../helpers/run-cli.js';
import { nodeContainersIn, readResult, runDirIn, waitForPhase } from '../../helpers/run-dirs.js';
import { readToolchain } from '../../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const CLUSTER = process.env.REBOOTLAB_E2E_SCRIPTS_CLUSTER ?? 'rl-api-e2e';
const REPORT_FILES = ['observations.jsonl', 'run.json', 'result.json', 'summary.md', 'report.html', 'junit.xml'];




function marks(result: Result, name: string) {
  return (result.marks ?? []).filter((m) => m.name === name);
}

describe('scripted experiments on kind (issue 7)', function () {
  this.timeout(20 * MINUTE_MS);
  const toolchain = readToolchain();
  const out = mkdtempSync(join(tmpdir(), 'rebootlab-scripts-'));
  const outFor = (name: string) => join(out, name);
  let created = false;
  /** First script creates the cluster; the others reuse it (same cluster spec in all three scripts). */
  const clusterFlags = () => {
    const flags = ['--set', `cluster.name=${CLUSTER}`, '--keep-cluster', ...(created ? ['--reuse-cluster'] : [])];
    created = true;
    return flags;
  };

  after(async function () {
    if (!process.env.REBOOTLAB_KEEP_CLUSTER) await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(out, { recursive: true, force: true });
  });

  it('rolling-reboot.ts: every worker cordoned, drained, rebooted, Ready, uncordoned; the PDB keeps 3 of 4 web pods Ready', async function () {
    const res = await runCli(['run', 'experiments/rolling-reboot.ts', '--out', outFor('rolling'), ...clusterFlags()], { timeoutMs: 15 * MINUTE_MS });
    const runDir = runDirIn(outFor('rolling'));
    for (const file of REPORT_FILES) expect(existsSync(join(runDir, file)), file).to.equal(true);
    const result = readResult(runDir);
    expect(res.exitCode, res.stderr + res.stdout).to.equal(0);
    expect(result.status).to.equal('passed');
    const web = result.workloads.find((w) => w.name === 'web')!;
    expect(web.minimumReady).to.be.at.least(3);
    expect(web.readyAtEnd).to.equal(4);
    const recovered = marks(result, 'node-recovered');
    expect(recovered.map((m) => m.nodes[0])).to.deep.equal([`${CLUSTER}-worker`, `${CLUSTER}-worker2`]);
    for (const m of recovered) {
      expect(m.detail.recoverySeconds, 'reboot → heartbeat + Ready').to.be.within(0, 120);
      expect(m.detail.evictedPods, 'pods drained').to.be.at.least(1);
    }
    expect(result.spec.fault.nodes).to.deep.equal([`${CLUSTER}-worker`, `${CLUSTER}-worker2`]);
    // The second worker is drained after time zero: its pods leave through the Eviction API, not modelled as taint evictions.
    expect(result.predictions.missed).to.deep.equal([]);
    console.log(`      recovery ${recovered.map((m) => `${m.nodes[0]} ${m.detail.recoverySeconds} s (cycle ${m.detail.cycleSeconds} s)`).join(', ')}; web minimum Ready ${web.minimumReady}/4`);
  });

  it('Ctrl-C during cloud-node-delete.ts restores the powered-off node, exits 130 and still writes the reports', async function () {
    const dir = outFor('sigint');
    const child = spawn(process.execPath, ['bin/rebootlab.js', 'run', 'experiments/cloud-node-delete.ts', '--out', dir, ...clusterFlags()], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitForPhase(dir, 'fault-injected', 6 * MINUTE_MS);
    expect(await nodeContainersIn(CLUSTER, 'exited'), 'the powered-off worker').to.have.length(1);
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).to.equal(130);
    expect(await nodeContainersIn(CLUSTER, 'exited')).to.deep.equal([]);
    expect(await nodeContainersIn(CLUSTER, 'paused')).to.deep.equal([]);
    const runDir = runDirIn(dir);
    expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(false);
    const journal = readJournal(join(runDir, 'observations.jsonl'));
    expect(journal.some((r) => r.type === 'phase' && r.phase === 'fault-restored')).to.equal(true);
    expect(journal.some((r) => r.type === 'phase' && r.phase === 'interrupted')).to.equal(true);
    expect(readResult(runDir).status).to.equal('interrupted');
  });

  it('cloud-node-delete.ts: pods evicted by the taint at about 50 s, the Node deleted at 90 s, registered again after power-on', async function () {
    const res = await runCli(['run', 'experiments/cloud-node-delete.ts', '--out', outFor('cloud'), ...clusterFlags()], { timeoutMs: 15 * MINUTE_MS });
    const result = readResult(runDirIn(outFor('cloud')));
    expect(res.exitCode, res.stderr + res.stdout).to.equal(0);
    const target = result.nodes.find((n) => n.faultTarget)!;
    // The script deletes the Node object 90 s after docker stop started (time zero), however long the command took;
    // then the delete call and its watch event.
    expect(target.deletedAfterSeconds).to.be.within(90, 92);
    expect(result.predictions.missed).to.deep.equal([]);
    expect(target.recreatedAfterSeconds).to.be.a('number');
    for (const pod of result.pods.filter((p) => p.workload === 'web')) expect(pod.outcome).to.equal('evicted-replaced');
    expect(marks(result, 'orphan-pods-gone')).to.have.length(1);
    console.log(`      NotReady ${target.notReadyAfterSeconds} s, web evicted ${result.pods.filter((p) => p.workload === 'web').map((p) => p.evictedAfterSeconds).join(', ')} s, ` +
      `Node deleted ${target.deletedAfterSeconds} s, orphans gone ${marks(result, 'orphan-pods-gone')[0].afterSeconds} s, recreated ${target.recreatedAfterSeconds} s`);
  });

  it('controller-manager-restart.ts: restarting kube-controller-manager mid-outage restarts the eviction countdown', async function () {
    const res = await runCli(['run', 'experiments/controller-manager-restart.ts', '--out', outFor('kcm'), ...clusterFlags()], { timeoutMs: 15 * MINUTE_MS });
    const result = readResult(runDirIn(outFor('kcm')));
    expect(res.exitCode, res.stderr + res.stdout).to.equal(0);
    const restarted = marks(result, 'kube-controller-manager-stopped')[0];
    expect(restarted, 'restart mark').to.not.equal(undefined);
    for (const pod of result.pods.filter((p) => p.workload === 'web')) {
      expect(pod.outcome).to.equal('evicted-replaced');
      expect(pod.evictedAfterSeconds, 'eviction after the restart, at least the toleration later').to.be.above(restarted.afterSeconds + 30);
    }
    // The old countdown died with the old leader: each eviction predicted by the new leader (from the taint its first
    // pass removed and re-added, or from that pass) and held.
    const evictions = result.predictions.items.filter((i) => i.event === 'pod-eviction' && i.pod?.startsWith('rebootlab/'));
    expect(evictions.map((i) => i.held)).to.deep.equal([true, true]);
    expect(evictions.every((i) => i.because.includes('counted by the new leader'))).to.equal(true);
    expect(result.predictions.missed).to.deep.equal([]);
    console.log(`      taint ${result.nodes.find((n) => n.faultTarget)!.noExecuteTaintAfterSeconds} s, KCM stopped ${restarted.afterSeconds} s, ` +
      `Ready again ${marks(result, 'kube-controller-manager-ready')[0]?.afterSeconds} s, web evicted ${result.pods.filter((p) => p.workload === 'web').map((p) => p.evictedAfterSeconds).join(', ')} s`);
    expect(await nodeContainersIn(CLUSTER, 'exited')).to.deep.equal([]);
  });
});

