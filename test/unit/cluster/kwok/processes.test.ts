import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, readProcessFlags, startProcess, stopProcesses, writeProcessTable } from '../../../../lib/cluster/kwok/processes.js';
import { checkOnce, ownerGone, writeOwner } from '../../../../lib/cluster/kwok/watchdog.js';
import { clusterFiles } from '../../../../lib/cluster/kwok/paths.js';

const SLEEP = '/bin/sleep';
/** A pid that has exited: `true` run to completion. */
const deadPid = () => spawnSync('/bin/true').pid!;

describe('kwok processes and watchdog', function () {
  this.timeout(10_000);
  let parent = '';
  before(() => (parent = mkdtempSync(join(tmpdir(), 'rebootlab-kwok-proc-'))));
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('starts a detached process, reads its flags, and stops its process group', async () => {
    const record = startProcess('sleeper', process.execPath, ['-e', 'setTimeout(() => {}, 30_000)', '--', '--flag=x'], parent);
    expect(isAlive(record)).to.equal(true);
    expect(readProcessFlags(record)).to.deep.equal({ flag: 'x' });
    await stopProcesses({ sleeper: record }, 2_000);
    expect(isAlive(record)).to.equal(false);
  });

  it('does not take a reused pid for a recorded process running another binary', () => {
    expect(isAlive({ pid: process.pid, binary: SLEEP, log: '', startedAtMs: 0 })).to.equal(false);
  });

  it('sees an owner as alive while it runs and gone after it exits; no owner file = kept', () => {
    const file = join(parent, 'owner.pid');
    writeOwner(file, process.pid);
    expect(ownerGone(file)).to.equal(false);
    writeOwner(file, deadPid());
    expect(ownerGone(file)).to.equal(true);
    expect(ownerGone(join(parent, 'absent.pid'))).to.equal(false);
  });

  it('tears a cluster down (processes and directory) once its owner is gone', async () => {
    const files = clusterFiles(parent, 'orphan');
    mkdirSync(files.logsDir, { recursive: true });
    const record = startProcess('etcd', SLEEP, ['30'], files.logsDir);
    await writeProcessTable(files.pidsFile, { etcd: record });
    writeOwner(files.ownerFile, process.pid);
    expect(await checkOnce(files.dir)).to.equal(false);
    expect(isAlive(record)).to.equal(true);
    writeOwner(files.ownerFile, deadPid());
    expect(await checkOnce(files.dir)).to.equal(true);
    expect(isAlive(record)).to.equal(false);
    expect(existsSync(files.dir)).to.equal(false);
  });
});
