// pending-restore.json: the commands that would restore every fault not yet undone, written before each fault
// is injected, so `rebootlab doctor --restore` (or the next run) can clean up after a kill -9. Only rebootlab's
// own undo commands on its own clusters' nodes are ever run from it (restore-commands.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import { CommandError, formatCommand, run } from '../common/exec.js';
import { cacheDir, createRestoreTargets, type RestoreCommand, type RestoreTargets } from '../cluster/index.js';
import { checkRestoreCommand, parseRestoreCommand, restoreCommandText } from './restore-commands.js';
import { readInputJson } from '../common/read-input.js';

/** File name of the restore list inside a run directory. */
export const PENDING_RESTORE_FILE = 'pending-restore.json';

/** One fault not yet undone. */
export interface PendingRestoreEntry {
  /** What was done, e.g. `pause kind-worker`. */
  label: string;
  nodes: string[];
  /** Commands to run in order to restore it, e.g. `[["docker", "unpause", "kind-worker"]]`. */
  commands: RestoreCommand[];
}

/** Content of pending-restore.json. Entries in injection order; restore them in reverse. */
export interface PendingRestoreFile {
  /** Process that injected the faults; a live one is still in charge of them. */
  pid: number;
  /** Client clock when last written: Unix epoch, milliseconds. */
  writtenAtMs: number;
  entries: PendingRestoreEntry[];
}

/**
 * Writes (or, with no entries, removes) `<runDir>/pending-restore.json` atomically and synchronously,
 * so the file is on disk before the fault it covers is injected. @throws Error on a file-system failure.
 */
