// The run layer behind `rebootlab doctor`, `toolchain`, `cluster`, `report` and `compare`.
import { existsSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, dockerServerVersion, getProvider, kindBinary, providerNames, START_DOCKER_HINT } from '../cluster/index.js';
import { readToolchainEnv } from '../common/cache.js';
import { DEFAULT_KUBERNETES_VERSION, goVersionAtLeast, isSupportedKubernetesVersion, MIN_GO_VERSION, SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT } from '../common/versions.js';
import { ExitCode, formatInputIssue, InfraError, InputError, printable } from '../common/errors.js';
import { canRun, run, runInTerminal } from '../common/exec.js';
import { checkPendingRestoreFiles, findPendingRestoreDirs, restorePending, restoreSearchDirs } from '../faults/index.js';
import type { SkippedJournalLine } from '../observe/index.js';
import { rebuildReports, selectReporters } from '../report/index.js';
import { DEFAULT_REPORTS_DIR, type ClusterCommandOptions, type CommandOutcome, type DoctorOptions, type ReportOptions, type ToolchainOptions } from './options.js';
import { planReporters, silentProgress } from './progress.js';

/** Free disk space below which `doctor` warns: a cluster and the node image need about this much, bytes. */
const MIN_FREE_DISK_BYTES = 10 * 1024 ** 3;

/** Path of the repository's hack/ directory (the toolchain scripts). */
function hackDir(): string {
  return join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'hack');
}

/** What `doctor` says of a check that needs the Docker engine when the engine did not answer. */
const DOCKER_NOT_CHECKED = 'not checked: the Docker engine did not answer (see its line)';

/** One line of `rebootlab doctor`: what was checked, whether it is fine, and the command that fixes it. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  /** The closing error's second line when this is the first failed check; default `Run: <fix>`. */
  hint?: string;
  /** The failure is in a file the user handed over (a pending-restore.json rebootlab did not write): exit 2, not 3. */
  badInput?: boolean;
}

/**
 * What to do when the Docker engine does not answer (hack/docker.sh: installs Debian's docker.io when dockerd is
 * missing and starts dockerd when the engine does not answer; as root). `npm run toolchain` runs the same script but
 * then builds every tool for many minutes, and on a host whose engine is Docker Desktop or a systemd service it would
 * install a second one: the engine is started on its own.
 */
export const DOCKER_ENGINE_FIX = "start the Docker engine: bash hack/docker.sh as root in the rebootlab checkout (installs Debian's docker.io if missing and starts dockerd), or start your own (systemctl start docker, Docker Desktop)";

/**
 * Doctor's Docker engine check from `probe` (default: the engine's server version, lib/cluster dockerServerVersion):
 * ok with `server <version>`, or, when it throws, missing with its message and {@link DOCKER_ENGINE_FIX} (closing
 * hint `Start Docker: ...`, as run and plan say). Never throws.
 */
export async function dockerEngineCheck(probe: () => Promise<string> = dockerServerVersion): Promise<{ check: DoctorCheck; version: string }> {
  try {
    const version = await probe();
    return { check: { name: 'Docker engine', ok: true, detail: `server ${version}` }, version };
  } catch (error) {
    return { check: { name: 'Docker engine', ok: false, detail: (error as Error).message, fix: DOCKER_ENGINE_FIX, hint: START_DOCKER_HINT }, version: '' };
  }
}

/** One check as doctor prints it in text output: `ok      name: detail`, or `MISSING name: detail — fix: fix`, through printable. */
export function doctorLine(c: DoctorCheck): string {
  return printable(`${c.ok ? 'ok     ' : 'MISSING'} ${c.name}: ${c.detail}${c.ok || !c.fix ? '' : ` — fix: ${c.fix}`}`);
}

