// The CLI's commands: flags → option objects (lib/run/options.ts) → lib/run; validate runs here.
import type { Argv } from 'yargs';
import { InputError, terminalOutput, type ExitCodeValue } from '../common/errors.js';
import { DEFAULT_REPORTS_DIR, type CommandOutcome, type CommonOptions } from '../run/options.js';
import { loadExperiment } from '../spec/load.js';
import { parseShard, shardVariants } from '../spec/matrix.js';
import { DEFAULT_CLUSTER_NAME } from '../spec/defaults.js';
import { loadClusterSpec } from './cluster-spec.js';
import { processStreams, type Streams } from './print-error.js';
import { validateFiles } from './validate-command.js';

/** Flags every command accepts. */
export interface GlobalFlags {
  output: 'text' | 'json';
  verbose: boolean;
}

/** What command handlers need from main: where to print and how to report the exit code. */
export interface CommandContext {
  streams: Streams;
  setExitCode: (code: ExitCodeValue) => void;
}

/**
 * lib/run, loaded on first use: it pulls in the Kubernetes client and Docker helpers, which
 * `validate`, `--help` and flag errors do not need (keeps them fast and independent of those modules).
 */
const loadRun = () => import('../run/index.js');

/**
 * What each command with a required positional argument is missing when it is run without one, and its usage line:
 * `rebootlab run` alone prints `rebootlab run: missing the experiment file; usage: rebootlab run <file.yaml>`
 * (main's fail handler, in place of yargs' "Not enough non-option arguments"). Keep in step with registerCommands.
 */
export const MISSING_POSITIONAL: Readonly<Record<string, { what: string; usage: string }>> = {
  validate: { what: 'the experiment file(s) to check', usage: 'rebootlab validate <file.yaml> [<file.yaml> ...]' },
  run: { what: 'the experiment file', usage: 'rebootlab run <file.yaml>' },
  plan: { what: 'the experiment file', usage: 'rebootlab plan <file.yaml>' },
  predict: { what: 'the experiment file', usage: 'rebootlab predict <file.yaml>' },
  cluster: { what: 'the action', usage: 'rebootlab cluster create|delete|list [<name>]' },
  report: { what: 'the run directory', usage: 'rebootlab report <run-dir>' },
  compare: { what: 'the run directories', usage: 'rebootlab compare <run-dir> [<run-dir> ...] (or a matrix run directory)' },
};

/** Default parent directory of run directories. */
export const DEFAULT_OUT_DIR = DEFAULT_REPORTS_DIR;

