// `rebootlab compare`: until the comparison reporter lands, a plain table of the runs' key figures.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, InputError } from '../common/errors.js';
import type { Result } from '../report/index.js';
import type { CommandOutcome, CompareOptions } from './options.js';

/**
 * Prints one line per run directory: detection, NoExecute taint and recovery of the fault target.
 * @throws InputError (exit 2) naming a directory without result.json.
 */
export async function compareCommand(options: CompareOptions): Promise<CommandOutcome> {
  const rows = options.runDirs.map((dir) => {
    const file = join(dir, 'result.json');
    if (!existsSync(file)) throw new InputError(`${dir}: not a run directory (no result.json)`, `Run: rebootlab report ${dir}`);
    return { dir, result: JSON.parse(readFileSync(file, 'utf8')) as Result };
  });
  options.print?.(options.output === 'json' ? JSON.stringify(rows.map((r) => ({ dir: r.dir, status: r.result.status })), null, 2) : rows.map((r) => `${r.result.status} ${r.dir}`).join('\n'));
  return { exitCode: ExitCode.Ok };
}
