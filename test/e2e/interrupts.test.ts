// Issue 11 acceptance: no fault is ever left behind. SIGINT, SIGTERM, SIGHUP, and kill -9 followed by the next
// `rebootlab run`, during a freeze, a power-off and a network partition, in a single run and in a matrix run: after
// each, 0 node containers paused, stopped or disconnected, 0 out-of-service taints or cordons (each run cordons and
// taints the target through steps), and the observations up to the signal kept. Plus the third Ctrl-C quitting
// at once with the command that restores what is left.
// Cheap by design: ONE kind cluster (1 worker) for the whole file, made by `rebootlab cluster create`, reused
// with --reuse-cluster, deleted in after(); one 1-replica Deployment; signals sent seconds after the fault.
import { expect } from 'chai';
import { CoreV1Api } from '@kubernetes/client-node';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, loadKubeConfig } from '../../lib/cluster/index.js';
import { readJournal } from '../../lib/observe/index.js';
import { REPO_ROOT, runCli, type CliResult } from '../helpers/run-cli.js';
import { nodeContainersDisconnected, nodeContainersIn, readResult, runDirsUnder, waitForPhaseUnder } from '../helpers/run-dirs.js';
import { readToolchain } from '../helpers/toolchain.js';

const MINUTE_MS = 60_000;
const CLUSTER = 'rebootlab-e2e-interrupts';
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

type FaultType = 'freeze' | 'power-off' | 'network-partition';
type Signal = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'SIGKILL';

/** An experiment file for one case: the fault lasts 10 minutes, so the signal always lands mid-fault. */
function experimentYaml(name: string, fault: FaultType, matrix: boolean): string {
  return [
    'apiVersion: rebootlab.dev/v1alpha1',
    'kind: Experiment',
    `metadata: {name: ${name}}`,
    `cluster: {name: ${CLUSTER}, workers: 1}`,
    'workloads:',
    '  - {name: web, kind: Deployment, replicas: 1, placement: target}',
    `fault: {type: ${fault}, target: worker-with-most-pods, duration: 10m}`,
    // A cordon and the out-of-service taint on the target: API-server state that must be undone too.
    'steps:',
    '  - {after: 1s, action: cordon}',
    '  - {after: 1s, action: taint-out-of-service}',
    'observe: {until: recovered, timeout: 15m}',
    // Two distinct values (a repeated value is refused, issue 27); the signal lands during the first.
    ...(matrix ? [`matrix: {fault.type: [${fault}, ${fault === 'freeze' ? 'power-off' : 'freeze'}]}`] : []),
    '',
  ].join('\n');
}

/** A short run that must pass on a healthy cluster: the "next run" after a kill -9. */
function shortRunYaml(): string {
  return [
    'apiVersion: rebootlab.dev/v1alpha1',
    'kind: Experiment',
    'metadata: {name: next-run}',
    `cluster: {name: ${CLUSTER}, workers: 1}`,
    'workloads:',
    '  - {name: web, kind: Deployment, replicas: 1, placement: target}',
    'fault: {type: freeze, target: worker-with-most-pods, duration: 2s}',
    'observe: {until: duration, duration: 10s}',
    'expect:',
    '  - node.readyAtEnd == true',
    '',
  ].join('\n');
}

/** Nodes still cordoned or carrying the out-of-service taint, as `name: what`. */
async function cordonsAndTaints(): Promise<string[]> {
  const core = loadKubeConfig(join(cacheDir(), 'clusters', `${CLUSTER}.kubeconfig`)).makeApiClient(CoreV1Api);
  const left: string[] = [];
  for (const node of (await core.listNode()).items) {
    if (node.spec?.unschedulable) left.push(`${node.metadata?.name}: cordoned`);
    for (const t of node.spec?.taints ?? []) if (t.key === OUT_OF_SERVICE || t.key === 'node.kubernetes.io/unschedulable') left.push(`${node.metadata?.name}: ${t.key}:${t.effect}`);
  }
  return left;
}

/** Every fault the file's runs can leave: node containers paused, stopped, disconnected; cordons and taints. */
async function faultsLeft(): Promise<string[]> {
  return [
    ...(await nodeContainersIn(CLUSTER, 'paused')).map((c) => `${c}: paused`),
    ...(await nodeContainersIn(CLUSTER, 'exited')).map((c) => `${c}: stopped`),
    ...(await nodeContainersDisconnected(CLUSTER)).map((c) => `${c}: disconnected`),
    ...(await cordonsAndTaints()),
  ];
}

