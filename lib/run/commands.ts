// The run layer behind `rebootlab doctor`, `toolchain`, `cluster`, `report` and `compare`.
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { cacheDir, getProvider, kindBinary, providerNames } from '../cluster/index.js';
import { readToolchainEnv } from '../common/cache.js';
import { VERSIONS } from '../common/versions.js';
import { ExitCode, InfraError, InputError } from '../common/errors.js';
import { canRun, run } from '../common/exec.js';
import { findPendingRestoreDirs, restorePending, restoreSearchDirs } from '../faults/index.js';
import { rebuildReports } from '../report/index.js';
import { DEFAULT_REPORTS_DIR, type ClusterCommandOptions, type CommandOutcome, type DoctorOptions, type ReportOptions, type ToolchainOptions } from './options.js';
import { createProgress, silentProgress } from './progress.js';
import { exitCodeFor } from './session.js';

/** Free disk space below which `doctor` warns: a cluster and the node image need about this much, bytes. */
const MIN_FREE_DISK_BYTES = 10 * 1024 ** 3;

/** Path of the repository's hack/ directory (the toolchain scripts). */
function hackDir(): string {
  return join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'hack');
}

/** One line of `rebootlab doctor`: what was checked, whether it is fine, and the command that fixes it. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/**
 * Checks what rebootlab needs, one line each: Docker engine, runtime capabilities, kind, node image, Go,
 * disk space, faults left behind. With `restore`, restores faults listed in pending-restore.json files.
 * Resolves to exit 0 when everything is present; otherwise throws.
 * @throws InfraError (exit 3) naming the first missing piece, after printing every line.
 */
export async function runDoctor(options: DoctorOptions): Promise<CommandOutcome> {
  const checks: DoctorCheck[] = [];
  const fix = 'npm run toolchain';
  let dockerVersion = '';
  try {
    dockerVersion = (await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 15_000 })).trim();
    checks.push({ name: 'Docker engine', ok: true, detail: `server ${dockerVersion}` });
  } catch (error) {
    checks.push({ name: 'Docker engine', ok: false, detail: (error as Error).message, fix });
  }
  const capBnd = /CapBnd:\s*([0-9a-f]+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 'ffffffffff';
  const lacksSysResource = (BigInt(`0x${capBnd}`) & (1n << 24n)) === 0n;
  if (!lacksSysResource) {
    checks.push({ name: 'runtime capabilities', ok: true, detail: 'CAP_SYS_RESOURCE in the bounding set; no runc wrapper needed' });
  } else if (dockerVersion) {
    const runtime = (await run('docker', ['info', '--format', '{{.DefaultRuntime}}'], { timeoutMs: 15_000 }).catch(() => '')).trim();
    checks.push(runtime === 'runc-nosysres'
      ? { name: 'runtime capabilities', ok: true, detail: 'CAP_SYS_RESOURCE missing; dockerd uses the runc-nosysres wrapper' }
      : { name: 'runtime capabilities', ok: false, detail: `CAP_SYS_RESOURCE missing and dockerd's default runtime is ${runtime || 'unknown'}: --privileged nodes fail`, fix });
  }
  const kind = kindBinary();
  const kindVersion = await run(kind, ['version'], { timeoutMs: 15_000 }).catch(() => null);
  checks.push(kindVersion ? { name: 'kind', ok: true, detail: `${kind}: ${kindVersion.trim()}` } : { name: 'kind', ok: false, detail: `${kind} not found`, fix });
  const env = readToolchainEnv();
  const image = env.REBOOTLAB_NODE_IMAGE ?? `rebootlab/node:${VERSIONS.kubernetes}`;
  const hasImage = dockerVersion !== '' && (await canRun('docker', ['image', 'inspect', image]));
  checks.push(hasImage ? { name: 'node image', ok: true, detail: image } : { name: 'node image', ok: false, detail: `${image} not present`, fix });
  const go = await run('go', ['version'], { timeoutMs: 15_000 }).catch(() => null);
  checks.push(go ? { name: 'Go', ok: true, detail: go.trim() } : { name: 'Go', ok: false, detail: 'go not on PATH (needed to build the toolchain offline)', fix: 'install Go >= 1.24 in /usr/local/go and add it to PATH' });
  const stats = statfsSync(existsSync(cacheDir()) ? cacheDir() : '/');
  const freeBytes = stats.bavail * stats.bsize;
  checks.push({ name: 'disk space', ok: freeBytes >= MIN_FREE_DISK_BYTES, detail: `${(freeBytes / 1024 ** 3).toFixed(1)} GiB free`, fix: 'free at least 10 GiB' });
  // Faults a killed run left: under --reports (any depth), the default reports directory and the last --out.
  const searchDirs = restoreSearchDirs([options.reportsDir], DEFAULT_REPORTS_DIR);
  const restored = options.restore ? await restorePending({ reportsDirs: searchDirs }, { force: true }) : [];
  for (const r of restored) {
    for (const command of r.restored) checks.push({ name: 'restored fault', ok: true, detail: `${r.runDir}: ${command}` });
    for (const f of r.failed) {
      checks.push({ name: 'restore failed', ok: false, detail: `${r.runDir}: ${f.command}: ${f.error}`, fix: `restore by hand, then delete ${r.runDir}/pending-restore.json` });
    }
  }
  // Whatever is still listed after restoring is a fault still in place: doctor --restore must not exit 0.
  const pending = [...new Set(searchDirs.flatMap((d) => findPendingRestoreDirs(d)))];
  const unexplained = pending.filter((dir) => !restored.some((r) => r.runDir === dir && r.failed.length > 0));
  if (unexplained.length > 0) {
    checks.push({ name: 'faults left behind', ok: false, detail: unexplained.join(', '), fix: `rebootlab doctor --restore --reports ${options.reportsDir}` });
  }

  if (options.output === 'json') options.print?.(JSON.stringify(checks, null, 2));
  else for (const c of checks) options.print?.(`${c.ok ? 'ok     ' : 'MISSING'} ${c.name}: ${c.detail}${c.ok || !c.fix ? '' : ` — fix: ${c.fix}`}`);
  const missing = checks.find((c) => !c.ok);
  if (missing) throw new InfraError(`${missing.name}: ${missing.detail}`, missing.fix ? `Run: ${missing.fix}` : undefined);
  return { exitCode: ExitCode.Ok };
}