export function writePendingRestore(runDir: string, entries: PendingRestoreEntry[]): void {
  const file = join(runDir, PENDING_RESTORE_FILE);
  if (entries.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  const content: PendingRestoreFile = { pid: process.pid, writtenAtMs: Date.now(), entries };
  writeFileSync(`${file}.tmp`, JSON.stringify(content, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
}

/** Errors that mean "already restored" or "nothing left to restore". */
const ALREADY_RESTORED = [/is not paused/i, /already exists in network/i, /already connected/i, /No such container/i, /is not running/i, /Error from server \(NotFound\)/, /taint ".*" not found/];

/** Outcome of restoring one pending-restore.json. */
export interface RestoreReport {
  runDir: string;
  /** Commands run successfully (or found already restored), as shell-like text. */
  restored: string[];
  /**
   * Commands that failed or were refused (not rebootlab's own undo on a node of a cluster it made), with the
   * one-line reason and its cause: `input` (the file or a command in it is not what rebootlab writes) or
   * `infrastructure` (Docker or the cluster could not be asked, or the command failed). The file is kept when any failed.
   */
  failed: { command: string; error: string; cause: 'input' | 'infrastructure' }[];
  /** Set when the file's process is still alive and the file was left alone. */
  skippedLivePid?: number;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Largest pending-restore.json read, bytes: a few entries of a few commands each are a few KiB. */
const MAX_PENDING_RESTORE_BYTES = 1024 * 1024;

/** Reads a pending-restore.json: its content, or why it is not the shape rebootlab writes (one line). */
function readPendingFile(file: string): PendingRestoreFile | { error: string } {
  let content: Partial<PendingRestoreFile>;
  try {
    content = readInputJson(file, { maxBytes: MAX_PENDING_RESTORE_BYTES }) as Partial<PendingRestoreFile>;
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  }
  const shape = 'not a pending-restore.json written by rebootlab (expected {pid, entries: [{commands: [[...]]}]}); nothing run';
  if (typeof content !== 'object' || content === null || typeof content.pid !== 'number' || !Array.isArray(content.entries)) return { error: shape };
  if (!content.entries.every((e) => typeof e === 'object' && e !== null && Array.isArray((e as PendingRestoreEntry).commands))) return { error: shape };
  return content as PendingRestoreFile;
}

/** Runs one checked restore command; "already restored" errors count as success. */
async function runRestoreCommand(argv: readonly string[], exec: (argv: readonly string[]) => Promise<void>): Promise<{ ok: true; text: string } | { ok: false; text: string; error: string }> {
  const [cmd, ...args] = argv;
  const text = formatCommand(cmd!, args);
  try {
    await exec(argv);
    return { ok: true, text };
  } catch (error) {
    const stderr = error instanceof CommandError ? error.stderr : String(error);
    if (ALREADY_RESTORED.some((re) => re.test(stderr))) return { ok: true, text };
    return { ok: false, text, error: (error as Error).message };
  }
}

async function restoreOne(runDir: string, options: Required<RestoreOptions>): Promise<RestoreReport | null> {
  const { force, targets, exec } = options;
  const file = join(runDir, PENDING_RESTORE_FILE);
  if (!existsSync(file)) return null;
  const report: RestoreReport = { runDir, restored: [], failed: [] };
  const content = readPendingFile(file);
  if ('error' in content) {
    report.failed.push({ command: file, error: content.error, cause: 'input' });
    return report;
  }
  if (!force && isAlive(content.pid)) return { ...report, skippedLivePid: content.pid };
  for (const entry of [...content.entries].reverse()) {
    for (const command of entry.commands) {
      const text = Array.isArray(command) && command.every((w) => typeof w === 'string') ? restoreCommandText(command) : JSON.stringify(command);
      let checked: Awaited<ReturnType<typeof checkRestoreCommand>>;
      try {
        checked = await checkRestoreCommand(command, targets);
      } catch (error) {
        // Who owns the node could not be asked: the fault may still be in place, so the record stays.
        report.failed.push({ command: text, error: (error as Error).message.split('\n')[0]!, cause: 'infrastructure' });
        continue;
      }
      if ('error' in checked && checked.gone) {
        report.restored.push(`${text} (not run: ${checked.error})`);
        continue;
      }
      if ('error' in checked) {
        // A command rebootlab never writes is bad input; one it could not check (Docker unreachable) is not.
        report.failed.push({ command: text, error: `refused: ${checked.error}`, cause: checked.unchecked ? 'infrastructure' : 'input' });
        continue;
      }
      const outcome = await runRestoreCommand(checked.argv, exec);
      if (outcome.ok) report.restored.push(outcome.text);
      else if (!checked.fallback) report.failed.push({ command: outcome.text, error: outcome.error, cause: 'infrastructure' });
      else {
        const second = await runRestoreCommand(checked.fallback, exec);
        if (second.ok) report.restored.push(second.text);
        else report.failed.push({ command: second.text, error: `${second.error} (after: ${outcome.error})`, cause: 'infrastructure' });
      }
    }
  }
  if (report.failed.length === 0) rmSync(file, { force: true });
  return report;
}

/** Deepest directory level searched under a reports directory (a matrix run sits at depth 2). */
const MAX_SCAN_DEPTH = 8;

/** What a directory entry named pending-restore.json is, as read without following it (lstat). */
type PendingEntryKind = 'file' | 'symlink' | 'directory' | 'other';

/** Every entry named pending-restore.json at any depth under `reportsDir` (itself included), links not followed. */
function scanPendingRestore(reportsDir: string): { dir: string; kind: PendingEntryKind }[] {
  const found: { dir: string; kind: PendingEntryKind }[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === PENDING_RESTORE_FILE) found.push({ dir, kind: e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : 'other' });
      if (e.isDirectory() && e.name !== PENDING_RESTORE_FILE && depth < MAX_SCAN_DEPTH) visit(join(dir, e.name), depth + 1);
    }
  };
  visit(reportsDir, 0);
  return found.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * Directories holding a pending-restore.json (a regular file) at any depth under `reportsDir` (itself included),
 * without following symbolic links, at most {@link MAX_SCAN_DEPTH} levels down. Sorted; empty when `reportsDir` does
 * not exist. A link, directory or other non-file of that name is not listed ({@link checkPendingRestoreFiles} names it).
 */
export function findPendingRestoreDirs(reportsDir: string): string[] {
  return scanPendingRestore(reportsDir).filter((e) => e.kind === 'file').map((e) => e.dir);
}

/** One pending-restore.json that cannot be restored from as it is: `problem` and `fix` are each one line. */
export interface PendingRestoreProblem {
  /** Path of the entry named pending-restore.json (under one of the searched directories). */
  file: string;
  problem: string;
  fix: string;
}

/**
 * Checks, without running anything or asking Docker, every entry named pending-restore.json at any depth under each of
 * `reportsDirs` (as {@link findPendingRestoreDirs} searches): a symbolic link (never followed), a directory or another
 * non-file, a file that is not the shape rebootlab writes (unreadable, not JSON, wrong fields), and a command that is
 * not one of rebootlab's undo commands ({@link parseRestoreCommand}). Nothing is changed on disk.
 * @returns one problem per bad entry, sorted by path; empty when every file can be restored from. Never throws.
 */
export function checkPendingRestoreFiles(reportsDirs: readonly string[]): PendingRestoreProblem[] {
  const problems: PendingRestoreProblem[] = [];
  const seen = new Set<string>();
  for (const { dir, kind } of reportsDirs.flatMap((d) => scanPendingRestore(d))) {
    const file = join(dir, PENDING_RESTORE_FILE);
    if (seen.has(file)) continue;
    seen.add(file);
    const byHand = 'restore its faults by hand, then delete it';
    if (kind === 'symlink') {
      problems.push({ file, problem: 'a symbolic link, not the file rebootlab writes; not followed, nothing run', fix: 'remove the link, or replace it by the regular file it points to' });
    } else if (kind === 'directory') {
      problems.push({ file, problem: 'a directory, not the file rebootlab writes; nothing run', fix: 'remove it, or replace it by the regular file rebootlab wrote' });
    } else if (kind === 'other') {
      problems.push({ file, problem: 'not a regular file (a FIFO, socket or device); nothing run', fix: 'remove it' });
    } else {
      const content = readPendingFile(file);
      if ('error' in content) {
        // readInputJson's message starts with the path already; the problem line names it once.
        problems.push({ file, problem: content.error.startsWith(`${file}: `) ? content.error.slice(file.length + 2) : content.error, fix: byHand });
        continue;
      }
      const bad = content.entries.flatMap((e) => e.commands.map((c) => parseRestoreCommand(c))).find((p): p is { error: string } => 'error' in p);
      if (bad) problems.push({ file, problem: `${bad.error}; nothing run`, fix: byHand });
    }
  }
  return problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** File in the rebootlab cache that remembers the last `--out` of a run (absolute path, one line). */
export function lastOutFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'last-out');
}

/** Remembers `outDir` as the last `--out`, so a later `run` or `doctor` anywhere finds its faults. Never throws. */
export function rememberOutDir(outDir: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    mkdirSync(cacheDir(env), { recursive: true });
    writeFileSync(lastOutFile(env), resolve(outDir) + '\n');
  } catch {
    // Remembering is a convenience; the run's own --out is searched anyway.
  }
}

/**
 * Where to look for pending-restore.json: the given directories, the default reports directory (`reports` in
 * the working directory) and the last `--out` remembered in the cache; absolute, without duplicates, in that order.
 */
export function restoreSearchDirs(given: readonly string[], defaultReportsDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [...given, defaultReportsDir];
  try {
    const last = readFileSync(lastOutFile(env), 'utf8').trim();
    if (last) dirs.push(last);
  } catch {
    // no run remembered yet
  }
  return [...new Set(dirs.map((d) => resolve(d)))];
}

/** Options of {@link restorePending}. */
export interface RestoreOptions {
  /** Restore even when the file's process is still alive (doctor --restore). Default false. */
  force?: boolean;
  /** Who owns what; default {@link createRestoreTargets} of this machine's cache. */
  targets?: RestoreTargets;
  /** Runs one checked argv; default runs it with a 120000-millisecond timeout. @throws CommandError when it fails. */
  exec?: (argv: readonly string[]) => Promise<void>;
}

/**
 * Restores the faults listed in pending-restore.json: of one run directory (`{runDir}`), or of every directory at
 * any depth under each of `{reportsDirs}` (see {@link findPendingRestoreDirs}). Each command is checked first
 * ({@link checkRestoreCommand}): only rebootlab's own undo commands on nodes of clusters it made run; others are
 * reported in `failed` as refused. A file whose process is still alive is skipped unless `options.force`. A file is
 * removed once all its commands succeeded. Used by `doctor --restore` and at run start.
 * @throws InfraError only when Docker cannot be asked who owns a container.
 */
export async function restorePending(target: { runDir: string } | { reportsDirs: readonly string[] }, options: RestoreOptions = {}): Promise<RestoreReport[]> {
  const resolved: Required<RestoreOptions> = {
    force: options.force ?? false,
    targets: options.targets ?? createRestoreTargets(),
    exec: options.exec ?? (async ([cmd, ...args]) => void (await run(cmd!, args, { timeoutMs: 120_000 }))),
  };
  const dirs = 'runDir' in target ? [target.runDir] : [...new Set(target.reportsDirs.flatMap((d) => findPendingRestoreDirs(d)))];
  const reports: RestoreReport[] = [];
  for (const dir of dirs) {
    const report = await restoreOne(dir, resolved);
    if (report) reports.push(report);
  }
  return reports;
}
