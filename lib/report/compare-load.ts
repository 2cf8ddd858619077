// Finds run directories (expanding a matrix run's parent directory) and reads each run's result.json and run.json.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../common/errors.js';
import { RESULT_FILE } from './reporters/json.js';
import type { Result } from './result-types.js';

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
  const children = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(dir, d.name)).sort();
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
 * Read `<dir>/result.json` and, when present, `matrixValues` from `<dir>/run.json`.
 * @throws InputError naming the file when result.json is missing, not JSON, or not a rebootlab Result (exit code 2).
 */
export function loadRun(dir: string): LoadedRun {
  const path = join(dir, RESULT_FILE);
  if (!existsSync(path)) throw new InputError(`${dir}: not a run directory: no ${RESULT_FILE}`, `rebuild it with: rebootlab report ${dir}`);
  let result: Result;
  try {
    result = JSON.parse(readFileSync(path, 'utf8')) as Result;
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${(err as Error).message}`, `rebuild it with: rebootlab report ${dir}`, { cause: err });
  }
  if (result?.kind !== 'Result' || typeof result.metadata !== 'object') throw new InputError(`${path}: not a rebootlab result (kind is not Result)`, 'pass run directories written by rebootlab run');
  let matrixValues: Record<string, unknown> | null = null;
  try {
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { matrixValues?: Record<string, unknown> };
    matrixValues = info.matrixValues ?? null;
  } catch {
    // run.json is optional for compare: result.json carries variant and repeatIndex.
  }
  return { dir, result, matrixValues };
}
