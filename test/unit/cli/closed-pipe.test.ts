// A reader that goes away (`rebootlab predict x.yaml | head`) ends the output quietly: no Node stack trace of an
// unhandled EPIPE, and the command's own exit code (found by a new-user try: predict, plan and doctor piped to
// `head` printed "Error: write EPIPE ... Unhandled 'error' event" and exited 1).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../../helpers/run-cli.js';

/** Runs the CLI with its stdout pipe closed before it writes anything; resolves to its exit code and stderr. */
function withStdoutClosed(args: readonly string[]): Promise<{ exitCode: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/rebootlab.js', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    child.stdout.destroy(); // the reader is gone: every write the CLI makes to stdout fails with EPIPE
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stderr });
    });
  });
}

describe('cli: a closed stdout pipe', function () {
  this.timeout(30_000);

  for (const args of [['predict', 'experiments/upgrade-impact.yaml'], ['compare', 'test/fixtures/runs/kind-outage-tuned-recorded'], ['validate', 'experiments/outage-tuned.yaml']]) {
    it(`${args.join(' ')}: no stack trace, exit 0 as with a reader`, async () => {
      const { exitCode, stderr } = await withStdoutClosed(args);
      expect(stderr, stderr).to.not.match(/EPIPE|Unhandled|at .*\.js/);
      expect(exitCode, stderr).to.equal(0);
    });
  }
});
