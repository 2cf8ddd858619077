// Runs external commands (docker, kind) for the rest of rebootlab; the only module that imports execa.
import { execa, execaSync, ExecaError, ExecaSyncError } from 'execa';
import { escapeControlOrBidi, hasControlOrBidi, InfraError } from './errors.js';

/** Options of {@link run}. */
export interface RunOptions {
  /** Text written to the command's stdin. */
  input?: string;
  /** Kill the command after this many milliseconds (default: no limit). */
  timeoutMs?: number;
  /** Environment variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Working directory; default the current one. */
  cwd?: string;
  /** Hint attached to the InfraError when the command fails, e.g. `Run: rebootlab doctor`. */
  hint?: string;
}

/**
 * An external command that failed: `message` is one line, `<cmd> failed: <last stderr line>`;
 * the full stderr, the exit code and the command line are kept on the error.
 */
export class CommandError extends InfraError {
  constructor(
    message: string,
    readonly command: string,
    readonly stderr: string,
    readonly exitCodeOfCommand: number | undefined,
    hint?: string,
    options?: ErrorOptions,
  ) {
    super(message, hint, options);
  }
}

/**
 * Quote one argument for display only (never passed to a shell). An argument holding a control or bidirectional
 * formatting character (lib/common/errors.ts CONTROL_OR_BIDI_CLASS: a line break, escape, U+202E) is written in
 * ANSI-C quotes with that character escaped (`$'virsh start x\necho y'`, `$'\u202e'`), so the command stays one line
 * and reads in the order it runs.
 */
function quote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  if (hasControlOrBidi(arg)) return `$'${escapeControlOrBidi(arg.replace(/\\/g, '\\\\').replace(/'/g, "\\'"))}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line as a person would type it, for messages and restore files. */
export function formatCommand(file: string, args: readonly string[]): string {
  return [file, ...args].map(quote).join(' ');
}

/** The last non-empty line of a text, trimmed; `''` if there is none. */
export function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  return lines.length > 0 ? lines[lines.length - 1]! : '';
}

/**
 * Runs `file args...` without a shell and resolves to its stdout, trailing newline removed.
 * @throws CommandError (an InfraError, exit code 3) when the command cannot start, exits non-zero or
 *   times out; its message is `<cmd> failed: <last stderr line>`, its `stderr` the full stderr.
 */
export async function run(file: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  const command = formatCommand(file, args);
  try {
    const result = await execa(file, args, {
      input: options.input,
      timeout: options.timeoutMs,
      env: options.env,
      cwd: options.cwd,
      stripFinalNewline: true,
    });
    return result.stdout;
  } catch (error) {
    if (error instanceof ExecaError) {
      const stderr = typeof error.stderr === 'string' ? error.stderr : '';
      const reason = error.timedOut
        ? `timed out after ${options.timeoutMs} ms`
        : error.isTerminated
          ? `killed by ${error.signal ?? 'a signal'}${lastLine(stderr) ? ` during: ${lastLine(stderr)}` : ''}`
          : lastLine(stderr) || (error.code === 'ENOENT' ? `${file}: command not found` : error.shortMessage);
      throw new CommandError(`${command} failed: ${reason}`, command, stderr, error.exitCode, options.hint, { cause: error });
    }
    throw error;
  }
}

/**
 * Runs `file args...` without a shell on this process's own stdin, stdout and stderr (a long script the user
 * watches) and resolves to its exit code; undefined when it could not start. Never rejects on a failed command.
 */
export async function runInTerminal(file: string, args: readonly string[]): Promise<number | undefined> {
  const result = await execa(file, args, { stdio: 'inherit', reject: false });
  return result.exitCode;
}

/** True when `file` can be started (`file --version`-style probe with the given args exits 0). */
export async function canRun(file: string, args: readonly string[]): Promise<boolean> {
  try {
    await run(file, args, { timeoutMs: 15_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `file args...` synchronously (for loading steps that are synchronous, e.g. `kubectl kustomize` while an
 * experiment file is read) and returns its stdout, trailing newline removed.
 * @throws CommandError as {@link run} does.
 */
export function runSync(file: string, args: readonly string[], options: Pick<RunOptions, 'timeoutMs' | 'hint'> = {}): string {
  const command = formatCommand(file, args);
  try {
    return execaSync(file, args, { timeout: options.timeoutMs, stripFinalNewline: true }).stdout;
  } catch (error) {
    if (error instanceof ExecaSyncError) {
      const stderr = typeof error.stderr === 'string' ? error.stderr : '';
      const reason = lastLine(stderr) || (error.code === 'ENOENT' ? `${file}: command not found` : error.shortMessage);
      throw new CommandError(`${command} failed: ${reason}`, command, stderr, error.exitCode, options.hint, { cause: error });
    }
    throw error;
  }
}
