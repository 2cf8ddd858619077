// Appends the run's Markdown summary to the GitHub Actions job summary file when GITHUB_STEP_SUMMARY is set.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, basename, isAbsolute, join, relative, resolve } from 'node:path';
import { InputError } from '../../common/errors.js';
import type { Reporter, ReporterOptions, RunResult } from '../reporter.js';
import type { Result } from '../result-types.js';
import { renderSummary } from './markdown.js';
import { writeReportFile } from './write-file.js';

/** Environment variable GitHub Actions sets to the job summary file (https://docs.github.com/actions/reference/workflow-commands-for-github-actions#adding-a-job-summary). */
export const STEP_SUMMARY_ENV = 'GITHUB_STEP_SUMMARY';

/** GitHub rejects a step summary above 1 MiB; a longer summary is cut and says so. */
const MAX_SUMMARY_BYTES = 1024 * 1024 - 1024;

/**
 * The Markdown appended for one run: summary.md (renderSummary) followed by a blank line, cut to just under
 * GitHub's 1 MiB step-summary limit with a note naming the run directory's summary.md.
 */
export function renderStepSummary(result: Result): string {
  const text = renderSummary(result) + '\n';
  if (Buffer.byteLength(text) <= MAX_SUMMARY_BYTES) return text;
  const cut = Buffer.from(text).subarray(0, MAX_SUMMARY_BYTES).toString('utf8').replace(/\uFFFD$/, '');
  return `${cut}\n\n_Summary cut at 1 MiB (GitHub's step summary limit); see summary.md in the run directory._\n\n`;
}

/**
 * Append `renderStepSummary(result)` to the file named by `env.GITHUB_STEP_SUMMARY`; does nothing (returns false)
 * when the variable is unset or empty, so the reporter is harmless outside GitHub Actions.
 * @throws InputError if `runDir` is given and the file is inside it (symbolic links resolved) or is one of its files
 *   under another name (a hard link: same device and inode): appending there would change the run's journal or reports;
 *   InputError if it is a FIFO, a socket or a directory; InfraError if the file cannot be appended to.
 */
export function appendStepSummary(result: Result, env: NodeJS.ProcessEnv = process.env, runDir?: string): boolean {
  const path = env[STEP_SUMMARY_ENV];
  if (!path) return false;
  if (runDir !== undefined && isInside(realPathOf(path), realPathOf(runDir))) {
    throw new InputError(
      `${STEP_SUMMARY_ENV}=${path} is inside the run directory ${runDir}: the github reporter appends to it and would change the run's own files`,
      `point ${STEP_SUMMARY_ENV} at a file outside the run directory`,
    );
  }
  if (runDir !== undefined && sameFileInDir(path, runDir)) {
    throw new InputError(
      `${STEP_SUMMARY_ENV}=${path} is a hard link to a file of the run directory ${runDir}: the github reporter appends to it and would change the run's own files`,
      `point ${STEP_SUMMARY_ENV} at a file of its own`,
    );
  }
  const kind = nonRegularKind(path);
  if (kind !== null) {
    throw new InputError(
      `${STEP_SUMMARY_ENV}=${path} is ${kind}: the github reporter appends the job summary to a file (a FIFO would block it until something reads it)`,
      `point ${STEP_SUMMARY_ENV} at a regular file, or unset it`,
    );
  }
  writeReportFile(path, renderStepSummary(result), true);
  return true;
}

/**
 * What `path` is (symbolic links followed) when it exists and cannot take an append that returns: "a FIFO", "a
 * socket" or "a directory"; null otherwise (a regular file, one not yet created, or a device such as /dev/null).
 */
function nonRegularKind(path: string): string | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return null; // not there yet: the append creates it
  }
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a directory';
  if (st.isSocket()) return 'a socket';
  return null;
}

/**
 * Reporter `github`: appends to `$GITHUB_STEP_SUMMARY` (read from `options.env`, default process.env) in onEnd; when
 * the variable is unset or empty it writes nothing and logs a warning saying so.
 * @throws InputError from onEnd if the file is inside the run directory; InfraError if it cannot be appended to.
 */
export function createGithubSummaryReporter(options: ReporterOptions): Reporter {
  return {
    onEnd({ result, runDir }: RunResult): void {
      if (!appendStepSummary(result, options.env ?? process.env, runDir)) options.log('warn', `reporter github: ${STEP_SUMMARY_ENV} is not set; no job summary written`);
    },
    printsToStdio: () => false,
  };
}

/** `path` with its symbolic links resolved, as far as it exists (a file not yet created: its directory's real path). */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute));
  }
}

/**
 * True when `path` exists and is, by device and inode, one of the regular files directly in `dir` (a hard link to the
 * journal has another path but the same file: a path check alone let `report` append into observations.jsonl).
 */
function sameFileInDir(path: string, dir: string): boolean {
  let target;
  try {
    target = statSync(path);
  } catch {
    return false; // not created yet: no run file can be it
  }
  if (!target.isFile() || target.nlink < 2) return false;
  try {
    return readdirSync(dir).some((name) => {
      try {
        const s = statSync(join(dir, name));
        return s.isFile() && s.dev === target.dev && s.ino === target.ino;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** True when `path` is `dir` or below it (both absolute). */
function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