/**
 * Checks what rebootlab needs, one line each: Docker engine, runtime capabilities, kind, node image, Go,
 * disk space, faults left behind. With `restore`, restores faults listed in pending-restore.json files.
 * Resolves to exit 0 when everything is present; otherwise throws.
 * @throws InputError (exit 2), before any tool is looked up, when `--reports` is not a directory or a
 *   pending-restore.json is not a regular file of the shape rebootlab writes ({@link checkPendingRestoreFiles}); the
 *   file is left as it is. After printing every line (each failure's detail once, on its own line): InfraError
 *   (exit 3) naming the failed checks (the first one's name and detail when there is no `print`), with the first
 *   one's hint as hint (`Run: <fix>` unless the check has its own, e.g. `Start Docker: ...`); InputError (exit 2) instead when the first is a command rebootlab refused to run from a
 *   pending-restore.json, its message that check's name and detail (what was refused).
 */
export async function runDoctor(options: DoctorOptions): Promise<CommandOutcome> {
  checkReportsDir(options.reportsDir);
  // Faults a killed run left: under --reports (any depth), the default reports directory and the last --out.
  const searchDirs = restoreSearchDirs([options.reportsDir], DEFAULT_REPORTS_DIR);
  // A bad file is the user's to fix whatever tools are missing: say so before any of them is looked up, with or
  // without --restore (plain doctor said every check was ok beside a pending-restore.json that is a directory).
  checkRestoreFiles(searchDirs);
  const checks: DoctorCheck[] = [];
  const fix = 'npm run toolchain';
  const docker = await dockerEngineCheck();
  const dockerVersion = docker.version;
  checks.push(docker.check);
  const capBnd = /CapBnd:\s*([0-9a-f]+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 'ffffffffff';
  const lacksSysResource = (BigInt(`0x${capBnd}`) & (1n << 24n)) === 0n;
  if (!lacksSysResource) {
    checks.push({ name: 'runtime capabilities', ok: true, detail: 'CAP_SYS_RESOURCE in the bounding set; no runc wrapper needed' });
  } else if (!dockerVersion) {
    checks.push({ name: 'runtime capabilities', ok: false, detail: `CAP_SYS_RESOURCE missing; dockerd's default runtime ${DOCKER_NOT_CHECKED}`, fix });
  } else {
    const runtime = (await run('docker', ['info', '--format', '{{.DefaultRuntime}}'], { timeoutMs: 15_000 }).catch(() => '')).trim();
    checks.push(runtime === 'runc-nosysres'
      ? { name: 'runtime capabilities', ok: true, detail: 'CAP_SYS_RESOURCE missing; dockerd uses the runc-nosysres wrapper' }
      : { name: 'runtime capabilities', ok: false, detail: `CAP_SYS_RESOURCE missing and dockerd's default runtime is ${runtime || 'unknown'}: --privileged nodes fail`, fix });
  }
  const kind = kindBinary();
  const kindVersion = await run(kind, ['version'], { timeoutMs: 15_000 }).catch(() => null);
  checks.push(kindVersion ? { name: 'kind', ok: true, detail: `${kind}: ${kindVersion.trim()}` } : { name: 'kind', ok: false, detail: `${kind} not found`, fix });
  // The default version's node image is required; every other supported version is listed when it is built.
  for (const version of SUPPORTED_KUBERNETES_VERSIONS) {
    const image = readToolchainEnv(version).REBOOTLAB_NODE_IMAGE ?? `rebootlab/node:${version}`;
    // Without an engine nothing can be said about its images: "not present" would send the user to rebuild them.
    if (!dockerVersion) {
      if (version === DEFAULT_KUBERNETES_VERSION) checks.push({ name: `node image ${version}`, ok: false, detail: `${image} ${DOCKER_NOT_CHECKED}`, fix });
      continue;
    }
    const hasImage = await canRun('docker', ['image', 'inspect', image]);
    if (hasImage) checks.push({ name: `node image ${version}`, ok: true, detail: image });
    else if (version === DEFAULT_KUBERNETES_VERSION) checks.push({ name: `node image ${version}`, ok: false, detail: `${image} not present`, fix });
  }
  const go = await run('go', ['version'], { timeoutMs: 15_000 }).catch(() => null);
  checks.push(goCheck(go));
  const stats = statfsSync(existsSync(cacheDir()) ? cacheDir() : '/');
  const freeBytes = stats.bavail * stats.bsize;
  checks.push({ name: 'disk space', ok: freeBytes >= MIN_FREE_DISK_BYTES, detail: `${(freeBytes / 1024 ** 3).toFixed(1)} GiB free`, fix: 'free at least 10 GiB' });
  const restored = options.restore ? await restorePending({ reportsDirs: searchDirs }, { force: true }) : [];
  for (const r of restored) {
    for (const command of r.restored) checks.push({ name: 'restored fault', ok: true, detail: `${r.runDir}: ${command}` });
    for (const f of r.failed) {
      const fix = f.cause === 'input' ? `restore by hand, then delete ${r.runDir}/pending-restore.json` : `rerun rebootlab doctor --restore once Docker and the cluster answer (${r.runDir}/pending-restore.json is kept)`;
      checks.push({ name: 'restore failed', ok: false, detail: `${r.runDir}: ${f.command}: ${f.error}`, fix, badInput: f.cause === 'input' });
    }
  }
  // Whatever is still listed after restoring is a fault still in place: doctor --restore must not exit 0.
  const pending = [...new Set(searchDirs.flatMap((d) => findPendingRestoreDirs(d)))];
  const unexplained = pending.filter((dir) => !restored.some((r) => r.runDir === dir && r.failed.length > 0));
  if (unexplained.length > 0) {
    const roots = [...new Set(unexplained.map((dir) => reportsDirHolding(dir, searchDirs, options.reportsDir)))];
    const fix = roots.map((root) => `rebootlab doctor --restore --reports ${/^[\w./+-]+$/.test(root) ? root : `'${root.replaceAll("'", "'\\''")}'`}`).join(' && ');
    checks.push({ name: 'faults left behind', ok: false, detail: unexplained.join(', '), fix });
  }

  if (options.output === 'json') options.print?.(JSON.stringify(checks, null, 2));
  else for (const c of checks) options.print?.(doctorLine(c));
  const failed = checks.filter((c) => !c.ok);
  const missing = failed[0];
  if (!missing) return { exitCode: ExitCode.Ok };
  // Each failure's detail is on its printed line already: the error names the failed checks, not their details again
  // (the Docker engine's failure was shown twice). Unprinted (no `print`), the first failure's detail is the message;
  // so it is for a command refused from a pending-restore.json: bad input, whose one line must say what was refused.
  const message = options.print && !missing.badInput
    ? `${failed.length === 1 ? '1 check' : `${failed.length} checks`} failed: ${[...new Set(failed.map((c) => c.name))].join(', ')}; each is listed above with its fix`
    : `${missing.name}: ${missing.detail}`;
  if (missing.badInput) throw new InputError(message, missing.fix ? `Then: ${missing.fix}` : undefined);
  throw new InfraError(message, missing.hint ?? (missing.fix ? `Run: ${missing.fix}` : undefined));
}

/**
 * Doctor's Go line from the output of `go version` (`go version go1.26.8 linux/amd64`), or null when go did not run:
 * the version found and the minimum ({@link MIN_GO_VERSION}, versions.json `go`), ok when it is at least that; a
 * version that cannot be compared (a devel build) is ok and says it was not compared.
 */
export function goCheck(goVersionOutput: string | null): DoctorCheck {
  const fix = `install Go >= ${MIN_GO_VERSION} in /usr/local/go and add it to PATH`;
  if (goVersionOutput === null) return { name: 'Go', ok: false, detail: `go not on PATH (Go >= ${MIN_GO_VERSION} is needed to build the toolchain offline)`, fix };
  const found = /\bgo version (\S+)/.exec(goVersionOutput)?.[1] ?? goVersionOutput.trim();
  const atLeast = goVersionAtLeast(found, MIN_GO_VERSION);
  if (atLeast === false) return { name: 'Go', ok: false, detail: `${found} found; the toolchain needs Go >= ${MIN_GO_VERSION} (k8s.io/kubernetes ${DEFAULT_KUBERNETES_VERSION}'s go.mod)`, fix };
  return { name: 'Go', ok: true, detail: `${found} (minimum ${MIN_GO_VERSION}${atLeast === null ? ', not compared' : ''})` };
}

/**
 * `doctor --restore`: every pending-restore.json under `searchDirs` must be one rebootlab can restore from.
 * @throws InputError (exit 2) with one issue (one line: the path, what is wrong, what to do) per bad entry.
 */
function checkRestoreFiles(searchDirs: readonly string[]): void {
  const problems = checkPendingRestoreFiles(searchDirs);
  if (problems.length === 0) return;
  const issues = problems.map((p) => ({ file: p.file, path: '', message: `${p.problem}; ${p.fix}` }));
  throw new InputError(formatInputIssue(issues[0]!), undefined, { issues });
}

/**
 * The reports directory (one of `searchDirs`, absolute) that holds run directory `runDir`, the deepest if several do:
 * the `--reports` a user passes to restore it (a run with `--out /tmp/x` is under /tmp/x, not under `reports`).
 * `given` (as typed) when it is that directory.
 */
function reportsDirHolding(runDir: string, searchDirs: readonly string[], given: string): string {
  const holding = searchDirs.filter((d) => !relative(d, runDir).startsWith('..')).sort((a, b) => b.length - a.length)[0] ?? dirname(runDir);
  return holding === resolve(given) ? given : holding;
}

/**
 * `doctor --reports <dir>`: a directory, or absent when it is the default (no run has written reports yet).
 * @throws InputError (exit 2) for a file, or a directory given explicitly that does not exist.
 */
function checkReportsDir(dir: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    if (dir === DEFAULT_REPORTS_DIR) return;
    throw new InputError(`--reports ${dir}: no such directory`, 'pass the parent directory of your run directories (rebootlab run --out), e.g. --reports reports');
  }
  if (!isDirectory) throw new InputError(`--reports ${dir}: not a directory`, 'pass the parent directory of your run directories (rebootlab run --out), e.g. --reports reports');
}

