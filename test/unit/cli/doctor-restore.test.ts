// `doctor --restore` checks every pending-restore.json before it looks up any tool (Docker, kind, Go): a file it
// cannot restore from is the user's to fix, exit 2 with one line naming it, and it stays on disk as it was; a link
// or directory of that name is named too, never followed or skipped in silence (found by a new-user try).
import { expect } from 'chai';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/run-cli.js';

/** stderr as lines, without the empty last one. */
const lines = (r: CliResult): string[] => r.stderr.split('\n').filter((l) => l !== '');

describe('cli: doctor --restore checks pending-restore.json before any tool', function () {
  this.timeout(30_000);
  let dir: string;
  let runDir: string;
  let pending: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-doctor-restore-'));
    runDir = join(dir, 'reports', 'r');
    mkdirSync(runDir, { recursive: true });
    pending = join(runDir, 'pending-restore.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** doctor --restore with no tool on PATH (kind, Docker and Go all missing: exit 3 if any were looked up first). */
  const doctor = (): Promise<CliResult> =>
    runCli(['doctor', '--restore', '--reports', join(dir, 'reports')], { env: { PATH: join(dir, 'no-tools'), REBOOTLAB_CACHE: join(dir, 'cache') } });

  /** Exit 2, exactly `line` on stderr, nothing checked (no doctor line on stdout). */
  function refused(result: CliResult, line: string): void {
    expect(lines(result), result.stderr).to.deep.equal([line]);
    expect(result.stdout).to.equal('');
    expect(result.exitCode, result.stderr).to.equal(2);
  }

  for (const [name, content, problem] of [
    ['pid not a number', '{"pid":"x","entries":[]}', 'not a pending-restore.json written by rebootlab (expected {pid, entries: [{commands: [[...]]}]}); nothing run'],
    ['not JSON', '{"pid":', "not JSON: Unexpected end of JSON input"],
    ['a command rebootlab never writes', '{"pid":999999,"writtenAtMs":1,"entries":[{"label":"p","nodes":["n"],"commands":[["rm","-rf","/"]]}]}', "not one of rebootlab's undo commands: rm -rf /; nothing run"],
  ] as const) {
    it(`a malformed file (${name}): exit 2 naming the file, not 3 for the missing kind, and the file is kept`, async () => {
      writeFileSync(pending, content);
      refused(await doctor(), `ERROR: ${pending}: ${problem}; restore its faults by hand, then delete it`);
      expect(readFileSync(pending, 'utf8')).to.equal(content);
    });
  }

  it('a symbolic link: named, not followed, link and target left as they are', async () => {
    const target = join(dir, 'elsewhere.json');
    const content = '{"pid":999999,"writtenAtMs":1,"entries":[{"label":"p","nodes":["n"],"commands":[["docker","unpause","rebootlab-worker"]]}]}';
    writeFileSync(target, content);
    symlinkSync(target, pending);
    refused(await doctor(), `ERROR: ${pending}: a symbolic link, not the file rebootlab writes; not followed, nothing run; remove the link, or replace it by the regular file it points to`);
    expect(readlinkSync(pending)).to.equal(target);
    expect(readFileSync(target, 'utf8')).to.equal(content);
  });

  it('a directory: named, left as it is', async () => {
    mkdirSync(pending);
    refused(await doctor(), `ERROR: ${pending}: a directory, not the file rebootlab writes; nothing run; remove it, or replace it by the regular file rebootlab wrote`);
    expect(lstatSync(pending).isDirectory()).to.equal(true);
  });

  it('plain doctor (no --restore) names the same bad entries, exit 2, instead of every check ok (hostile-input tryout)', async () => {
    mkdirSync(pending);
    const result = await runCli(['doctor', '--reports', join(dir, 'reports')], { env: { PATH: join(dir, 'no-tools'), REBOOTLAB_CACHE: join(dir, 'cache') } });
    refused(result, `ERROR: ${pending}: a directory, not the file rebootlab writes; nothing run; remove it, or replace it by the regular file rebootlab wrote`);
  });

  it('one line per bad entry, in path order', async () => {
    writeFileSync(pending, '[]');
    mkdirSync(join(dir, 'reports', 'q'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'reports', 'q', 'pending-restore.json'));
    const result = await doctor();
    expect(lines(result).map((l) => l.split(': ')[0])).to.deep.equal([`ERROR`, `ERROR`]);
    expect(lines(result)[0]).to.include(join(dir, 'reports', 'q', 'pending-restore.json'));
    expect(lines(result)[1]).to.include(pending);
    expect(result.exitCode).to.equal(2);
  });
});

describe('cli: doctor names the --reports that holds a fault left behind', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-doctor-hint-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a run killed under --out elsewhere: the fix says --reports <that --out>, not the default reports (found by a new-user try)', async () => {
    const out = join(dir, 'elsewhere');
    const runDir = join(out, 'partition-120-20261207T150128Z');
    mkdirSync(runDir, { recursive: true });
    // A run killed with -9 left this file (pid gone); the run remembered its --out in the cache.
    writeFileSync(join(runDir, 'pending-restore.json'), JSON.stringify({ pid: 999999, writtenAtMs: 1, entries: [{ label: 'partition', nodes: ['rebootlab-worker'], commands: [['docker', 'unpause', 'rebootlab-worker']] }] }));
    mkdirSync(join(dir, 'cache'));
    writeFileSync(join(dir, 'cache', 'last-out'), `${out}\n`);
    const result = await runCli(['doctor'], { cwd: dir, env: { PATH: join(dir, 'no-tools'), REBOOTLAB_CACHE: join(dir, 'cache') } });
    const line = result.stdout.split('\n').find((l) => l.includes('faults left behind'));
    expect(line, result.stdout + result.stderr).to.equal(`MISSING faults left behind: ${runDir} — fix: rebootlab doctor --restore --reports ${out}`);
    expect(result.exitCode).to.equal(3);
  });
});
