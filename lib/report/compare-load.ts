// Finds run directories (expanding a matrix run's parent directory) and reads each run's result.json and run.json.
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../common/errors.js';
import { readInputJson } from '../common/read-input.js';
import { checkResultShape, MAX_RESULT_BYTES } from './result-shape.js';
import { RESULT_FILE } from './reporters/json.js';
import type { Result } from './result-types.js';
import { readRunInfo, RUN_FILES } from './write-reports.js';

/** One run as compare reads it. */
export interface LoadedRun {
  /** The run directory as found (the argument, or argument/child for a matrix directory). */
  dir: string;
  result: Result;
  /** `matrixValues` of run.json (the matrix setting → value of this variant) when the runner wrote it, else null. */
  matrixValues: Record<string, unknown> | null;
}

const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();
const isRun = (dir: string): boolean => existsSync(join(dir, RESULT_FILE)) || existsSync(join(dir, 'run.json'));

/** Run directories below `dir` (children, then grandchildren), sorted by name; [] when none. */
function runsBelow(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`${dir}: cannot list: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'pass run directories written by rebootlab run', { cause: error });
  }
  const children = entries.filter((d) => d.isDirectory()).map((d) => join(dir, d.name)).sort();
  return children.flatMap((child) => (isRun(child) ? [child] : runsBelow(child, depth - 1)));
}

/**
 * Expand arguments into run directories: a directory holding result.json or run.json is a run; any other
 * directory (e.g. a matrix run's parent) expands to the runs in its children and grandchildren, sorted by name.
 * @throws InputError naming the argument when it does not exist, is not a directory, or holds no run (exit code 2).
 */
export function expandRunDirs(args: readonly string[]): string[] {
  if (args.length === 0) throw new InputError('compare needs at least one run directory', 'pass run directories or a matrix directory, e.g. rebootlab compare reports/outage-tuned-matrix');
  return args.flatMap((arg) => {
    if (!isDir(arg)) throw new InputError(`${arg}: not a directory`, 'pass run directories written by rebootlab run');
    if (isRun(arg)) return [arg];
    const runs = runsBelow(arg, 2);
    if (runs.length === 0) throw new InputError(`${arg}: not a run directory (no result.json or run.json) and holds none`, 'pass run directories written by rebootlab run');
    return runs;
  });
}

/**
 * What to do about an unreadable `<dir>/run.json`: only `rebootlab run` writes it (`rebootlab report` reads it, to
 * rebuild result.json), so the run is incomplete or corrupted and the way out is a new run or a comparison without it.
 */
export function runInfoHint(dir: string): string {
  return `run.json is written only by rebootlab run and nothing rebuilds it: run the experiment again, or leave ${dir} out of the comparison`;
}

/**
 * Why `rebootlab report <dir>` could not rebuild the run's result.json, as it checks (lib/run/commands.ts
 * reportCommand): no observations.jsonl (or not a regular file), no run.json, or a run.json that is not JSON or not
 * the shape rebootlab writes (its one-line message); null when both are there and run.json reads.
 */
export function whyReportCannotRebuild(dir: string): string | null {
  const journal = join(dir, RUN_FILES.journal);
  if (!existsSync(journal)) return `no ${RUN_FILES.journal}`;
  if (!statSync(journal).isFile()) return `${RUN_FILES.journal} is not a regular file`;
  if (!existsSync(join(dir, RUN_FILES.runInfo))) return `no ${RUN_FILES.runInfo}`;
  try {
    readRunInfo(dir);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  return null;
}

/**
 * What to do about a missing or broken `<dir>/result.json`: `rebuild it with: rebootlab report <dir>` when report can
 * (observations.jsonl and a readable run.json are there), else the run is incomplete: a new run, or a comparison without it.
 */
export function resultHint(dir: string): string {
  const why = whyReportCannotRebuild(dir);
  if (why === null) return `rebuild it with: rebootlab report ${dir}`;
  return `the run is incomplete (${why}), so rebootlab report cannot rebuild it: run the experiment again, or leave ${dir} out of the comparison`;
}

/**
 * Read `<dir>/result.json` and, when present, `matrixValues` from `<dir>/run.json`.
 * @throws InputError naming the file when result.json is missing, not JSON, or not a rebootlab Result (the first wrong
 *   field, schema/result.schema.json; hint: {@link resultHint}), or run.json is not JSON or its matrixValues is not an
 *   object (hint: {@link runInfoHint}) (exit code 2).
 */
export function loadRun(dir: string): LoadedRun {
  const path = join(dir, RESULT_FILE);
  if (!existsSync(path)) throw new InputError(`${dir}: not a run directory: no ${RESULT_FILE}`, resultHint(dir));
  let result: Result;
  try {
    result = checkResultShape(readInputJson(path, { maxBytes: MAX_RESULT_BYTES }), path);
  } catch (error) {
    // The hint reads the journal and run.json, so only for a result.json that is wrong: a good one needs neither.
    if (error instanceof InputError) throw new InputError(error.message, resultHint(dir), { cause: error });
    throw error;
  }
  let matrixValues: Record<string, unknown> | null = null;
  const infoPath = join(dir, 'run.json');
  if (existsSync(infoPath)) {
    // run.json is optional for compare (result.json carries variant and repeatIndex), but one that is there must be right.
    // `rebootlab report` reads run.json and rebuilds result.json from it: nothing rebuilds run.json itself.
    const infoHint = runInfoHint(dir);
    const info = readInputJson(infoPath, { maxBytes: MAX_RESULT_BYTES, hint: infoHint });
    const values = typeof info === 'object' && info !== null ? (info as { matrixValues?: unknown }).matrixValues : undefined;
    if (values !== undefined && values !== null && (typeof values !== 'object' || Array.isArray(values))) {
      throw new InputError(`${infoPath}: not a rebootlab run.json: matrixValues: must be an object`, infoHint);
    }
    matrixValues = (values as Record<string, unknown> | undefined) ?? null;
  }
  return { dir, result, matrixValues };
}
