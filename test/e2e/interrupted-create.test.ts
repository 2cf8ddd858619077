// A cluster creation cut short leaves nothing rebootlab refuses to delete. `rebootlab cluster create` is killed with
// its whole process group (kind with it, as a CI timeout or `kill -9` of a terminal's job does) once kind has made
// its first node container, so no cleanup of rebootlab or kind runs: `rebootlab cluster list` still shows the
// half-made cluster as rebootlab's and `rebootlab cluster delete` removes every container of it (5 Dec 2026 it was
// refused as "not created by rebootlab", and only plain kind could remove it).
import { expect } from 'chai';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { REPO_ROOT, runCli } from '../helpers/run-cli.js';
import { readToolchain } from '../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const CLUSTER = 'rl-e2e-cut-short';

/** Names of the node containers Docker has for kind cluster `name`, in any state. */
async function nodeContainers(name: string): Promise<string[]> {
  const { stdout } = await execa('docker', ['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${name}`, '--format', '{{.Names}}']);
  return stdout.split('\n').filter((l) => l.length > 0).sort();
}

describe('a cluster creation cut short can still be deleted by rebootlab', function () {
  this.timeout(10 * MINUTE_MS);
  const toolchain = readToolchain();

  before(async () => {
    await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
  });
  after(async () => {
    await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
  });

  it('cluster create killed with kind mid-way: cluster list shows it and cluster delete removes every node container', async function () {
    const child = spawn(process.execPath, ['bin/rebootlab.js', 'cluster', 'create', CLUSTER, '--set', 'cluster.workers=2'], { cwd: REPO_ROOT, stdio: 'ignore', detached: true });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const deadline = Date.now() + 5 * MINUTE_MS;
    let made: string[] = [];
    while (made.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      made = await nodeContainers(CLUSTER);
    }
    expect(made, 'kind made a node container within 5 min').to.not.deep.equal([]);
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    const left = await nodeContainers(CLUSTER);
    expect(left, 'the half-made cluster is left behind (the case under test)').to.not.deep.equal([]);

    const list = await runCli(['cluster', 'list'], { timeoutMs: MINUTE_MS });
    expect(list.exitCode, list.stderr).to.equal(0);
    expect(list.stdout).to.match(new RegExp(`\\b${CLUSTER}\\b`));
    const deleted = await runCli(['cluster', 'delete', CLUSTER], { timeoutMs: 5 * MINUTE_MS });
    expect(deleted.exitCode, deleted.stderr).to.equal(0);
    expect(await nodeContainers(CLUSTER)).to.deep.equal([]);
    console.log(`      killed with ${left.length} node container(s) made (${left.join(', ')}); rebootlab cluster delete removed them`);
  });
});
