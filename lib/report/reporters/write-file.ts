// Writes or appends one report file, turning a filesystem failure into an InfraError that names the path.
import { appendFileSync, writeFileSync } from 'node:fs';
import { InfraError } from '../../common/errors.js';

/**
 * Write `text` (UTF-8) to `path`, replacing it, or append when `append` is true.
 * @throws InfraError naming the path and the system error (exit code 3).
 */
export function writeReportFile(path: string, text: string, append = false): void {
  try {
    if (append) appendFileSync(path, text);
    else writeFileSync(path, text);
  } catch (err) {
    throw new InfraError(`cannot write ${path}: ${(err as Error).message}`, 'check that the directory exists and is writable', { cause: err });
  }
}
