import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Undo } from '../../../lib/cluster/provider.js';
import type { RestoreTargets } from '../../../lib/cluster/restore-targets.js';
import { FaultGuard, describePending, type GuardEntry } from '../../../lib/faults/guard.js';
import { PENDING_RESTORE_FILE, restorePending, type PendingRestoreFile } from '../../../lib/faults/restore-file.js';

function undoLogging(log: string[], name: string, fail = false): Undo {
  return (async () => {
    if (fail) throw new Error(`${name} failed`);
    log.push(name);
  }) as Undo;
}

describe('FaultGuard', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-guard-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs pending undos newest first', async () => {
    const log: string[] = [];
    const guard = new FaultGuard({ runDir: null });
    guard.register('stop a', ['a'], undoLogging(log, 'start a'), []);
    guard.register('delete a', ['a'], undoLogging(log, 'restart kubelet a'), []);
    guard.register('pause b', ['b'], undoLogging(log, 'unpause b'), []);
    expect(await guard.releaseAll()).to.deep.equal([]);
    expect(log).to.deep.equal(['unpause b', 'restart kubelet a', 'start a']);
    expect(guard.pending).to.have.length(0);
  });

  it('runs an undo released early only once', async () => {
    const log: string[] = [];
    const guard = new FaultGuard({ runDir: null });
    const a = guard.register('pause a', ['a'], undoLogging(log, 'unpause a'), []);
    guard.register('pause b', ['b'], undoLogging(log, 'unpause b'), []);
    await guard.release(a);
    await guard.releaseAll();
    expect(log).to.deep.equal(['unpause a', 'unpause b']);
  });

  it('continues past a failing undo and keeps it pending', async () => {
    const log: string[] = [];
    const guard = new FaultGuard({ runDir: null });
    guard.register('stop a', ['a'], undoLogging(log, 'start a'), []);
    guard.register('pause b', ['b'], undoLogging(log, 'unpause b', true), []);
    const errors = await guard.releaseAll();
    expect(errors.map((e) => (e as Error).message)).to.deep.equal(['unpause b failed']);
    expect(log).to.deep.equal(['start a']);
    expect(guard.pending.map((e) => e.label)).to.deep.equal(['pause b']);
  });

  it('on SIGTERM runs pending undos newest first, then hands exit code 130 to the caller', async () => {
    const log: string[] = [];
    const guard = new FaultGuard({ runDir: null });
    guard.register('stop a', ['a'], undoLogging(log, 'start a'), []);
    guard.register('pause b', ['b'], undoLogging(log, 'unpause b'), []);
    const exited = new Promise<[number, string, unknown[]]>((resolve) => {
      const uninstall = guard.installHandlers((code, trigger, errors) => {
        uninstall();
        log.push('exit');
        resolve([code, trigger, errors]);
      });
    });
    process.emit('SIGTERM');
    process.emit('SIGTERM'); // a second signal while restoring is ignored
    expect(await exited).to.deep.equal([130, 'SIGTERM', []]);
    expect(log).to.deep.equal(['unpause b', 'start a', 'exit']);
  });

  it('gives up on the third signal when an undo hangs, keeping it pending', async () => {
    const guard = new FaultGuard({ runDir: null });
    guard.register('pause a', ['a'], (() => new Promise<void>(() => {})) as Undo, []);
    const exited = new Promise<unknown[]>((resolve) => {
      const uninstall = guard.installHandlers((_code, _trigger, errors) => {
        uninstall();
        resolve(errors);
      });
    });
    process.emit('SIGTERM');
    process.emit('SIGTERM');
    process.emit('SIGTERM');
    const errors = await exited;
    expect((errors[0] as Error).message).to.contain('doctor --restore');
    expect(guard.pending).to.have.length(1);
  });

  it('writes pending-restore.json on register and removes it once all are undone', async () => {
    const guard = new FaultGuard({ runDir: dir });
    const file = join(dir, PENDING_RESTORE_FILE);
    const entry = guard.register('pause kind-worker', ['kind-worker'], undoLogging([], 'unpause'), [['docker', 'unpause', 'kind-worker']]);
    const content = JSON.parse(readFileSync(file, 'utf8')) as PendingRestoreFile;
    expect(content.pid).to.equal(process.pid);
    expect(content.entries).to.deep.equal([{ label: 'pause kind-worker', nodes: ['kind-worker'], commands: [['docker', 'unpause', 'kind-worker']] }]);
    await guard.release(entry);
    expect(existsSync(file)).to.equal(false);
  });

  /** Restore targets where kind cluster `lab` (nodes lab-control-plane, lab-worker, lab-worker2) is rebootlab's. */
  const labTargets: RestoreTargets = {
    kindNodeContainer: async (c) => (/^lab-/.test(c) ? { ok: true, cluster: 'lab' } : { ok: false, reason: 'cluster foreign was not created by rebootlab; use kind delete cluster --name foreign' }),
    clusterOfKubeconfig: async () => ({ ok: false, reason: 'not a rebootlab kubeconfig' }),
  };

  it('restorePending runs the checked file commands in reverse and removes the file', async () => {
    const guard = new FaultGuard({ runDir: dir });
    guard.register('pause lab-worker', ['lab-worker'], undoLogging([], 'x'), [['docker', 'unpause', 'lab-worker']]);
    guard.register('stop lab-worker2', ['lab-worker2'], undoLogging([], 'y'), [['docker', 'start', 'lab-worker2']]);
    const ran: string[] = [];
    const [report] = await restorePending({ runDir: dir }, { targets: labTargets, exec: async (argv) => void ran.push(argv.join(' ')) });
    expect(ran).to.deep.equal(['docker start lab-worker2', 'docker unpause lab-worker']);
    expect(report!.failed).to.deep.equal([]);
    expect(existsSync(join(dir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('restorePending never runs a command that is not rebootlab\'s undo on its own cluster, and keeps the file', async () => {
    const marker = join(dir, 'ran.txt');
    const content: PendingRestoreFile = {
      pid: 999_999_999,
      writtenAtMs: 0,
      entries: [
        { label: 'evil', nodes: [], commands: [['sh', '-c', `touch ${marker}`]] },
        { label: 'foreign', nodes: ['foreign-worker'], commands: [['docker', 'unpause', 'foreign-worker']] },
        { label: 'sneaky', nodes: ['lab-worker'], commands: [['docker', 'unpause', 'lab-worker', '&&', 'rm', '-rf', '/']] },
      ],
    };
    writeFileSync(join(dir, PENDING_RESTORE_FILE), JSON.stringify(content));
    const ran: string[] = [];
    const [report] = await restorePending({ runDir: dir }, { targets: labTargets, exec: async (argv) => void ran.push(argv.join(' ')) });
    expect(ran).to.deep.equal([]);
    expect(existsSync(marker)).to.equal(false);
    expect(report!.failed.map((f) => f.error)).to.deep.equal([
      "refused: not one of rebootlab's undo commands: docker unpause lab-worker '&&' rm -rf /",
      'refused: cluster foreign was not created by rebootlab; use kind delete cluster --name foreign',
      `refused: not one of rebootlab's undo commands: sh -c 'touch ${marker}'`,
    ]);
    expect(existsSync(join(dir, PENDING_RESTORE_FILE))).to.equal(true);
  });

  it('restorePending leaves a file of a live process alone unless forced, at any depth under the reports directory', async () => {
    // A matrix run: <out>/<experiment>-<time>/<variant>-r0/pending-restore.json, two levels down.
    const runDir = join(dir, 'sweep-20261201T000000Z', 'sweep--type-freeze-r0');
    mkdirSync(runDir, { recursive: true });
    const content: PendingRestoreFile = { pid: process.ppid, writtenAtMs: 0, entries: [{ label: 'x', nodes: [], commands: [['docker', 'unpause', 'lab-worker']] }] };
    writeFileSync(join(runDir, PENDING_RESTORE_FILE), JSON.stringify(content));
    const ran: string[] = [];
    const exec = async (argv: readonly string[]) => void ran.push(argv.join(' '));
    const [skipped] = await restorePending({ reportsDirs: [dir] }, { targets: labTargets, exec });
    expect(skipped!.skippedLivePid).to.equal(process.ppid);
    expect(ran).to.deep.equal([]);
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(true);
    const [forced] = await restorePending({ reportsDirs: [dir] }, { force: true, targets: labTargets, exec });
    expect(forced!.runDir).to.equal(runDir);
    expect(forced!.restored).to.deep.equal(['docker unpause lab-worker']);
    expect(ran).to.deep.equal(['docker unpause lab-worker']);
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('restorePending counts an undo on a node that no longer exists as nothing to restore, without running it', async () => {
    const content: PendingRestoreFile = { pid: 999_999_999, writtenAtMs: 0, entries: [{ label: 'pause gone-worker', nodes: ['gone-worker'], commands: [['docker', 'unpause', 'gone-worker']] }] };
    writeFileSync(join(dir, PENDING_RESTORE_FILE), JSON.stringify(content));
    const targets: RestoreTargets = { ...labTargets, kindNodeContainer: async () => ({ ok: false, gone: true, reason: 'container gone-worker no longer exists; nothing to restore' }) };
    const [report] = await restorePending({ runDir: dir }, { targets, exec: async () => expect.fail('must not run') });
    expect(report!.restored).to.deep.equal(['docker unpause gone-worker (not run: container gone-worker no longer exists; nothing to restore)']);
    expect(existsSync(join(dir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('restorePending reconnects without --ip when Docker refuses the old address (kind\'s network), as the live undo does', async () => {
    const guard = new FaultGuard({ runDir: dir });
    guard.register('disconnect lab-worker', ['lab-worker'], undoLogging([], 'x'), [['docker', 'network', 'connect', '--ip', '172.18.0.3', 'kind', 'lab-worker']]);
    const ran: string[] = [];
    const exec = async (argv: readonly string[]) => {
      ran.push(argv.join(' '));
      if (argv.includes('--ip')) throw new Error('Error response from daemon: user specified IP address is supported only when connecting to networks with user configured subnets');
    };
    const [report] = await restorePending({ runDir: dir }, { targets: labTargets, exec });
    expect(ran).to.deep.equal(['docker network connect --ip 172.18.0.3 kind lab-worker', 'docker network connect kind lab-worker']);
    expect(report!.restored).to.deep.equal(['docker network connect kind lab-worker']);
    expect(existsSync(join(dir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('restorePending reports a file that is not rebootlab\'s shape instead of running anything', async () => {
    writeFileSync(join(dir, PENDING_RESTORE_FILE), JSON.stringify({ pid: 1, entries: [{ commands: 'rm -rf /' }] }));
    const [report] = await restorePending({ runDir: dir }, { targets: labTargets, exec: async () => expect.fail('must not run') });
    expect(report!.failed[0]!.error).to.match(/^not a pending-restore\.json written by rebootlab/);
  });
});

describe('FaultGuard signals', () => {
  it('handles SIGHUP like SIGTERM: restores, then exit code 130', async () => {
    const log: string[] = [];
    const guard = new FaultGuard({ runDir: null });
    guard.register('stop a', ['a'], undoLogging(log, 'start a'), []);
    const exited = new Promise<[number, string]>((resolve) => {
      const uninstall = guard.installHandlers((code, trigger) => {
        uninstall();
        resolve([code, trigger]);
      });
    });
    process.emit('SIGHUP');
    expect(await exited).to.deep.equal([130, 'SIGHUP']);
    expect(log).to.deep.equal(['start a']);
  });

  it('quits on the third signal even after the faults were restored and the run is writing its report', async () => {
    const guard = new FaultGuard({ runDir: null });
    guard.register('pause a', ['a'], undoLogging([], 'unpause a'), []);
    const calls: string[] = [];
    let quitWith: readonly GuardEntry[] | null = null;
    const exitedOnce = new Promise<void>((resolve) => {
      const uninstall = guard.installHandlers(
        () => { calls.push('exit'); resolve(); },
        (pending, trigger) => { calls.push(`quit ${trigger}`); quitWith = pending; uninstall(); },
      );
    });
    process.emit('SIGINT');
    await exitedOnce;
    process.emit('SIGINT');
    expect(calls).to.deep.equal(['exit']);
    process.emit('SIGINT');
    expect(calls).to.deep.equal(['exit', 'quit SIGINT']);
    expect(quitWith).to.deep.equal([]);
  });

  it('on the third signal while an undo hangs, hands the pending faults and the restore command to the caller', async () => {
    const runDir = 'reports/freeze-20261201T000000Z/freeze--type-freeze-r0';
    const withFile = new FaultGuard({ runDir: null });
    withFile.register('pause lab-worker', ['lab-worker'], (() => new Promise<void>(() => {})) as Undo, [['docker', 'unpause', 'lab-worker']]);
    const quit = new Promise<string[]>((resolve) => {
      const uninstall = withFile.installHandlers(() => expect.fail('exit must not be called'), (pending) => {
        uninstall();
        resolve(describePending(pending, runDir));
      });
    });
    process.emit('SIGTERM');
    process.emit('SIGHUP');
    process.emit('SIGINT');
    expect(await quit).to.deep.equal([
      'still faulted: pause lab-worker (undo: docker unpause lab-worker)',
      `restore with: rebootlab doctor --restore --reports ${runDir}`,
    ]);
    expect(withFile.pending).to.have.length(1);
  });
});