/**
 * Provisions the toolchain by running hack/toolchain.sh with its output on this terminal.
 * @throws InfraError (exit 3) when the script fails.
 */
export async function runToolchain(_options: ToolchainOptions): Promise<CommandOutcome> {
  const result = await execa('bash', [join(hackDir(), 'toolchain.sh')], { stdio: 'inherit', reject: false });
  if (result.exitCode !== 0) throw new InfraError(`hack/toolchain.sh failed with exit code ${result.exitCode}`, 'See the lines above; Docker log: /var/log/rebootlab-dockerd.log');
  return { exitCode: ExitCode.Ok };
}

/**
 * `rebootlab cluster create|delete|list`. `create` prints the kubeconfig path of the new cluster; `list` prints
 * `<provider>\t<name>` per cluster of every provider (JSON: `[{provider, name}]`).
 * @throws InputError when creating a cluster that exists; InfraError when kind or Docker fails.
 */
export async function clusterCommand(options: ClusterCommandOptions): Promise<CommandOutcome> {
  const provider = getProvider(options.cluster.provider);
  if (options.action === 'list') {
    // Every provider's clusters: kind containers and kwok process groups are both "rebootlab clusters".
    const clusters: { provider: string; name: string }[] = [];
    for (const providerName of providerNames()) {
      for (const name of await getProvider(providerName).list()) clusters.push({ provider: providerName, name });
    }
    options.print?.(options.output === 'json' ? JSON.stringify(clusters) : clusters.map((c) => `${c.provider}\t${c.name}`).join('\n'));
  } else if (options.action === 'delete') {
    // Deleting is idempotent (a script may delete twice), but say which case it was. A name alone means the
    // default provider (kind); a cluster kept by a kwok run is found by its name among the other providers.
    let holder = null;
    for (const candidate of [provider, ...providerNames().filter((n) => n !== provider.name).map((n) => getProvider(n))]) {
      if ((await candidate.list()).includes(options.name)) {
        holder = candidate;
        break;
      }
    }
    await (holder ?? provider).delete(options.name);
    options.print?.(holder ? `deleted ${options.name}${holder === provider ? '' : ` (${holder.name})`}` : `no ${provider.name} cluster ${options.name}: nothing to delete`);
  } else {
    const progress = options.output === 'json' || !options.progressSink ? silentProgress : createProgress(options.progressSink);
    const cluster = await provider.create({ ...options.cluster, name: options.name }, { step: (m) => progress.phase(m) });
    // A kwok cluster is torn down when its creator exits unless kept: `cluster create` exists to keep it.
    await provider.keep?.(cluster.name);
    progress.close();
    options.print?.(options.output === 'json' ? JSON.stringify({ name: cluster.name, kubeconfig: cluster.kubeconfigPath }) : `created ${cluster.name}; kubeconfig: ${cluster.kubeconfigPath}`);
  }
  return { exitCode: ExitCode.Ok };
}

/**
 * Rebuilds result.json and every report of a run directory from observations.jsonl and run.json alone.
 * Resolves to exit 0 when the run's expectations pass, 1 when one fails, 130 when it was interrupted.
 * @throws InputError (exit 2) when the directory is not a run directory.
 */
export async function reportCommand(options: ReportOptions): Promise<CommandOutcome> {
  if (!existsSync(join(options.runDir, 'observations.jsonl')) || !existsSync(join(options.runDir, 'run.json'))) {
    throw new InputError(`${options.runDir}: not a run directory (needs observations.jsonl and run.json)`);
  }
  const result = await rebuildReports(options.runDir, { log: (level, m) => options.progressSink?.write(`${level === 'warn' ? 'warning: ' : ''}${m}\n`) });
  options.print?.(options.output === 'json' ? JSON.stringify(result, null, 2) : `${result.status.toUpperCase()} ${options.runDir}: reports rebuilt`);
  return { exitCode: exitCodeFor([result.status]) };
}
