// Issue 28: a kill -9 during a graceful node shutdown (fault type shutdown on kind) leaves nothing behind once
// `rebootlab doctor --restore` ran: the node container runs again AND its Docker restart policy is the one it had
// before the fault (the action sets it to no while the node is powered off; pending-restore.json puts it back).
// Cheap by design: ONE kind cluster (1 worker, shutdownGracePeriod 10 s) made by `rebootlab cluster create`, reused
// with --reuse-cluster, deleted in after(). A private REBOOTLAB_CACHE (the toolchain linked in) keeps this file's
// ownership records and last --out apart from other runs on the machine: doctor --restore restores, with force, every
// pending-restore.json under the last --out remembered in the cache.
import { expect } from 'chai';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from '../../lib/cluster/index.js';
import { REPO_ROOT, runCli, type CliResult } from '../helpers/run-cli.js';
import { nodeContainersIn, waitForPhaseUnder } from '../helpers/run-dirs.js';
import { readToolchain } from '../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const CLUSTER = 'rebootlab-e2e-shutdown-restore';

/** The experiment: a shutdown lasting 10 minutes, so the kill -9 always lands mid-fault. */
function experimentYaml(name: string): string {
  return [
    'apiVersion: rebootlab.dev/v1alpha1',
    'kind: Experiment',
    `metadata: {name: ${name}}`,
    `cluster: {name: ${CLUSTER}, workers: 1, kubelet: {shutdownGracePeriod: 10s, shutdownGracePeriodCriticalPods: 5s}}`,
    'workloads:',
    '  - {name: web, kind: Deployment, replicas: 1, placement: target}',
    'fault: {type: shutdown, target: worker-with-most-pods, duration: 10m}',
    'observe: {until: recovered, timeout: 15m}',
    '',
  ].join('\n');
}

/** `<Name> <MaximumRetryCount>` of a container's Docker restart policy, as `docker inspect` prints them. */
async function restartPolicy(container: string): Promise<string> {
  const { stdout } = await execa('docker', ['inspect', '--format', '{{.HostConfig.RestartPolicy.Name}} {{.HostConfig.RestartPolicy.MaximumRetryCount}}', container]);
  return stdout.trim();
}

/** The worker node containers of the cluster. */
async function workers(): Promise<string[]> {
  const { stdout } = await execa('docker', ['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${CLUSTER}`, '--filter', 'label=io.x-k8s.kind.role=worker', '--format', '{{.Names}}']);
  return stdout.split('\n').filter(Boolean).sort();
}

describe('a kill -9 during a shutdown fault, then doctor --restore (issue 28)', function () {
  this.timeout(30 * MINUTE_MS);
  const toolchain = readToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-shutdown-restore-'));
  const cache = join(dir, 'cache');
  const env = { ...process.env, REBOOTLAB_CACHE: cache, NO_COLOR: '1' };
  let policyBefore: Record<string, string> = {};

  before(async function () {
    this.timeout(15 * MINUTE_MS);
    // The toolchain (kind, node image, Kubernetes binaries) of the machine's cache; clusters/ and last-out our own.
    mkdirSync(cache);
    for (const shared of ['bin', 'toolchain', 'modules']) {
      if (existsSync(join(cacheDir(), shared))) symlinkSync(join(cacheDir(), shared), join(cache, shared));
    }
    const file = join(dir, 'cluster.yaml');
    writeFileSync(file, experimentYaml('cluster'));
    const res = await runCli(['cluster', 'create', '--experiment', file], { timeoutMs: 12 * MINUTE_MS, env });
    expect(res.exitCode, res.stderr + res.stdout).to.equal(0);
    policyBefore = Object.fromEntries(await Promise.all((await workers()).map(async (w) => [w, await restartPolicy(w)] as const)));
  });

  after(async function () {
    this.timeout(5 * MINUTE_MS);
    const res = await runCli(['cluster', 'delete', CLUSTER], { timeoutMs: 4 * MINUTE_MS, env });
    if (res.exitCode !== 0) await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(dir, { recursive: true, force: true });
  });

  it('the node runs again under the restart policy it had before the fault (kind: on-failure 1)', async function () {
    const [worker] = await workers();
    if (worker === undefined) throw new Error(`no worker node container in kind cluster ${CLUSTER}`);
    expect(policyBefore[worker], 'kind\'s nodes have a restart policy to turn off').to.be.a('string').and.not.match(/^(no|) /);
    const name = 'kill-shutdown';
    const file = join(dir, `${name}.yaml`);
    const out = join(dir, name);
    writeFileSync(file, experimentYaml(name));
    const child = spawn(process.execPath, ['bin/rebootlab.js', 'run', file, '--out', out, '--reuse-cluster', '--keep-cluster'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    try {
      await killedMidShutdownThenRestored(worker, out, exited, () => output, (signal) => child.kill(signal));
    } finally {
      // A failed check must not leave the run going (it would hold the fault for 10 minutes): SIGINT restores it.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    }
  });

  /** The checks of the test above, from the start of the run to after doctor --restore. */
  async function killedMidShutdownThenRestored(worker: string, out: string, exited: Promise<NodeJS.Signals | null>, output: () => string, kill: (signal: NodeJS.Signals) => void): Promise<void> {
    // The fault is in place once the node container stopped after the poweroff.
    const runDir = await waitForPhaseUnder(out, 'fault-injected', 1, 8 * MINUTE_MS).catch((error: Error) => {
      throw new Error(`${error.message}; the run printed: ${output().slice(-3000)}`);
    });
    expect(await nodeContainersIn(CLUSTER, 'exited'), 'the target is powered off').to.deep.equal([worker]);
    expect(await restartPolicy(worker), 'restart policy off during the fault').to.equal('no 0');
    const pending = JSON.parse(readFileSync(join(runDir, 'pending-restore.json'), 'utf8')) as { entries: { commands: string[][] }[] };
    const [name0, count] = policyBefore[worker]!.split(' ');
    const recorded = name0 === 'on-failure' && count !== '0' ? `${name0}:${count}` : name0;
    // The policy goes back first, then the node starts: one entry, the fault's.
    expect(pending.entries.map((e) => e.commands)).to.deep.equal([[['docker', 'update', `--restart=${recorded}`, worker], ['docker', 'start', worker]]]);

    kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');
    expect(await nodeContainersIn(CLUSTER, 'exited'), 'kill -9 restores nothing').to.deep.equal([worker]);
    expect(await restartPolicy(worker)).to.equal('no 0');

    // doctor's other checks (Go on PATH, disk space, ...) may fail on a test machine: read its restore lines.
    const doctor: CliResult = await runCli(['doctor', '--restore', '--reports', out], { timeoutMs: 3 * MINUTE_MS, env });
    expect(doctor.stdout, doctor.stdout + doctor.stderr).to.contain(`restored fault: ${runDir}: docker update --restart=${recorded} ${worker}`);
    expect(doctor.stdout).to.contain(`restored fault: ${runDir}: docker start ${worker}`);
    expect(doctor.stdout + doctor.stderr).to.not.match(/restore failed|faults left behind/);
    expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(false);
    expect(await nodeContainersIn(CLUSTER, 'exited')).to.deep.equal([]);
    expect(await restartPolicy(worker), 'the restart policy of before the fault').to.equal(policyBefore[worker]);
  }
});