/** What the fault looks like in Docker while it is in place. */
async function faultVisible(fault: FaultType): Promise<string[]> {
  if (fault === 'freeze') return nodeContainersIn(CLUSTER, 'paused');
  if (fault === 'power-off') return nodeContainersIn(CLUSTER, 'exited');
  return nodeContainersDisconnected(CLUSTER);
}

/** Starts `rebootlab run` on the shared cluster; resolves its exit with the stderr it wrote. */
function startRun(file: string, out: string): { child: ReturnType<typeof spawn>; exited: Promise<CliResult & { signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['bin/rebootlab.js', 'run', file, '--out', out, '--reuse-cluster', '--keep-cluster'], {
    cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) => child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr })));
  return { child, exited };
}

describe('interrupted runs leave no fault behind (issue 11)', function () {
  this.timeout(60 * MINUTE_MS);
  const toolchain = readToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-interrupts-'));
  const combinations: string[] = [];
  const fileStartedAtMs = Date.now();

  before(async function () {
    this.timeout(15 * MINUTE_MS);
    const file = join(dir, 'cluster.yaml');
    writeFileSync(file, experimentYaml('cluster', 'freeze', false));
    const res = await runCli(['cluster', 'create', '--experiment', file], { timeoutMs: 12 * MINUTE_MS });
    expect(res.exitCode, res.stderr + res.stdout).to.equal(0);
  });

  after(async function () {
    this.timeout(5 * MINUTE_MS);
    // `cluster delete NAME`, the positional form; kind itself if that failed, so no cluster outlives the file.
    const res = await runCli(['cluster', 'delete', CLUSTER], { timeoutMs: 4 * MINUTE_MS });
    if (res.exitCode !== 0) await execa(toolchain.kind, ['delete', 'cluster', '--name', CLUSTER], { reject: false });
    console.log(`      ${combinations.length} combinations in ${((Date.now() - fileStartedAtMs) / 1000).toFixed(0)} s: ${combinations.join('; ')}`);
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(dir, { recursive: true, force: true });
  });

  const cases: { signal: Signal; fault: FaultType; matrix: boolean }[] = [
    { signal: 'SIGINT', fault: 'freeze', matrix: false },
    { signal: 'SIGTERM', fault: 'network-partition', matrix: false },
    { signal: 'SIGHUP', fault: 'power-off', matrix: false },
    { signal: 'SIGKILL', fault: 'freeze', matrix: false },
    { signal: 'SIGINT', fault: 'power-off', matrix: true },
    { signal: 'SIGTERM', fault: 'freeze', matrix: true },
    { signal: 'SIGHUP', fault: 'network-partition', matrix: true },
    { signal: 'SIGKILL', fault: 'network-partition', matrix: true },
  ];

  for (const { signal, fault, matrix } of cases) {
    const title = `${signal} during a ${fault} in a ${matrix ? 'matrix' : 'single'} run`;
    it(`${title}: nothing left faulted${signal === 'SIGKILL' ? ' after the next run' : ''}, observations kept`, async function () {
      const startedAtMs = Date.now();
      const name = `${signal.toLowerCase()}-${fault}${matrix ? '-matrix' : ''}`;
      const file = join(dir, `${name}.yaml`);
      const out = join(dir, name);
      writeFileSync(file, experimentYaml(name, fault, matrix));
      const { child, exited } = startRun(file, out);
      // Both steps applied: the node is faulted, cordoned and tainted.
      const runDir = await waitForPhaseUnder(out, 'step', 2, 6 * MINUTE_MS).catch(async (error: Error) => {
        // The run never got there: stop it (it restores what it faulted) and say what it printed.
        child.kill('SIGINT');
        const res = await exited;
        throw new Error(`${error.message}; the run exited ${res.exitCode ?? res.signal} printing: ${(res.stderr + res.stdout).slice(-3000)}`);
      });
      if (matrix) expect(runDir, 'the first variant is being run').to.match(new RegExp(`/${name}-\\d{8}T\\d{6}Z/${name}--type-${fault}-r0$`));
      expect(await faultVisible(fault), `${fault} in place`).to.have.length(1);
      expect(await cordonsAndTaints()).to.have.length.at.least(2);
      const signalledAtMs = Date.now();
      child.kill(signal);
      const res = await exited;
      const journal = readJournal(join(runDir, 'observations.jsonl'));
      // Observations up to the signal are kept: the fault, both steps, and watch events received before it.
      expect(journal.some((r) => r.type === 'phase' && r.phase === 'fault-injected')).to.equal(true);
      expect(journal.filter((r) => r.type === 'phase' && r.phase === 'step')).to.have.length(2);
      expect(journal.filter((r) => r.type === 'object' && r.receivedAtMs < signalledAtMs).length, 'watch records before the signal').to.be.greaterThan(0);
      if (signal === 'SIGKILL') {
        expect(res.signal).to.equal('SIGKILL');
        expect(await faultVisible(fault), 'kill -9 restores nothing').to.have.length(1);
        expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(true);
        // The next run: in the same --out for the single run; for the matrix run, somewhere else, so that only
        // the last --out remembered in the cache leads to the variant's pending-restore.json two levels down.
        const nextFile = join(dir, 'next-run.yaml');
        writeFileSync(nextFile, shortRunYaml());
        const nextOut = matrix ? join(dir, `${name}-next`) : out;
        const next = await startRun(nextFile, nextOut).exited;
        expect(next.exitCode, next.stderr + next.stdout).to.equal(0);
        expect(next.stderr).to.contain(`restored a fault left by an earlier run (${runDir})`);
        expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(false);
      } else {
        expect(res.exitCode, res.stderr).to.equal(130);
        expect(journal.some((r) => r.type === 'phase' && r.phase === 'interrupted')).to.equal(true);
        expect(readResult(runDir).status).to.equal('interrupted');
        expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(false);
        if (matrix) expect(runDirsUnder(out), 'no variant after the interrupted one').to.have.length(1);
      }
      expect(await faultsLeft()).to.deep.equal([]);
      combinations.push(`${title} ${((Date.now() - startedAtMs) / 1000).toFixed(0)} s`);
    });
  }

  it('the third Ctrl-C quits at once, printing what is still faulted and the command that restores it', async function () {
    const name = 'third-sigint';
    const file = join(dir, `${name}.yaml`);
    const out = join(dir, name);
    writeFileSync(file, experimentYaml(name, 'power-off', false));
    const { child, exited } = startRun(file, out);
    const runDir = await waitForPhaseUnder(out, 'step', 2, 6 * MINUTE_MS);
    // Standard signals do not queue: space them so the process sees three.
    for (let i = 0; i < 3; i++) {
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 150));
    }
    const thirdAtMs = Date.now();
    const res = await exited;
    expect(Date.now() - thirdAtMs, 'quits at once').to.be.below(5_000);
    expect(res.exitCode).to.equal(130);
    expect(res.stderr).to.match(/SIGINT a third time: quitting now/);
    const restoreLine = /^restore with: rebootlab (doctor --restore --reports \S+)$/m.exec(res.stderr);
    if (restoreLine) {
      // Faults were still in place: the printed command restores them.
      expect(res.stderr).to.match(/^still faulted: /m);
      expect(restoreLine[1]).to.equal(`doctor --restore --reports ${runDir}`);
      const doctor = await runCli(restoreLine[1]!.split(' '), { timeoutMs: 3 * MINUTE_MS });
      expect(doctor.stdout).to.contain('restored fault');
    } else {
      expect(res.stderr).to.contain('no fault left in place');
    }
    expect(existsSync(join(runDir, 'pending-restore.json'))).to.equal(false);
    expect(await faultsLeft()).to.deep.equal([]);
    combinations.push(`third SIGINT during a power-off (${restoreLine ? 'faults left, restored by the printed command' : 'restored before the third signal'})`);
  });

  it('covers at least 8 signal × fault × run-mode combinations', function () {
    expect(combinations.length, combinations.join('\n')).to.be.at.least(8);
    expect(readFileSync(join(cacheDir(), 'last-out'), 'utf8').trim()).to.equal(join(dir, 'third-sigint'));
  });
});
