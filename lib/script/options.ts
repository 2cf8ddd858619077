// How a scripted experiment learns its run options: from `rebootlab run <script>` (set in-process by the
// run layer) or, when started directly with Node, from its own command line.
import { parseArgs } from 'node:util';
import { InputError } from '../common/errors.js';
import type { CommonOptions } from '../run/index.js';

/** Options of one script run; the same flags as `rebootlab run` for YAML files. */
export interface ScriptRunOptions extends Pick<CommonOptions, 'print' | 'progressSink'> {
  /** Path of the script as the user gave it (errors name it). */
  scriptFile: string;
  /** Parent directory of run directories, default `reports`. */
  outDir: string;
  /** `--set path=value` overrides of the script's experiment spec, e.g. `cluster.name=mine`. */
  set: string[];
  reuseCluster: boolean;
  keepCluster: boolean;
  /** `--reporter` values as for `rebootlab run` (lib/run/options.ts RunOptions.reporters); absent: the defaults. */
  reporters?: readonly string[];
}

/** The outcome of the last `experiment()` of this process: exit code 0, 1 or 130. */
export interface ScriptOutcome {
  exitCode: 0 | 1 | 130;
  runDir: string;
}

let provided: ScriptRunOptions | null = null;
let outcome: ScriptOutcome | null = null;

/** Called by `rebootlab run <script>` before importing the script. */
export function provideScriptOptions(options: ScriptRunOptions): void {
  provided = options;
  outcome = null;
}

/** Whether the CLI provided the options (otherwise the script was started directly with Node). */
export function startedByCli(): boolean {
  return provided !== null;
}

/** Records the outcome of `experiment()` for the CLI to turn into the exit code. */
export function recordScriptOutcome(result: ScriptOutcome): void {
  outcome = result;
}

/** The outcome recorded by the last `experiment()`, or null if the script never called it. */
export function scriptOutcome(): ScriptOutcome | null {
  return outcome;
}

/**
 * The run options: those the CLI provided, else parsed from `process.argv` (`--out`, `--set` (repeatable),
 * `--reuse-cluster`, `--keep-cluster`, `--reporter` (repeatable, comma-separated names)).
 * @throws InputError for an unknown flag.
 */
export function scriptOptions(): ScriptRunOptions {
  if (provided) return provided;
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: {
        out: { type: 'string', default: 'reports' }, set: { type: 'string', multiple: true, default: [] }, 'reuse-cluster': { type: 'boolean', default: false }, 'keep-cluster': { type: 'boolean', default: false },
        reporter: { type: 'string', multiple: true },
      },
      strict: true,
    });
  } catch (error) {
    throw new InputError(`${(error as Error).message.split('\n')[0]}; flags: --out DIR, --set path=value, --reuse-cluster, --keep-cluster, --reporter NAMES`);
  }
  return {
    scriptFile: process.argv[1] ?? 'script',
    outDir: parsed.values.out!,
    set: parsed.values.set!,
    reuseCluster: parsed.values['reuse-cluster']!,
    keepCluster: parsed.values['keep-cluster']!,
    reporters: parsed.values.reporter,
    print: (text) => process.stdout.write(text + '\n'),
    progressSink: { isTTY: Boolean(process.stderr.isTTY), write: (text) => process.stderr.write(text) },
  };
}
