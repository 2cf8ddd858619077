// Issue 11, first run: the README's commands, exactly as written, from a fresh clone of this repository. A green
// `npm test` once hid a missing build step: this test clones the committed tree, runs every command of the README's
// "The two commands" block in order (all but the test command itself, which is what is running now) in a clean
// environment, and asserts that the main job passed and wrote its reports. GITHUB_STEP_SUMMARY is set as GitHub
// Actions sets it: the README and the example workflow promise that the job summary then gets summary.md.
import { expect } from 'chai';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.js';
import { readResult } from '../helpers/run-dirs.js';
import { readToolchain } from '../helpers/toolchain.js';

const MINUTE_MS = 60_000;
/** The test command of the README: not run from inside itself. */
const TEST_COMMAND = 'npm test';

/**
 * The shell commands of the README's "The two commands" block, in order, without their `# …` comments.
 * @throws Error when the README has no such block (the README and this test must agree).
 */
export function readmeCommands(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('The two commands'));
  const block = section?.match(/```sh\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## The two commands"');
  return block.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

/** This process's environment without what `npm test` adds (npm_* variables would steer the inner npm). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_') && key !== 'INIT_CWD'));
}

describe('the README commands from a fresh clone (issue 11)', function () {
  this.timeout(25 * MINUTE_MS);
  const toolchain = readToolchain();
  const clone = mkdtempSync(join(tmpdir(), 'rebootlab-clone-'));
  const commands = readmeCommands(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
  let clusterName: string | null = null;

  after(async function () {
    // The main job deletes its cluster itself; this only cleans up after a failure.
    if (clusterName) await execa(toolchain.kind, ['delete', 'cluster', '--name', clusterName], { reject: false });
    if (!process.env.REBOOTLAB_KEEP_REPORTS) rmSync(clone, { recursive: true, force: true });
  });

  it('the README lists the install, main-job and test commands', function () {
    expect(commands).to.include(TEST_COMMAND);
    expect(commands[0]).to.match(/^npm ci\b/);
    expect(commands.some((c) => c.startsWith('npx rebootlab run '))).to.equal(true);
  });

  it('runs them in order in a fresh clone: the main job passes, every pod on the rebooted worker restarts in place', async function () {
    await execa('git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, clone]);
    expect(existsSync(join(clone, 'dist')), 'a fresh clone has no dist/').to.equal(false);
    const stepSummary = join(clone, 'step-summary.md');
    writeFileSync(stepSummary, '# an earlier step\n');
    let mainJobStderr = '';
    for (const command of commands.filter((c) => c !== TEST_COMMAND)) {
      const started = Date.now();
      const env = { ...cleanEnv(), GITHUB_STEP_SUMMARY: stepSummary };
      const res = await execa('bash', ['-c', command], { cwd: clone, env, extendEnv: false, reject: false, all: true, timeout: 20 * MINUTE_MS });
      console.log(`      ${command}: exit ${res.exitCode} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(res.exitCode, `${command}\n${res.all?.slice(-4000)}`).to.equal(0);
      if (command.startsWith('npx rebootlab run ')) mainJobStderr = String(res.stderr);
    }
    const reports = join(clone, 'reports');
    const runs = readdirSync(reports).filter((d) => d.startsWith('reboot-quick-'));
    expect(runs, `run directories in ${reports}`).to.have.length(1);
    const runDir = join(reports, runs[0]!);
    const result = readResult(runDir);
    clusterName = result.spec.cluster.name;
    expect(result.status).to.equal('passed');
    for (const file of ['observations.jsonl', 'run.json', 'result.json', 'summary.md', 'report.html', 'junit.xml']) expect(existsSync(join(runDir, file)), file).to.equal(true);
    // Default reporters: the list reporter's progress live on stderr, and the job summary appended (reporter github).
    expect(mainJobStderr).to.match(/^\[\s*\d+ s\] fault-injected rebootlab-worker\d*$/m);
    expect(readFileSync(stepSummary, 'utf8')).to.equal(`# an earlier step\n${readFileSync(join(runDir, 'summary.md'), 'utf8')}\n`);
    const web = result.pods.filter((p) => p.workload === 'web');
    expect(web).to.have.length(2);
    for (const pod of web) {
      expect(pod.outcome).to.equal('restarted-in-place');
      expect(pod.restartCountDelta).to.equal(1);
      expect(pod.nodeAfter).to.equal(pod.nodeBefore);
      expect(pod.podIPBefore, 'pod IP before').to.be.a('string');
      expect(pod.podIPAfter, 'pod IP after').to.be.a('string');
    }
    expect(result.nodes.find((n) => n.faultTarget)!.readyAtEnd).to.equal(true);
    // Without --keep-cluster the main job deletes the cluster it made.
    const { stdout } = await execa(toolchain.kind, ['get', 'clusters']);
    expect(stdout.split('\n')).to.not.include(clusterName);
    clusterName = null;
  });
});
