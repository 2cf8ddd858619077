// Issue 11 acceptance: rebootlab touches only clusters it created. A cluster made by hand with
// `kind create cluster --name foreign` is refused by `cluster delete`, by `run --reuse-cluster`, by `cluster create`
// and by a pending-restore.json naming its nodes (its control plane, paused by the test, stays paused), is not
// listed, and still runs afterwards. One cluster, deleted in after().
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { nodeContainersIn } from '../helpers/run-dirs.js';
import { readToolchain } from '../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const FOREIGN = 'foreign';
const REFUSAL = `ERROR: cluster ${FOREIGN} was not created by rebootlab; use kind delete cluster --name ${FOREIGN}\n`;

describe('a cluster rebootlab did not create is never touched (issue 11)', function () {
  this.timeout(20 * MINUTE_MS);
  const toolchain = readToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-foreign-'));
  const kubeconfig = join(dir, 'kubeconfig');

  before(async function () {
    await execa(toolchain.kind, ['delete', 'cluster', '--name', FOREIGN], { reject: false });
    // Plain kind, one node; from Kubernetes v1.35 the kubelet needs failCgroupV1: false on a cgroup v1 host.
    const config = join(dir, 'kind.yaml');
    writeFileSync(config, 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nkubeadmConfigPatches:\n  - |\n    kind: KubeletConfiguration\n    failCgroupV1: false\n');
    await execa(toolchain.kind, ['create', 'cluster', '--name', FOREIGN, '--image', toolchain.nodeImage, '--config', config, '--kubeconfig', kubeconfig, '--wait', '0s']);
  });

  after(async function () {
    await execa('docker', ['unpause', `${FOREIGN}-control-plane`], { reject: false });
    await execa(toolchain.kind, ['delete', 'cluster', '--name', FOREIGN], { reject: false });
    rmSync(dir, { recursive: true, force: true });
  });

  /** The foreign cluster is intact: its node container runs and its API server answers. */
  async function expectStillRunning(): Promise<void> {
    const { stdout: clusters } = await execa(toolchain.kind, ['get', 'clusters']);
    expect(clusters.split('\n')).to.include(FOREIGN);
    expect(await nodeContainersIn(FOREIGN, 'exited')).to.deep.equal([]);
    const { stdout } = await execa('kubectl', ['--kubeconfig', kubeconfig, 'get', '--raw', '/readyz'], { timeout: 60_000 });
    expect(stdout).to.equal('ok');
  }

  it('cluster delete foreign (positional and --name): refused with one line; cluster list does not show it', async () => {
    for (const args of [['cluster', 'delete', FOREIGN], ['cluster', 'delete', '--name', FOREIGN]]) {
      const res = await runCli(args, { timeoutMs: MINUTE_MS });
      expect(res.exitCode).to.equal(2);
      expect(res.stderr).to.equal(REFUSAL);
    }
    const list = await runCli(['cluster', 'list'], { timeoutMs: MINUTE_MS });
    expect(list.exitCode, list.stderr).to.equal(0);
    expect(list.stdout).to.not.match(new RegExp(`\\t${FOREIGN}$`, 'm'));
    await expectStillRunning();
  });

  it('run --reuse-cluster and cluster create with its name: refused with one line, before anything is rewritten', async () => {
    const file = join(dir, 'reuse.yaml');
    writeFileSync(file, [
      'apiVersion: rebootlab.dev/v1alpha1', 'kind: Experiment', 'metadata: {name: reuse-foreign}',
      `cluster: {name: ${FOREIGN}, workers: 1}`, 'fault: {type: freeze, duration: 5s}', '',
    ].join('\n'));
    const run = await runCli(['run', file, '--out', join(dir, 'out'), '--reuse-cluster', '--keep-cluster'], { timeoutMs: 2 * MINUTE_MS });
    expect(run.exitCode).to.equal(2);
    expect(run.stderr).to.equal(REFUSAL);
    const create = await runCli(['cluster', 'create', FOREIGN], { timeoutMs: MINUTE_MS });
    expect(create.exitCode).to.equal(2);
    expect(create.stderr).to.equal(REFUSAL);
    await expectStillRunning();
  });

  it('a pending-restore.json naming its nodes is refused: doctor --restore runs nothing and exits non-zero', async () => {
    const node = `${FOREIGN}-control-plane`;
    await execa('docker', ['pause', node]);
    const runDir = join(dir, 'reports', 'x-20261201T000000Z', 'x--type-freeze-r0');
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, 'pending-restore.json'), JSON.stringify({
      pid: 999_999_999,
      writtenAtMs: 0,
      entries: [{ label: `pause ${node}`, nodes: [node], commands: [['docker', 'unpause', node]] }],
    }));
    const doctor = await runCli(['doctor', '--restore', '--reports', join(dir, 'reports')], { timeoutMs: 2 * MINUTE_MS });
    // The file names a command rebootlab refuses to run: bad input (exit 2, issue 27), not an infrastructure failure.
    expect(doctor.exitCode, doctor.stderr).to.equal(2);
    // One ERROR line naming the refused command, then the line saying what to do (lib/cli/print-error.ts).
    expect(doctor.stderr).to.match(new RegExp(`^ERROR: restore failed: .*refused: cluster ${FOREIGN} was not created by rebootlab.*\nThen: restore by hand, then delete .*pending-restore\.json\n$`));
    expect(doctor.stdout).to.contain(`restore failed: ${runDir}: docker unpause ${node}: refused: cluster ${FOREIGN} was not created by rebootlab; use kind delete cluster --name ${FOREIGN}`);
    expect(await nodeContainersIn(FOREIGN, 'paused'), 'rebootlab did not unpause it').to.deep.equal([node]);
    expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(true);
    await execa('docker', ['unpause', node]);
    await expectStillRunning();
  });
});
