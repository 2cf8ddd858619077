// A small detached process per kwok cluster that tears the cluster down within ~1 s after the process
// that owns it exits without deleting it (a crash, SIGKILL): the components run detached so that a
// kept cluster (`rebootlab cluster create`, --keep-cluster) can outlive rebootlab, and nothing else
// would stop them. Run as `node watchdog.js <cluster-dir>`.
import { readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clusterFiles } from './paths.js';
import { readProcessTable, stopProcesses, type ProcessTable } from './processes.js';
import { dirname, basename } from 'node:path';

/** How often the watchdog checks its owner, milliseconds. */
export const WATCHDOG_INTERVAL_MS = 1_000;

/** The start time of a process in clock ticks since boot (/proc/<pid>/stat field 22), or null when it is gone. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : fields[19] ?? null; // field 22 overall = index 19 after "pid (comm)"
  } catch {
    return null;
  }
}

/** Writes the owner file: `<pid> <start ticks>`, so a reused pid is not taken for the owner. */
export function writeOwner(ownerFile: string, pid: number): void {
  writeFileSync(ownerFile, `${pid} ${processStartTicks(pid) ?? ''}\n`);
}

/**
 * Whether the cluster's owner is gone: false when there is no owner file (a kept cluster) or the owner
 * process still runs with the recorded start time.
 */
export function ownerGone(ownerFile: string): boolean {
  let text: string;
  try {
    text = readFileSync(ownerFile, 'utf8').trim();
  } catch {
    return false;
  }
  const [pid, ticks] = text.split(' ');
  const now = processStartTicks(Number(pid));
  return now === null || (ticks !== undefined && ticks !== '' && now !== ticks);
}

/** One check: tears the cluster in `dir` down when its owner is gone; resolves true when the watchdog should exit. */
export async function checkOnce(dir: string): Promise<boolean> {
  const files = clusterFiles(dirname(dir), basename(dir));
  if (!existsSync(dir)) return true;
  if (!ownerGone(files.ownerFile)) return false;
  const table: ProcessTable = await readProcessTable(files.pidsFile);
  delete table['watchdog'];
  await stopProcesses(table);
  rmSync(dir, { recursive: true, force: true });
  return true;
}

async function main(dir: string): Promise<void> {
  for (;;) {
    if (await checkOnce(dir)) return;
    await new Promise((resolve) => setTimeout(resolve, WATCHDOG_INTERVAL_MS));
  }
}

/** Path of this module's compiled file, to start it with `process.execPath`. */
export const WATCHDOG_SCRIPT = fileURLToPath(import.meta.url);

if (process.argv[1] === WATCHDOG_SCRIPT && process.argv[2]) {
  main(process.argv[2]).catch((error: unknown) => {
    process.stderr.write(`watchdog: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