/** Adds every rebootlab command to the parser. */
export function registerCommands(parser: Argv<GlobalFlags>, context: CommandContext): Argv<GlobalFlags> {
  const common = (argv: GlobalFlags): CommonOptions => ({
    verbose: argv.verbose,
    output: argv.output,
    // Names from a run directory or a journal reach this output: no control character of theirs reaches the terminal.
    print: (text) => context.streams.stdout(terminalOutput(text) + '\n'),
    // Warnings and progress go where main writes (its streams, replaced in tests); a status line is redrawn only on
    // the process's own terminal.
    progressSink: { isTTY: context.streams === processStreams && Boolean(process.stderr.isTTY), write: (text) => context.streams.stderr(text) },
  });
  const finish = (outcome: CommandOutcome): void => context.setExitCode(outcome.exitCode);
  // One value per --set (nargs 1): a greedy list would swallow the file after it (`validate --set a=1 x.yaml`).
  const setOption = { type: 'string', array: true, nargs: 1, default: [] as string[], describe: 'Override a setting: path=value (repeatable)' } as const;
  // Not an array option: `--reporter json run.yaml` must leave the positional alone; repeating the flag still works.
  const reporterOption = {
    type: 'string',
    coerce: (value: string | string[]) => [value].flat(),
    describe: 'Reporters, comma-separated or repeated: list, json, markdown, html, junit, github (default: list, json, markdown, html, junit; github too when GITHUB_STEP_SUMMARY is set)',
  } as const;

  // A string, parsed by parseToleranceFlag: yargs' number type reads `0x10` as 16 and `' '` as 0.
  const toleranceOption = (flag: string, fallback: number, describe: string) =>
    ({ type: 'string', default: fallback, coerce: (value: unknown) => coerced(() => parseToleranceFlag(flag, value)), describe }) as const;

  return parser
    .command(
      'validate <files..>',
      'Check experiment files; print "ok <file>" or one line per issue',
      (y) => y.positional('files', { type: 'string', array: true, demandOption: true }).option('set', setOption),
      async (argv) => {
        context.setExitCode(await validateFiles({ files: argv.files, set: argv.set, ...common(argv) }, context.streams));
      },
    )
    .command(
      'run <experiment>',
      'Create a cluster, inject the fault, observe, and check expectations',
      (y) =>
        y
          .positional('experiment', { type: 'string', demandOption: true, describe: 'Experiment file (YAML) or scripted experiment (.ts, .js)' })
          .option('out', { type: 'string', default: DEFAULT_OUT_DIR, describe: 'Parent directory of run directories' })
          .option('set', setOption)
          .option('reuse-cluster', { type: 'boolean', default: false, describe: 'Use an existing rebootlab cluster of the same name' })
          .option('keep-cluster', { type: 'boolean', default: false, describe: 'Keep the cluster after the run' })
          .option('reconfigure', {
            choices: ['in-place', 'recreate'] as const,
            default: 'in-place' as const,
            describe: 'When a variant changes control-plane or kubelet flags: rewrite them in the running cluster, or make a new cluster',
          })
          .option('baseline', { type: 'string', describe: 'result.json to gate against: a slower run fails (exit 1)' })
          .option('baseline-any', { type: 'boolean', default: false, describe: 'Gate against a --baseline of another experiment, fault or variant' })
          .option('tolerance-seconds', toleranceOption('--tolerance-seconds', 5, 'Allowed slowdown against --baseline, seconds'))
          .option('tolerance-percent', toleranceOption('--tolerance-percent', 10, 'Allowed slowdown against --baseline, percent'))
          .option('shard', { type: 'string', describe: 'Run only slice i of n of the matrix × repeat runs (CI fan-out), e.g. 1/4' })
          .option('allow-faults-on', { type: 'string', describe: 'Consent: inject faults on this kubeconfig context (provider existing)' })
          .option('allow-control-plane', { type: 'boolean', default: false, describe: 'Consent: control-plane nodes of that context may be targets (if fault.allowControlPlane)' })
          .option('reporter', reporterOption),
      async (argv) => {
        checkBaselineAny(argv.baseline, argv['baseline-any']);
        // Bad reporter names are bad input before a script compiles or a cluster exists.
        if (argv.reporter !== undefined) (await import('../report/registry.js')).selectReporters(argv.reporter, { progress: false });
        if (/\.(m?ts|m?js)$/.test(argv.experiment)) {
          // A scripted experiment (lib/script): type-checked, compiled and run in this process.
          const { runScriptFile } = await import('../script/index.js');
          // A script's cluster is known only once it runs: the existing provider itself refuses an unconsented context.
          if (argv['allow-faults-on'] !== undefined) (await import('../cluster/existing/consent.js')).allowFaultsOn(argv['allow-faults-on']);
          const { print, progressSink } = common(argv);
          finish(await runScriptFile({
            scriptFile: argv.experiment, outDir: argv.out, set: argv.set, reuseCluster: argv['reuse-cluster'], keepCluster: argv['keep-cluster'], reporters: argv.reporter, print, progressSink,
          }));
          return;
        }
        const loaded = await loadExperiment(argv.experiment, { set: argv.set });
        // Tolerances out of range are bad input too: refused before consent is checked or a cluster is looked for.
        (await import('../report/baseline.js')).checkToleranceFlags({ toleranceSeconds: argv['tolerance-seconds'], tolerancePercent: argv['tolerance-percent'] });
        const experiment = argv.shard === undefined ? loaded : { ...loaded, variants: shardVariants(loaded.variants, parseShard(argv.shard)) };
        // Loaded on demand, as every module that reaches a cluster: @kubernetes/client-node alone takes 1.4 s to load.
        (await import('../run/consent.js')).checkFaultConsent(experiment, { allowFaultsOn: argv['allow-faults-on'], allowControlPlane: argv['allow-control-plane'] });
        finish(
          await (await loadRun()).runExperiment({
            ...common(argv),
            experimentFile: argv.experiment,
            outDir: argv.out,
            set: argv.set,
            experiment,
            reuseCluster: argv['reuse-cluster'],
            keepCluster: argv['keep-cluster'],
            reconfigure: argv.reconfigure,
            baseline: argv.baseline,
            baselineAny: argv['baseline-any'],
            toleranceSeconds: argv['tolerance-seconds'],
            tolerancePercent: argv['tolerance-percent'],
            reporters: argv.reporter,
          }),
        );
      },
    )
    .command(
      'plan <experiment>',
      'Print every action a run would take and its undo, without touching any cluster',
      (y) => y.positional('experiment', { type: 'string', demandOption: true, describe: 'Experiment file (YAML)' }).option('set', setOption),
      async (argv) => {
        const experiment = await loadExperiment(argv.experiment, { set: argv.set });
        // Loaded on use: the plan asks each provider for its own command lines (lib/cluster).
        const { renderPlan } = await import('../run/plan.js');
        context.streams.stdout(renderPlan(experiment).join('\n') + '\n');
        // A version that is not built here: the plan is printed, then one line with the command that builds it (exit 3).
        await (await loadRun()).checkKubernetesVersionsBuilt(experiment.variants);
        context.setExitCode(0);
      },
    )
    .command(
      'predict <experiment>',
      'Forecast the fault\'s timeline from the experiment and its settings alone, without a cluster',
      (y) =>
        y
          .positional('experiment', { type: 'string', demandOption: true, describe: 'Experiment file (YAML)' })
          .option('set', setOption)
          .option('format', { choices: ['text', 'markdown', 'json'] as const, defaultDescription: 'text', describe: 'Output format' }),
      async (argv) => {
        if (argv.output === 'json' && argv.format !== undefined && argv.format !== 'json') {
          throw new InputError(`-o json and --format ${argv.format} ask for two formats: give one of them`);
        }
        if (/\.(m?ts|m?js)$/.test(argv.experiment)) throw new InputError(`${argv.experiment}: predict reads a YAML experiment; a scripted experiment's faults are only known when it runs`);
        const { predictExperiment } = await import('../run/predict-command.js');
        const { renderForecastMarkdown, renderForecastText } = await import('../report/forecast-render.js');
        const doc = predictExperiment(await loadExperiment(argv.experiment, { set: argv.set }));
        const format = argv.output === 'json' ? 'json' : argv.format ?? 'text';
        context.streams.stdout(format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : format === 'markdown' ? renderForecastMarkdown(doc) : renderForecastText(doc));
        context.setExitCode(0);
      },
    )
    .command(
      'doctor',
      'Check Docker, runtime capabilities, kind, node image, Go and disk space; one line each',
      (y) =>
        y
          .option('restore', { type: 'boolean', default: false, describe: 'Restore faults left behind by a killed run (pending-restore.json)' })
          .option('reports', { type: 'string', default: DEFAULT_OUT_DIR, describe: 'Where to look for run directories' }),
      async (argv) => finish(await (await loadRun()).runDoctor({ ...common(argv), restore: argv.restore, reportsDir: argv.reports })),
    )
    .command(
      'toolchain',
      'Build the Docker engine, kind, kwok and each Kubernetes version\'s binaries and node image (cached by version)',
      (y) => y.option('kubernetes', { type: 'string', array: true, default: [] as string[], describe: 'Kubernetes version to build (repeatable; all = every supported one); default: the default version' }),
      async (argv) => finish(await (await loadRun()).runToolchain({ ...common(argv), kubernetesVersions: argv.kubernetes })),
    )
    .command(
      'cluster <action> [cluster-name]',
      'Create, delete or list rebootlab clusters (NAME or --name NAME)',
      (y) =>
        y
          .positional('action', { choices: ['create', 'delete', 'list'] as const, demandOption: true })
          // Both spellings: `cluster delete lab` and `cluster delete --name lab`.
          .positional('cluster-name', { type: 'string', describe: `Cluster name (default: the experiment's, else ${DEFAULT_CLUSTER_NAME})` })
          .option('name', { type: 'string', describe: 'Cluster name, as the positional argument' })
          .option('experiment', { type: 'string', describe: 'Take the cluster settings from this experiment file' })
          .option('set', setOption),
      async (argv) => {
        const name = clusterNameArgument([argv['cluster-name'], argv.name]);
        if (argv.action === 'list' && name !== undefined) throw new InputError(`cluster list takes no name, got "${name}"; run: rebootlab cluster list`);
        const cluster = await loadClusterSpec(argv.experiment ?? null, argv.set, name);
        finish(await (await loadRun()).clusterCommand({ ...common(argv), action: argv.action, name: argv.action === 'list' ? '' : cluster.name, cluster }));
      },
    )
    .command(
      'report <run-dir>',
      'Rebuild result.json and reports of a run from observations.jsonl (or those --reporter names)',
      (y) => y.positional('run-dir', { type: 'string', demandOption: true }).option('reporter', { ...reporterOption, describe: 'Reporters, comma-separated or repeated: list, json, markdown, html, junit, github (default: json, markdown, html, junit; github too when GITHUB_STEP_SUMMARY is set)' }),
      async (argv) => finish(await (await loadRun()).reportCommand({ ...common(argv), runDir: argv['run-dir'], reporters: argv.reporter })),
    )
    .command(
      'compare <dirs..>',
      'Compare several run directories',
      (y) =>
        y
          .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'Run directories, or a matrix run directory' })
          .option('format', { choices: ['text', 'markdown', 'html', 'json'] as const, default: 'text' as const, describe: 'Output format' })
          .option('baseline-variant', { type: 'string', describe: 'Variant to measure deltas against (default: the first)' })
          .option('baseline', { type: 'string', describe: 'result.json to gate against: a slower run fails (exit 1)' })
          .option('baseline-any', { type: 'boolean', default: false, describe: 'Gate against a --baseline of another experiment, fault or variant' })
          .option('tolerance-seconds', toleranceOption('--tolerance-seconds', 5, 'Allowed slowdown against --baseline, seconds'))
          .option('tolerance-percent', toleranceOption('--tolerance-percent', 10, 'Allowed slowdown against --baseline, percent')),
      async (argv) => {
        checkBaselineAny(argv.baseline, argv['baseline-any']);
        finish(await (await loadRun()).compareCommand({
          ...common(argv), runDirs: argv.dirs, format: argv.format, baselineVariant: argv['baseline-variant'],
          baseline: argv.baseline, baselineAny: argv['baseline-any'], toleranceSeconds: argv['tolerance-seconds'], tolerancePercent: argv['tolerance-percent'],
        }));
      },
    );
}

