// The fault guard against the real engine: a child process pauses a fake node; SIGINT, an uncaught
// error or kill -9 (then restorePending) must each leave the container running.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actOnNodeContainer, DOCKER_NODE_ACTIONS } from '../../../lib/cluster/kind/actions.js';
import type { Cluster } from '../../../lib/cluster/provider.js';
import { FaultGuard } from '../../../lib/faults/guard.js';
import { runFault, type FaultPhase } from '../../../lib/faults/inject.js';
import { PENDING_RESTORE_FILE, restorePending } from '../../../lib/faults/restore-file.js';
import { createRestoreTargets } from '../../../lib/cluster/restore-targets.js';
import { recordOwnership } from '../../../lib/cluster/kind/ownership.js';
import { dockerUnavailableReason, ensureTestImage, FakeKindCluster } from './helpers.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'pause-child.js');
const skipReason = dockerUnavailableReason();

/** Starts the child and resolves once it printed PAUSED. */
function startChild(fake: FakeKindCluster, node: string, runDir: string, mode: 'wait' | 'throw'): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [CHILD, node, fake.cluster, fake.network, runDir, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not pause: ${out}`)), 120_000);
    child.stdout!.on('data', () => {
      if (out.includes('PAUSED')) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); if (!out.includes('PAUSED')) reject(new Error(`child exited ${code}: ${out}`)); });
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('FaultGuard with Docker (integration)', function () {
  this.timeout(180_000);
  let fake: FakeKindCluster;
  let runDir: string;

  before(function () {
    if (skipReason) {
      console.log(`    skipped: ${skipReason}`);
      this.skip();
    }
    ensureTestImage();
  });
  beforeEach(async () => {
    fake = new FakeKindCluster();
    await fake.createNetwork(true);
    runDir = mkdtempSync(join(tmpdir(), 'rebootlab-it-run-'));
  });
  afterEach(async () => {
    await fake?.cleanup();
    rmSync(runDir, { recursive: true, force: true });
  });

  it('SIGINT during a freeze unpauses the node and exits 130', async () => {
    const node = await fake.addNode('worker');
    const { child, output } = await startChild(fake, node, runDir, 'wait');
    expect(await fake.state(node)).to.equal('paused');
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(true);
    child.kill('SIGINT');
    const { code } = await exitOf(child);
    expect(code, output()).to.equal(130);
    expect(output()).to.contain('RESTORED SIGINT errors=0');
    expect(await fake.state(node)).to.equal('running');
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('an uncaught error after a freeze unpauses the node and exits 3', async () => {
    const node = await fake.addNode('worker');
    const { child, output } = await startChild(fake, node, runDir, 'throw');
    const { code } = await exitOf(child);
    expect(code, output()).to.equal(3);
    expect(await fake.state(node)).to.equal('running');
  });

  it('after kill -9, restorePending unpauses the node from pending-restore.json, once the cluster is rebootlab\'s', async () => {
    const node = await fake.addNode('worker');
    const { child } = await startChild(fake, node, runDir, 'wait');
    child.kill('SIGKILL');
    await exitOf(child);
    expect(await fake.state(node)).to.equal('paused');
    // A cache of its own: the fake cluster is rebootlab's only once its owner record is written there, as
    // `rebootlab cluster create` writes it.
    const cache = mkdtempSync(join(tmpdir(), 'rebootlab-cache-'));
    try {
      const targets = createRestoreTargets({ ...process.env, REBOOTLAB_CACHE: cache });
      const [refused] = await restorePending({ runDir }, { targets });
      expect(refused!.restored).to.deep.equal([]);
      expect(refused!.failed.map((f) => f.error).join('\n')).to.contain(`cluster ${fake.cluster} was not created by rebootlab`);
      expect(await fake.state(node)).to.equal('paused');
      mkdirSync(join(cache, 'clusters'));
      await recordOwnership(join(cache, 'clusters'), fake.cluster);
      const [report] = await restorePending({ runDir }, { targets });
      expect(report!.failed).to.deep.equal([]);
      expect(report!.restored).to.deep.equal([`docker unpause ${node}`]);
      expect(await fake.state(node)).to.equal('running');
      expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(false);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('runFault power-off stops the node for the duration and starts it again', async () => {
    const node = await fake.addNode('worker');
    const ctx = { cluster: fake.cluster, network: fake.network, deleteNodeObject: async () => {} };
    const cluster = {
      provider: 'kind',
      supportedActions: DOCKER_NODE_ACTIONS,
      act: (n: string, a, h) => actOnNodeContainer(ctx, n, a, h),
    } as Pick<Cluster, 'act' | 'provider' | 'supportedActions'> as Cluster;
    const phases: FaultPhase[] = [];
    const states: string[] = [];
    const guard = new FaultGuard({ runDir });
    await runFault(cluster, { type: 'power-off', durationMs: 500, staggerMs: 0 }, [node], {
      guard,
      onPhase: (phase) => {
        phases.push(phase);
        if (phase === 'fault-injected') void fake.state(node).then((s) => states.push(s));
      },
    });
    expect(phases).to.deep.equal(['fault-injecting', 'fault-injected', 'fault-restoring', 'fault-restored']);
    expect(states).to.deep.equal(['exited']);
    expect(await fake.state(node)).to.equal('running');
    expect(guard.pending).to.have.length(0);
  });
});
