// doctor --restore and the start of `rebootlab run` drop a pending-restore.json only when every fault in it is known
// to be gone or restored: Docker unreachable keeps it (issue 27 item 6).
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNoSuchContainer } from '../../../lib/cluster/kind/docker.js';
import type { RestoreTargets } from '../../../lib/cluster/restore-targets.js';
import { CommandError } from '../../../lib/common/exec.js';
import { restorePending } from '../../../lib/faults/restore-file.js';

const ENTRY = '{"pid":999999,"writtenAtMs":1,"entries":[{"label":"p","nodes":["lab-worker"],"commands":[["docker","unpause","lab-worker"]]}]}';

describe('faults/restore-file: a record is dropped only when the fault is known to be gone', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-restore-'));
    mkdirSync(join(dir, 'r'));
    file = join(dir, 'r', 'pending-restore.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const targets = (kindNodeContainer: RestoreTargets['kindNodeContainer']): RestoreTargets => ({
    kindNodeContainer,
    clusterOfKubeconfig: async () => ({ ok: false, reason: 'not used' }),
  });
  const neverRun = async () => {
    throw new Error('must not run');
  };

  it('Docker could not be asked: the file stays, the command is a failure of the infrastructure', async () => {
    writeFileSync(file, ENTRY);
    const [report] = await restorePending({ runDir: join(dir, 'r') }, { force: true, exec: neverRun, targets: targets(async () => ({ ok: false, unchecked: true, reason: 'cannot ask Docker about container lab-worker: daemon down' })) });
    expect(existsSync(file)).to.equal(true);
    expect(report!.failed).to.deep.equal([{ command: 'docker unpause lab-worker', error: 'refused: cannot ask Docker about container lab-worker: daemon down', cause: 'infrastructure' }]);
  });

  it('the ownership check throws: the file stays', async () => {
    writeFileSync(file, ENTRY);
    const [report] = await restorePending({ runDir: join(dir, 'r') }, { force: true, exec: neverRun, targets: targets(async () => { throw new Error('docker: command not found'); }) });
    expect(existsSync(file)).to.equal(true);
    expect(report!.failed[0]).to.include({ cause: 'infrastructure', error: 'docker: command not found' });
  });

  it('the container is gone ("No such container"): nothing to restore, the file goes', async () => {
    writeFileSync(file, ENTRY);
    const [report] = await restorePending({ runDir: join(dir, 'r') }, { force: true, exec: neverRun, targets: targets(async () => ({ ok: false, gone: true, reason: 'container lab-worker no longer exists; nothing to restore' })) });
    expect(existsSync(file)).to.equal(false);
    expect(report!.restored).to.deep.equal(['docker unpause lab-worker (not run: container lab-worker no longer exists; nothing to restore)']);
  });

  it('a file rebootlab did not write (not JSON, a list, binary, a FIFO) is kept and named as bad input', async () => {
    for (const content of ['{', '[]', 'a\u0000b']) {
      writeFileSync(file, content);
      const [report] = await restorePending({ runDir: join(dir, 'r') }, { force: true, exec: neverRun, targets: targets(neverRun) });
      expect(existsSync(file)).to.equal(true);
      expect(report!.failed).to.have.length(1);
      expect(report!.failed[0]!.cause).to.equal('input');
      expect(report!.failed[0]!.error).to.not.include('\n');
    }
  });

  it('isNoSuchContainer: only Docker\'s own answer, not a failure to ask', () => {
    const failed = (stderr: string, exitCode: number | undefined) => new CommandError('docker inspect failed', 'docker inspect x', stderr, exitCode);
    expect(isNoSuchContainer(failed('Error: No such container: lab-worker', 1))).to.equal(true);
    expect(isNoSuchContainer(failed('Error: No such object: lab-worker', 1))).to.equal(true);
    expect(isNoSuchContainer(failed('Cannot connect to the Docker daemon at unix:///nope.sock. Is the docker daemon running?', 1))).to.equal(false);
    expect(isNoSuchContainer(failed('', undefined))).to.equal(false);
    expect(isNoSuchContainer(new Error('No such container: x'))).to.equal(false);
  });
});