/**
 * `--baseline-any` widens the gate of a `--baseline`; alone it gates nothing, so it is refused rather than ignored.
 * @throws InputError (exit 2) when `baselineAny` is set without `baseline`.
 */
function checkBaselineAny(baseline: string | undefined, baselineAny: boolean): void {
  if (baselineAny && baseline === undefined) throw new InputError('--baseline-any without --baseline gates nothing; add --baseline <result.json> (the run to gate against), or drop --baseline-any');
}

/** Kind and kwok cluster names: DNS-1123 labels (they become container and node names). */
const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The cluster name given as `cluster <action> NAME` and/or `--name NAME` (each may be absent or, repeated, an
 * array). @throws InputError naming the value when two different names were given or one is not a DNS-1123 label.
 */
export function clusterNameArgument(values: readonly unknown[]): string | undefined {
  const given = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v !== undefined).map(String);
  const distinct = [...new Set(given)];
  if (distinct.length > 1) throw new InputError(`two cluster names given: ${distinct.map((v) => `"${v}"`).join(' and ')}; give NAME or --name NAME once`);
  const name = distinct[0];
  if (name !== undefined && !CLUSTER_NAME.test(name)) {
    throw new InputError(`cluster name "${name}" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)`);
  }
  return name;
}

/**
 * A `--tolerance-*` flag's value as yargs hands it (the option is a string: yargs' own number parsing takes `0x10` and `' '`) to the option's coerce (`flag` as written, e.g.
 * `--tolerance-seconds`): the flag's default (a number) as it is; a decimal number (`5`, `2.5`, `1e3`, `-1`) as its
 * value, for lib/report's checkToleranceFlags to bound; text that is no number at all (`abc`) as NaN, which that check names.
 * @throws InputError (exit 2) naming the flag for a value given twice, `--no-<flag>`, or text JavaScript would read as
 *   a number but a person would not (`0x10`, `' '` read as 0, `Infinity`, `1_0`).
 */
