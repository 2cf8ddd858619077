// Reads a file the user hands rebootlab (an experiment file, run.json, a baseline, pending-restore.json): only a
// regular file, only up to a size, only text, each refusal one line naming the file (exit 2).
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from './errors.js';

/** Options of {@link readInputText}. */
export interface ReadInputOptions {
  /** How messages name the file, default its path: e.g. `--baseline reports/x/result.json`. */
  label?: string;
  /** Largest file accepted, bytes; larger files are refused before any byte is read. */
  maxBytes: number;
  /** Printed after a refusal, e.g. `pass the result.json of an earlier run`. */
  hint?: string;
}

/** What a failed open means, by errno code, in words (Node's own message repeats the path and the code). */
const OPEN_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'a loop of symbolic links',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENAMETOOLONG: 'the path or a name in it is too long',
  ENXIO: 'not a regular file',
};

/**
 * Reads `path` as UTF-8 text. Refuses, with one line naming `path`: an empty path, a missing file, a directory, anything that is
 * not a regular file (a FIFO or `/dev/zero` would block or never end), a file over `maxBytes`, and content that is
 * not text (a NUL byte or bytes that are not UTF-8).
 * @throws InputError (exit 2) for each of those.
 */
export function readInputText(path: string, options: ReadInputOptions): string {
  const refuse = (reason: string, cause?: unknown): InputError =>
    new InputError(`${options.label ?? path}: cannot read: ${reason}`, options.hint, cause === undefined ? undefined : { cause });
  // An empty path (a variable that expanded to nothing) would read as `: cannot read: no such file`.
  if (path === '') throw new InputError(`${options.label ?? "''"}: cannot read: no file given (the path is empty)`, options.hint);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(OPEN_ERRORS[code ?? ''] ?? (error as Error).message, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw refuse('is a directory');
    if (!stat.isFile()) throw refuse('not a regular file');
    if (stat.size > options.maxBytes) throw refuse(`${stat.size} bytes; at most ${options.maxBytes} bytes (${formatBytes(options.maxBytes)}) are read`);
    const buffer = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < stat.size) {
      const bytes = readSync(fd, buffer, filled, stat.size - filled, null);
      if (bytes === 0) break;
      filled += bytes;
    }
    return decodeText(buffer.subarray(0, filled), refuse);
  } finally {
    closeSync(fd);
  }
}

/** The text of `bytes`, refused when it holds a NUL byte or is not UTF-8 (a binary file, an image, an archive). */
function decodeText(bytes: Buffer, refuse: (reason: string) => InputError): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw refuse(`not a text file (a NUL byte at offset ${nul})`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('not a text file (not UTF-8)');
  }
}

/**
 * Reads and parses a JSON file, as {@link readInputText} reads it.
 * @throws InputError naming the file when it cannot be read or is not JSON (the parser's message, one line).
 */
export function readInputJson(path: string, options: ReadInputOptions): unknown {
  const text = readInputText(path, options);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`${options.label ?? path}: not JSON: ${(error as Error).message}`, options.hint, { cause: error });
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
