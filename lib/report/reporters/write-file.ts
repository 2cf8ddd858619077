// Writes or appends one report file, turning a filesystem failure into an InfraError that names the path.
import { appendFileSync } from 'node:fs';
import { InfraError } from '../../common/errors.js';
import { replaceFile } from '../../common/replace-file.js';

/**
 * Write `text` (UTF-8) to `path`, replacing it through a temporary file and a rename (a symbolic link at `path` is
 * replaced, its target never written: lib/common/replace-file.ts), or append when `append` is true.
 * @throws InfraError naming the path and the system error (exit code 3).
 */
export function writeReportFile(path: string, text: string, append = false): void {
  try {
    if (append) appendFileSync(path, text);
    else replaceFile(path, text);
  } catch (err) {
    throw new InfraError(`cannot write ${path}: ${(err as Error).message}`, 'check that the directory exists and is writable', { cause: err });
  }
}