export function parseToleranceFlag(flag: string, value: unknown): number {
  const unit = flag === '--tolerance-seconds' ? 'seconds' : 'percent';
  const refuse = (got: string) => new InputError(`${flag}: must be a number ≥ 0 (${unit}), got ${got}`, `pass e.g. ${flag} ${unit === 'seconds' ? 5 : 10}`);
  if (Array.isArray(value)) throw refuse(`${value.length} values (${value.map(String).join(', ')}); give the flag once`);
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') throw refuse(`--no-${flag.slice(2)}`);
  const text = String(value);
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  if (Number.isNaN(Number(text))) return Number.NaN;
  throw refuse(`${JSON.stringify(text)} (write a decimal number)`);
}

/** The InputError a flag's coerce threw last: yargs hands only its message to the fail handler, which would lose the hint. */
let coerceError: InputError | null = null;

/** Runs a coerce function, keeping an InputError it throws for {@link takeCoerceError}. */
function coerced<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InputError) coerceError = error;
    throw error;
  }
}

/** The InputError a flag's coerce threw with this `message` (main's fail handler rethrows it, hint and all); null otherwise. Clears it. */
export function takeCoerceError(message: string | undefined): InputError | null {
  const error = coerceError;
  coerceError = null;
  return error !== null && error.message === message ? error : null;
}
