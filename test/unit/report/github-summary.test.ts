// Tests for lib/report/reporters/github-summary.ts: appends to $GITHUB_STEP_SUMMARY only when it is set.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendStepSummary, createGithubSummaryReporter } from '../../../lib/report/reporters/github-summary.js';
import { renderSummary } from '../../../lib/report/reporters/markdown.js';
import { fixtureResult } from './synthetic-results.js';

describe('report/github-summary', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rebootlab-gh-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends the Markdown summary after what earlier steps wrote, once per run', async () => {
    const path = join(dir, 'step_summary.md');
    writeFileSync(path, '# earlier step\n');
    const r = fixtureResult('reboot-quick');
    const reporter = createGithubSummaryReporter({ log: () => {}, env: { GITHUB_STEP_SUMMARY: path } });
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    await reporter.onEnd!({ runDir, result: r, analysis: {} as never });
    await reporter.onEnd!({ runDir, result: r, analysis: {} as never });
    expect(readFileSync(path, 'utf8')).to.equal(`# earlier step\n${renderSummary(r)}\n${renderSummary(r)}\n`);
  });
  it('does nothing without GITHUB_STEP_SUMMARY', () => {
    expect(appendStepSummary(fixtureResult('reboot-quick'), {})).to.equal(false);
    expect(appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: '' })).to.equal(false);
  });
  it('the reporter without GITHUB_STEP_SUMMARY writes nothing and warns that it did not', async () => {
    const warnings: string[] = [];
    const reporter = createGithubSummaryReporter({ log: (level, message) => warnings.push(`${level}: ${message}`), env: {} });
    await reporter.onEnd!({ runDir: dir, result: fixtureResult('reboot-quick'), analysis: {} as never });
    expect(warnings).to.deep.equal(['warn: reporter github: GITHUB_STEP_SUMMARY is not set; no job summary written']);
  });
  it('refuses a summary file inside the run directory (the journal, a report, or through a link), leaving it as it was', () => {
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    const journal = join(runDir, 'observations.jsonl');
    writeFileSync(journal, '{"type":"phase"}\n');
    symlinkSync(runDir, join(dir, 'link'));
    for (const path of [journal, join(runDir, 'new.md'), join(dir, 'link', 'observations.jsonl'), runDir]) {
      expect(() => appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: path }, runDir))
        .to.throw(`GITHUB_STEP_SUMMARY=${path} is inside the run directory ${runDir}`).with.property('exitCode', 2);
    }
    expect(readFileSync(journal, 'utf8')).to.equal('{"type":"phase"}\n');
    expect(appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: join(dir, 'outside.md') }, runDir)).to.equal(true);
  });
  it('refuses a hard link to a run file outside the run directory (the journal grew by the summary, exit 0: hostile-input tryout)', () => {
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    const journal = join(runDir, 'observations.jsonl');
    writeFileSync(journal, '{"type":"phase"}\n');
    const linked = join(dir, 'gh-summary.md');
    linkSync(journal, linked);
    expect(() => appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: linked }, runDir))
      .to.throw(`GITHUB_STEP_SUMMARY=${linked} is a hard link to a file of the run directory ${runDir}`).with.property('exitCode', 2);
    expect(readFileSync(journal, 'utf8')).to.equal('{"type":"phase"}\n');
  });
  it('refuses a FIFO or a directory (report hung on a FIFO: hostile-input tryout, 8 Dec); /dev/null takes the append', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: fifo }))
      .to.throw(`GITHUB_STEP_SUMMARY=${fifo} is a FIFO`).with.property('exitCode', 2);
    expect(() => appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: dir }))
      .to.throw(`GITHUB_STEP_SUMMARY=${dir} is a directory`).with.property('exitCode', 2);
    expect(appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: '/dev/null' })).to.equal(true);
  });
  it('an unwritable summary file is an infrastructure error (exit code 3) naming it', () => {
    const path = join(dir, 'no-such-dir', 'summary.md');
    expect(() => appendStepSummary(fixtureResult('reboot-quick'), { GITHUB_STEP_SUMMARY: path })).to.throw(`cannot write ${path}`).with.property('exitCode', 3);
  });
});
