import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Undo } from '../../../lib/cluster/provider.js';
import { FaultGuard } from '../../../lib/faults/guard.js';
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

  it('restorePending runs the file commands in reverse and removes the file', async () => {
    const guard = new FaultGuard({ runDir: dir });
    const marker = join(dir, 'order.txt');
    guard.register('first', ['a'], undoLogging([], 'x'), [['sh', '-c', `echo first >> ${marker}`]]);
    guard.register('second', ['a'], undoLogging([], 'y'), [['sh', '-c', `echo second >> ${marker}`]]);
    const [report] = await restorePending({ runDir: dir });
    expect(readFileSync(marker, 'utf8')).to.equal('second\nfirst\n');
    expect(report!.failed).to.deep.equal([]);
    expect(existsSync(join(dir, PENDING_RESTORE_FILE))).to.equal(false);
  });

  it('restorePending leaves a file of a live process alone unless forced', async () => {
    const runDir = join(dir, 'run-1');
    mkdirSync(runDir);
    const content: PendingRestoreFile = { pid: process.ppid, writtenAtMs: 0, entries: [{ label: 'x', nodes: [], commands: [['true']] }] };
    writeFileSync(join(runDir, PENDING_RESTORE_FILE), JSON.stringify(content));
    const [skipped] = await restorePending({ reportsDir: dir });
    expect(skipped!.skippedLivePid).to.equal(process.ppid);
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(true);
    const [forced] = await restorePending({ reportsDir: dir }, true);
    expect(forced!.restored).to.deep.equal(['true']);
    expect(existsSync(join(runDir, PENDING_RESTORE_FILE))).to.equal(false);
  });
});