/**
 * Provisions the toolchain by running hack/toolchain.sh with its output on this terminal: the default Kubernetes
 * version, or each of `options.kubernetesVersions` (`all`: every supported one).
 * @throws InputError (exit 2) for a version outside the supported set.
 * @throws InfraError (exit 3) when the script fails.
 */
export async function runToolchain(options: ToolchainOptions): Promise<CommandOutcome> {
  const versions = options.kubernetesVersions ?? [];
  for (const v of versions) {
    if (v !== 'all' && !isSupportedKubernetesVersion(v)) throw new InputError(`--kubernetes ${printable(v)}: rebootlab cannot run Kubernetes ${printable(v)}; it runs ${SUPPORTED_KUBERNETES_VERSIONS_TEXT} (or all)`);
  }
  const args = versions.flatMap((v) => ['--kubernetes', v]);
  const exitCode = await runInTerminal('bash', [join(hackDir(), 'toolchain.sh'), ...args]);
  if (exitCode !== 0) throw new InfraError(`hack/toolchain.sh failed with exit code ${exitCode}`, 'See the lines above; Docker log: /var/log/rebootlab-dockerd.log');
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
    const progress = options.output === 'json' ? silentProgress : planReporters(['list'], options.progressSink).progress;
    const cluster = await provider.create({ ...options.cluster, name: options.name }, { step: (m) => progress.phase(m) });
    // A kwok cluster is torn down when its creator exits unless kept: `cluster create` exists to keep it.
    await provider.keep?.(cluster.name);
    progress.close();
    options.print?.(options.output === 'json' ? JSON.stringify({ name: cluster.name, kubeconfig: cluster.kubeconfigPath }) : `created ${cluster.name}; kubeconfig: ${cluster.kubeconfigPath}`);
  }
  return { exitCode: ExitCode.Ok };
}

