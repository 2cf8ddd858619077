// `rebootlab report <run-dir> --reporter ...` end to end through the real CLI (a subprocess) on a run recorded on a
// real kind cluster: the chosen reporters and only they write; the GitHub job summary is appended when chosen and,
// by default, when GITHUB_STEP_SUMMARY is set, as GitHub Actions sets it (the README's and the example workflow's
// promise).
import { expect } from 'chai';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderSummary } from '../../../lib/report/reporters/markdown.js';
import type { Result } from '../../../lib/report/index.js';
import { REPO_ROOT, runCli } from '../../helpers/run-cli.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/runs/kind-reboot-quick-recorded');
const REPORT_FILES = ['junit.xml', 'report.html', 'result.json', 'summary.md'];

describe('rebootlab report --reporter (recorded kind run)', function () {
  this.timeout(60_000);
  let dir: string;
  let runDir: string;
  let stepSummary: string;
  const expected = JSON.parse(readFileSync(join(FIXTURE, 'result.json'), 'utf8')) as Result;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-reporters-'));
    runDir = join(dir, 'run');
    for (const file of ['observations.jsonl', 'run.json']) cpSync(join(FIXTURE, file), join(runDir, file));
    stepSummary = join(dir, 'step-summary.md');
    writeFileSync(stepSummary, '# an earlier step\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const written = () => readdirSync(runDir).filter((f) => !['observations.jsonl', 'run.json'].includes(f)).sort();

  it('by default writes the four reports and, with GITHUB_STEP_SUMMARY set, appends summary.md to it', async () => {
    const res = await runCli(['report', runDir], { env: { GITHUB_STEP_SUMMARY: stepSummary } });
    expect(res.exitCode, res.stderr).to.equal(0);
    expect(written()).to.deep.equal(REPORT_FILES);
    expect(readFileSync(join(runDir, 'result.json'), 'utf8')).to.equal(readFileSync(join(FIXTURE, 'result.json'), 'utf8'));
    expect(readFileSync(stepSummary, 'utf8')).to.equal(`# an earlier step\n${readFileSync(join(runDir, 'summary.md'), 'utf8')}\n`);
  });

  it('by default without GITHUB_STEP_SUMMARY writes the four reports and no job summary', async () => {
    const res = await runCli(['report', runDir], { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(res.exitCode, res.stderr).to.equal(0);
    expect(written()).to.deep.equal(REPORT_FILES);
    expect(res.stderr).to.equal('');
    expect(readFileSync(stepSummary, 'utf8')).to.equal('# an earlier step\n');
  });

  it('--reporter github: only the job summary, the Markdown of the run', async () => {
    const res = await runCli(['report', runDir, '--reporter', 'github'], { env: { GITHUB_STEP_SUMMARY: stepSummary } });
    expect(res.exitCode, res.stderr).to.equal(0);
    expect(res.stdout).to.equal(`PASSED ${runDir}: reports rebuilt\n`);
    expect(written()).to.deep.equal([]);
    expect(readFileSync(stepSummary, 'utf8')).to.equal(`# an earlier step\n${renderSummary(expected)}\n`);
  });

  it('--reporter github without GITHUB_STEP_SUMMARY warns that nothing was written', async () => {
    const res = await runCli(['report', runDir, '--reporter', 'github'], { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(res.exitCode).to.equal(0);
    expect(res.stderr).to.equal('warning: reporter github: GITHUB_STEP_SUMMARY is not set; no job summary written\n');
  });

  it('--reporter list,json: the progress lines replayed on stderr, and result.json alone', async () => {
    const res = await runCli(['report', runDir, '--reporter', 'list,json'], { env: { GITHUB_STEP_SUMMARY: stepSummary } });
    expect(res.exitCode, res.stderr).to.equal(0);
    expect(written()).to.deep.equal(['result.json']);
    const lines = res.stderr.trimEnd().split('\n').map((l) => l.replace(/^\[\s*\d+ s\] /, ''));
    expect(lines).to.include('fault-injecting rebootlab-worker');
    expect(lines).to.include('fault-injected rebootlab-worker');
    expect(readFileSync(stepSummary, 'utf8')).to.equal('# an earlier step\n');
  });

  it('GITHUB_STEP_SUMMARY naming the run\'s own journal: exit 2, the journal unchanged, the other reports written', async () => {
    const journal = join(runDir, 'observations.jsonl');
    const before = readFileSync(journal, 'utf8');
    const res = await runCli(['report', runDir], { env: { GITHUB_STEP_SUMMARY: journal } });
    expect(res.exitCode).to.equal(2);
    expect(res.stdout).to.equal(`PASSED ${runDir}: reports rebuilt except github\n`);
    expect(res.stderr).to.include(`ERROR: ${runDir}: not every report was rebuilt: reporter github: GITHUB_STEP_SUMMARY=${journal} is inside the run directory ${runDir}`);
    expect(readFileSync(journal, 'utf8')).to.equal(before);
    expect(written()).to.deep.equal(REPORT_FILES);
    // The journal is still whole: a second report passes.
    expect((await runCli(['report', runDir], { env: { GITHUB_STEP_SUMMARY: '' } })).exitCode).to.equal(0);
  });

  it('a report that cannot be written (summary.md is a directory): exit 3 naming the reporter, the others written', async () => {
    mkdirSync(join(runDir, 'summary.md'));
    writeFileSync(join(runDir, 'summary.md', 'keep'), 'x');
    const res = await runCli(['report', runDir], { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(res.exitCode).to.equal(3);
    expect(res.stdout).to.equal(`PASSED ${runDir}: reports rebuilt except markdown\n`);
    expect(res.stderr).to.match(/^ERROR: .*: not every report was rebuilt: reporter markdown: cannot write .*summary\.md/m);
    expect(readFileSync(join(runDir, 'result.json'), 'utf8')).to.equal(readFileSync(join(FIXTURE, 'result.json'), 'utf8'));
    expect(existsSync(join(runDir, 'report.html'))).to.equal(true);
  });

  it('--reporter with an unknown name: exit 2, one line naming it and the known ones, nothing written', async () => {
    const res = await runCli(['report', runDir, '--reporter', 'html', '--reporter', 'htm']);
    expect(res.exitCode).to.equal(2);
    expect(res.stderr).to.equal('ERROR: --reporter: unknown reporter "htm"; known: list, json, markdown, html, junit, github\n');
    expect(existsSync(join(runDir, 'report.html'))).to.equal(false);
  });
});
