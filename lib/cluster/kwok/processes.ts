// Child processes of a kwok cluster: started detached in their own process group with logs in files,
// recorded in pids.json, and stopped by process group; a recorded pid is only signalled while its
// /proc/<pid>/cmdline still names the recorded binary (pids get reused).
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';

/** One started component: its pid (also its process group id) and the binary it runs. */
export interface ProcessRecord {
  pid: number;
  /** Absolute path of the binary, compared with /proc/<pid>/cmdline before signalling. */
  binary: string;
  /** Log file (stdout and stderr). */
  log: string;
  /** Client clock when it was started: Unix epoch, milliseconds. */
  startedAtMs: number;
}

/** Component name (`etcd`, `kube-apiserver`, ..., `watchdog`) → its record; the content of pids.json. */
export type ProcessTable = Record<string, ProcessRecord>;

/** Starts `binary args` detached (own process group, not killed with rebootlab), output appended to `<logsDir>/<name>.log`. */
export function startProcess(name: string, binary: string, args: string[], logsDir: string, env: NodeJS.ProcessEnv = process.env): ProcessRecord {
  const log = join(logsDir, `${name}.log`);
  const fd = openSync(log, 'a');
  try {
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', fd, fd], env });
    if (child.pid === undefined) throw new InfraError(`cannot start ${binary}`, 'Run: npm run toolchain');
    child.on('error', () => {}); // reported by the readiness checks; never crash the parent
    child.unref();
    return { pid: child.pid, binary, log, startedAtMs: Date.now() };
  } finally {
    closeSync(fd);
  }
}

/** True while `record.pid` runs `record.binary` (a zombie or a reused pid is not alive). */
export function isAlive(record: ProcessRecord): boolean {
  try {
    const stat = readFileSync(`/proc/${record.pid}/stat`, 'utf8');
    if (/^\d+ \(.*\) Z /.test(stat)) return false;
    const argv0 = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return argv0 === record.binary;
  } catch {
    return false;
  }
}

/** The command-line flags of a running process, `--name=value` → `{name: value}`; {} when it is gone. */
export function readProcessFlags(record: ProcessRecord): Record<string, string> {
  if (!isAlive(record)) return {};
  const argv = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0').filter((a) => a.length > 0);
  const flags: Record<string, string> = {};
  for (const arg of argv.slice(1)) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (m) flags[m[1]!] = m[2] ?? 'true';
  }
  return flags;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Stops the processes of `table`: SIGTERM to each live process group, then SIGKILL to those still alive
 * after `graceMs` milliseconds (default 5000). Records whose pid is gone or reused are skipped.
 */
export async function stopProcesses(table: ProcessTable, graceMs = 5_000): Promise<void> {
  const live = Object.values(table).filter(isAlive);
  const signal = (r: ProcessRecord, sig: NodeJS.Signals) => {
    try {
      process.kill(-r.pid, sig);
    } catch {
      try {
        process.kill(r.pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  for (const r of live) signal(r, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (live.some(isAlive) && Date.now() < deadline) await sleep(100);
  for (const r of live.filter(isAlive)) signal(r, 'SIGKILL');
  while (live.some(isAlive) && Date.now() < deadline + 2_000) await sleep(50);
}

/** Reads pids.json; {} when it does not exist or is unreadable. */
export async function readProcessTable(file: string): Promise<ProcessTable> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ProcessTable;
  } catch {
    return {};
  }
}

/** Writes pids.json. */
export async function writeProcessTable(file: string, table: ProcessTable): Promise<void> {
  await writeFile(file, JSON.stringify(table, null, 2));
}

/** The last `lines` lines of a log file, for error messages; '' when unreadable. */
export async function logTail(log: string, lines = 5): Promise<string> {
  try {
    return (await readFile(log, 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