/**
 * Rebuilds result.json and every report of a run directory (or those of `options.reporters`) from observations.jsonl
 * and run.json alone; each output replaces its file through a rename (a symbolic link in the directory is replaced,
 * never written through). Resolves to exit 0 when the run's expectations pass, 1 when one fails or the run never
 * finished (a journal without run-finished: it is reported INTERRUPTED, but 130 is this process's own answer to a signal).
 * @throws InputError (exit 2) when the directory is not a run directory, or run.json is not the shape rebootlab writes;
 *   also, after every report is written and the status line printed, when the journal is damaged (a line before its
 *   end is not a record: the verdict rests on part of the run), naming the journal and its first skipped line:column;
 *   after the status line, when a reporter refused its input (`github` with GITHUB_STEP_SUMMARY inside the run
 *   directory). InfraError (exit 3), after the status line, when a reporter could not write its output.
 */
export async function reportCommand(options: ReportOptions): Promise<CommandOutcome> {
  const journal = join(options.runDir, 'observations.jsonl');
  if (!existsSync(journal) || !existsSync(join(options.runDir, 'run.json'))) {
    throw new InputError(`${options.runDir}: not a run directory (needs observations.jsonl and run.json)`);
  }
  if (!statSync(journal).isFile()) throw new InputError(`${journal}: not a regular file`, 'pass a run directory written by rebootlab run');
  const reporters = selectReporters(options.reporters, { progress: false });
  const sink = options.progressSink;
  let damaged: readonly SkippedJournalLine[] = [];
  let failed: readonly { name: string; error: Error }[] = [];
  const result = await rebuildReports(options.runDir, {
    reporters,
    log: (level, m) => sink?.write(`${level === 'warn' ? 'warning: ' : ''}${printable(m)}\n`),
    // A replay prints plain lines: no status line to redraw.
    terminal: sink ? { isTTY: false, write: (text) => sink.write(text) } : undefined,
    onDamagedJournal: (lines) => (damaged = lines),
    onReportersFailed: (failures) => (failed = failures),
  });
  const interrupted = result.status === 'interrupted' ? ' (the journal ends before run-finished: the run was stopped)' : '';
  const except = failed.length > 0 ? ` except ${failed.map((f) => f.name).join(', ')}` : '';
  options.print?.(options.output === 'json' ? JSON.stringify(result, null, 2) : `${result.status.toUpperCase()} ${printable(options.runDir)}: reports rebuilt${except}${interrupted}`);
  // A report asked for and not written: no exit code may say the command did its job. Bad input (exit 2) when a
  // reporter refused its input (GITHUB_STEP_SUMMARY inside the run), else the environment's failure (exit 3).
  if (failed.length > 0) {
    const what = failed.map((f) => `reporter ${f.name}: ${printable(f.error.message)}`).join('; ');
    const message = `${printable(options.runDir)}: not every report was rebuilt: ${what}`;
    const refused = failed.map((f) => f.error).find((e): e is InputError => e instanceof InputError);
    if (refused) throw new InputError(message, refused.hint);
    throw new InfraError(message, 'check that the run directory and every report file in it are writable, then run rebootlab report again');
  }
  // Records missing from the middle of the journal: the verdict rests on part of the run, so no exit code may vouch
  // for it (0 passed, 1 failed). The file handed over is damaged: bad input, exit 2, after every report is written.
  if (damaged.length > 0) {
    const first = damaged[0]!;
    const what = damaged.length === 1 ? `line ${first.line}:${first.column} was skipped` : `${damaged.length} lines were skipped, the first at ${first.line}:${first.column}`;
    throw new InputError(
      `${journal}: damaged: ${what} (the warning above); the reports were rebuilt from the other records and say so under Warnings`,
      'rerun the experiment for complete results, or repair that line and run rebootlab report again',
    );
  }
  return { exitCode: result.status === 'passed' ? ExitCode.Ok : ExitCode.ExpectationFailed };
}
