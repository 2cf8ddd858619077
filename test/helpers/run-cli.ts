// Runs the real rebootlab CLI in a subprocess (`node bin/rebootlab.js ...`) for black-box tests.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is dist/test/helpers/run-cli.js once compiled). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What a CLI run produced. */
export interface CliResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <repository>/bin/rebootlab.js ...args`, in the repository root unless `cwd` is given.
 * @param timeoutMs kill the process after this many milliseconds (default 15000).
 * @param env variables added to (or replacing) this process's environment.
 * @returns exit code (null if killed), stdout and stderr in full.
 */
export function runCli(args: readonly string[], options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'rebootlab.js'), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}
