// Writes a file by replacing it: a new temporary file beside it, then rename. A symbolic link left at the path (a
// run directory from a CI artifact may hold one) is replaced by the new file; the file it points to is never written.
import { closeSync, constants as fsConstants, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes `text` (UTF-8) to `path` by creating a temporary file in the same directory (O_CREAT | O_EXCL |
 * O_NOFOLLOW: never an existing file or a link) and renaming it over `path`. rename(2) replaces the directory
 * entry itself, so when `path` is a symbolic link the link is replaced and its target stays untouched; readers see
 * the old file or the new one, never half of it.
 * @throws Error (the system error) when the directory is not writable or `path` is a directory; the temporary
 *   file is removed first.
 */
export function replaceFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW, 0o644);
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
