// pending-restore.json: the Docker commands that would restore every fault not yet undone, written
// before each fault is injected, so `rebootlab doctor --restore` (or the next run) can clean up after a kill -9.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandError, formatCommand, run } from '../common/exec.js';
import type { RestoreCommand } from '../cluster/provider.js';

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
const ALREADY_RESTORED = [/is not paused/i, /already exists in network/i, /already connected/i, /No such container/i, /is not running/i];

/** Outcome of restoring one pending-restore.json. */
export interface RestoreReport {
  runDir: string;
  /** Commands run successfully (or found already restored), as shell-like text. */
  restored: string[];
  /** Commands that failed, with the one-line error. The file is kept when any failed. */
  failed: { command: string; error: string }[];
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

async function restoreOne(runDir: string, force: boolean): Promise<RestoreReport | null> {
  const file = join(runDir, PENDING_RESTORE_FILE);
  if (!existsSync(file)) return null;
  const content = JSON.parse(readFileSync(file, 'utf8')) as PendingRestoreFile;
  const report: RestoreReport = { runDir, restored: [], failed: [] };
  if (!force && isAlive(content.pid)) return { ...report, skippedLivePid: content.pid };
  for (const entry of [...content.entries].reverse()) {
    for (const [cmd, ...args] of entry.commands) {
      const text = formatCommand(cmd!, args);
      try {
        await run(cmd!, args, { timeoutMs: 120_000 });
        report.restored.push(text);
      } catch (error) {
        const stderr = error instanceof CommandError ? error.stderr : String(error);
        if (ALREADY_RESTORED.some((re) => re.test(stderr))) report.restored.push(text);
        else report.failed.push({ command: text, error: (error as Error).message });
      }
    }
  }
  if (report.failed.length === 0) rmSync(file, { force: true });
  return report;
}

/**
 * Restores the faults listed in pending-restore.json: of one run directory (`{runDir}`), or of every
 * run directory directly under `{reportsDir}`. A file whose process is still alive is skipped unless
 * `force`. A file is removed once all its commands succeeded. Used by `doctor --restore` and at run start.
 * @throws Error only when a file exists but is not valid JSON.
 */
export async function restorePending(target: { runDir: string } | { reportsDir: string }, force = false): Promise<RestoreReport[]> {
  const dirs = 'runDir' in target
    ? [target.runDir]
    : existsSync(target.reportsDir)
      ? readdirSync(target.reportsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(target.reportsDir, d.name))
      : [];
  const reports: RestoreReport[] = [];
  for (const dir of dirs) {
    const report = await restoreOne(dir, force);
    if (report) reports.push(report);
  }
  return reports;
}
