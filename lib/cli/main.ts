// The rebootlab command line: parses flags with yargs (strict), dispatches to lib/run, and is the
// only place that prints errors or sets the exit code.
import { existsSync } from 'node:fs';
import yargs, { type Argv } from 'yargs';
import { ExitCode, InputError, type ExitCodeValue } from '../common/errors.js';
import { MISSING_POSITIONAL, registerCommands, takeCoerceError, type CommandContext, type GlobalFlags } from './commands.js';
import { ignoreClosedPipes, printError, processStreams, type Streams } from './print-error.js';

/**
 * Runs the CLI with `argv` (without `node` and the script path) and sets `process.exitCode`:
 * 0 ok, 1 an expectation failed, 2 bad input (flags or experiment file), 3 infrastructure failure
 * or a bug, 130 interrupted. Never throws.
 */
export async function main(argv: string[], streams: Streams = processStreams): Promise<ExitCodeValue> {
  ignoreClosedPipes();
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  let exitCode: ExitCodeValue = ExitCode.Ok;
  try {
    const context: CommandContext = { streams, setExitCode: (code) => (exitCode = code) };
    await buildParser(argv, context).parseAsync();
  } catch (error) {
    exitCode = printError(error, verbose, streams);
  }
  process.exitCode = exitCode;
  return exitCode;
}

/** What {@link parseCommandLine} returns: the matched command's first word (`run`, `cluster`) and its parsed flags. */
export interface ParsedCommandLine {
  command: string;
  args: Record<string, unknown>;
}

/**
 * Parses `argv` (without `rebootlab`) with the real command definitions and flag checks, without running the
 * command: the docs test (test/unit/docs.test.ts) keeps every documented command line valid with it. What a command's
 * handler checks itself (reporter names, cluster names, files) is not checked.
 * @throws InputError with the one line `main` would print (unknown command or flag, missing argument, bad choice),
 *   or when argv asks for help or the version, which runs no command.
 */
export async function parseCommandLine(argv: string[]): Promise<ParsedCommandLine> {
  let parsed: ParsedCommandLine | null = null;
  const quiet: Streams = { stdout: () => {}, stderr: () => {} };
  const parser = buildParser(argv, { streams: quiet, setExitCode: () => {} }, (command, args) => (parsed = { command, args }));
  await parser.parseAsync();
  if (parsed === null) throw new InputError(`"${argv.join(' ')}" runs no command`);
  return parsed;
}

/**
 * The CLI's parser over `argv`. With `onParsed`, every command's handler is replaced by it (called with the
 * command's first word and the parsed flags): what parseCommandLine uses to parse without running.
 */
function buildParser(argv: string[], context: CommandContext, onParsed?: (command: string, args: Record<string, unknown>) => void): Argv<GlobalFlags> {
  const parser = yargs(argv)
    .scriptName('rebootlab')
    .usage('$0 <command> [options]\n\nMeasure what happens to Kubernetes pods when a node reboots, freezes or disappears.')
    .option('output', { alias: 'o', choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
    .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'Debug output and stack traces' })
    .strict()
    .recommendCommands()
    .demandCommand(1, 'name a command, e.g. rebootlab validate experiments/reboot-quick.yaml (see rebootlab --help)')
    .exitProcess(false)
    .help()
    .alias('help', 'h')
    .version()
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    // yargs would print usage and exit 1 ("expectation failed"); a flag error is bad input, exit 2, one line.
    .fail((message, error) => {
      // yargs' own argument errors (YError, e.g. "Not enough arguments following: set") are flag errors too.
      if (error && error.name !== 'YError') throw error;
      message = message ?? error?.message;
      // A flag's coerce threw an InputError: yargs kept only its message.
      const own = takeCoerceError(message);
      if (own) throw own;
      // yargs counts positionals before it checks flags: in `validate --foo x.yaml` the unknown --foo took x.yaml as
      // its value, and "not enough non-option arguments" would hide the real mistake.
      const unknown = /^Not enough non-option arguments/.test(message ?? '') ? unknownFlags(argv, (parser as unknown as { getOptions(): YargsOptions }).getOptions()) : [];
      if (unknown.length > 0) throw new InputError(`unknown flag ${unknown.join(', ')}; see rebootlab --help`);
      const flagValue = /^Not enough arguments following: (\S+)$/.exec(message ?? '');
      if (flagValue) throw new InputError(missingValueLine(`--${flagValue[1]}`));
      const specific = missingArgumentLine(message, argv, (parser as unknown as { getOptions(): YargsOptions }).getOptions()) ?? invalidChoicesLine(message, argv);
      if (specific !== null) throw new InputError(specific);
      let line = firstLine(message, argv);
      if (line.startsWith('did you mean')) line = `unknown command "${argv[0] ?? ''}"; ${line}`;
      throw new InputError(line.includes('--help') ? line : `${line}; see rebootlab --help`);
    });
  // yargs takes a value flag given last or before another flag (`run x.yaml --out`) as '' or as its default, and
  // `--out=` as '': every flag that takes a value needs one (yargs' own check covers only --set, nargs 1).
  parser.middleware(() => {
    const missing = missingValueFlags(argv, (parser as unknown as { getOptions(): YargsOptions }).getOptions());
    if (missing.length > 0) throw new InputError(missingValueLine(missing[0]!));
  });
  // A flag of a few choices given twice (`--format markdown --format json`) reaches yargs' choices check as an array
  // of valid values and the command as neither: refuse it rather than guess which one was meant.
  parser.middleware((args) => {
    const line = repeatedChoiceLine(args as Record<string, unknown>, (parser as unknown as { getOptions(): YargsOptions }).getOptions());
    if (line !== null) throw new InputError(line);
  });
  // yargs reads a lone `-` (standard input, by convention) as '' or drops it: `validate -` checked nothing and passed.
  parser.middleware((args) => {
    const line = stdinArgumentLine(argv, args as Record<string, unknown>, (parser as unknown as { getOptions(): YargsOptions }).getOptions());
    if (line !== null) throw new InputError(line);
  });
  // A positional given as '' (usually a shell variable that expanded to nothing: `rebootlab validate "$FILE"`) would
  // reach the file readers as an empty path and come back as `ERROR: : cannot read`.
  parser.middleware((args) => {
    const line = emptyPositionalLine(args as Record<string, unknown>);
    if (line !== null) throw new InputError(line);
  });
  if (onParsed) {
    // yargs returns the instance from command(), so the chained definitions in registerCommands all come here.
    const define = parser.command.bind(parser) as (...args: unknown[]) => unknown;
    const dry = (command: string, description: string, builder: unknown) =>
      define(command, description, builder, (args: Record<string, unknown>) => onParsed(command.split(' ')[0]!, args));
    Object.assign(parser, { command: dry });
  }
  return registerCommands(parser as Argv<GlobalFlags>, context);
}

/**
 * yargs messages can span lines ("Invalid values:\n  Argument: ..."); make one line. yargs calls both unknown
 * flags and extra words "Unknown argument": name each as the user wrote it (`--hb2` a flag, `hb2` an argument).
 */
export function firstLine(message: string | undefined, argv: readonly string[] = []): string {
  let line = (message ?? 'invalid command line').replace(/\s*\n\s*/g, ' ').trim();
  line = line.replace(/^Unknown arguments?: (.*)$/, (_, names: string) => {
    const given = names.split(', ');
    const asFlag = (n: string) => (n.length === 1 ? `-${n}` : `--${n}`);
    const isFlag = (n: string) => argv.some((a) => a === asFlag(n) || a.startsWith(`${asFlag(n)}=`));
    // yargs also lists the camelCase alias of an unknown --kebab-case flag; the user wrote one of them.
    const words = given.filter((n) => !isFlag(n) && argv.includes(n));
    const flags = given.filter((n) => isFlag(n));
    const parts = [
      ...(flags.length > 0 ? [`unknown flag ${flags.map(asFlag).join(', ')}`] : []),
      ...(words.length > 0 ? [`unexpected argument${words.length > 1 ? 's' : ''} ${words.map((w) => `"${w}"`).join(', ')}`] : []),
    ];
    return parts.length > 0 ? parts.join('; ') : `unknown flag ${given.map(asFlag).join(', ')}`;
  });
  return line.charAt(0).toLowerCase() + line.slice(1);
}

/**
 * yargs' "Not enough non-option arguments: got 0, need at least 1" as one line naming the command, what it is missing
 * and its usage (commands.ts MISSING_POSITIONAL), e.g. `rebootlab run: missing the experiment file; usage: rebootlab
 * run <file.yaml>`; null for any other message or when no command of that table is in `argv`. With the command's
 * `options` (yargs' getOptions()), an experiment file a value flag took (`run --out x.yaml`, {@link fileTakenByFlag})
 * is named instead of the usage: `rebootlab run: missing the experiment file: x.yaml was taken as the value of --out; ...`.
 */
export function missingArgumentLine(message: string | undefined, argv: readonly string[], options?: YargsOptions): string | null {
  if (!/^Not enough non-option arguments/.test(message ?? '')) return null;
  const command = argv.find((a) => Object.hasOwn(MISSING_POSITIONAL, a));
  if (command === undefined) return null;
  const { what, usage } = MISSING_POSITIONAL[command]!;
  // `run --out x.yaml`: the experiment file was given, but after a flag that took it as its value.
  const taken = options && EXPERIMENT_FILE_COMMANDS.has(command) ? fileTakenByFlag(argv, options) : null;
  if (taken) {
    return `rebootlab ${command}: missing ${what}: ${taken.value} was taken as the value of ${taken.flag}; put the experiment file first and give ${taken.flag} a value of its own (rebootlab ${command} ${taken.value} ${taken.flag} <value>)`;
  }
  return `rebootlab ${command}: missing ${what}; usage: ${usage}`;
}

/** Commands whose positional argument is an experiment file (commands.ts). */
const EXPERIMENT_FILE_COMMANDS = new Set(['validate', 'run', 'plan', 'predict']);
/** A word that names an experiment file: YAML, or a scripted experiment (.ts, .js, .mts, .mjs). */
const EXPERIMENT_FILE_NAME = /\.(ya?ml|m?[jt]s)$/i;

/**
 * The first experiment file name (`x.yaml`, `s.ts`) of `argv` that a flag taking a value (`options` as in
 * {@link missingValueFlags}) took as its value because it was written after the flag with a space (`--out x.yaml`,
 * `-o x.yaml`, also the last of a group `-vo x.yaml`), as `{ flag, value }` with the flag as written; null when none.
 * `--out=x.yaml` is the user's own choice and is not counted; nothing after `--` is looked at.
 */
export function fileTakenByFlag(argv: readonly string[], options: YargsOptions): { flag: string; value: string } | null {
  const takesValue = valueFlagTest(options);
  for (let i = 0; i < argv.length - 1; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const m = /^(--?)([^=]+)$/s.exec(arg);
    if (!m || arg === '-' || /^-[0-9]/.test(arg)) continue;
    const name = m[1] === '-' ? m[2]!.slice(-1) : m[2]!;
    const value = argv[i + 1]!;
    if (takesValue(name) && EXPERIMENT_FILE_NAME.test(value)) return { flag: `${m[1]}${name}`, value };
  }
  return null;
}

/** Whether a flag name as written (`out`, `o`, `tolerance-seconds`) takes a value: defined in `options`, not boolean or a count. */
function valueFlagTest(options: YargsOptions): (name: string) => boolean {
  const canonical = new Map<string, string>();
  for (const name of Object.keys(options.key)) canonical.set(name, name);
  for (const [name, aliases] of Object.entries(options.alias)) for (const a of aliases) canonical.set(a, name);
  const noValue = new Set([...(options.boolean ?? []), ...(options.count ?? [])]);
  return (name: string) => {
    const key = canonical.get(name) ?? canonical.get(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    return key !== undefined && !noValue.has(key) && !(options.alias[key] ?? []).some((a) => noValue.has(a));
  };
}

/**
 * yargs' "Invalid values:\n  Argument: format, Given: "xml", Choices: "text", "json"" (one `Argument:` line per bad
 * value) as one line naming each flag as `--name` (a positional, such as cluster's action, as `rebootlab cluster <action>`), the value
 * given and the allowed ones: `--format: "xml" is not one of text, markdown, json`; parts joined by `; `. Null for
 * any other message.
 */
export function invalidChoicesLine(message: string | undefined, argv: readonly string[]): string | null {
  if (!/^Invalid values:/.test(message ?? '')) return null;
  const parts: string[] = [];
  for (const entry of message!.split('\n').slice(1)) {
    const m = /^\s*Argument: ([^,]+), Given: (.*)$/.exec(entry);
    if (!m) continue;
    const name = m[1]!;
    const at = m[2]!.lastIndexOf(', Choices: ');
    const given = at < 0 ? m[2]! : m[2]!.slice(0, at);
    const choices = at < 0 ? '' : m[2]!.slice(at + ', Choices: '.length).split(', ').map((c) => c.replace(/^"(.*)"$/, '$1')).join(', ');
    // A defined positional is written as a word; anything else is a flag (given as --name, or as its alias: -o).
    const positional = POSITIONAL_NAMES.has(name) && !argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    const command = argv.find((a) => Object.hasOwn(MISSING_POSITIONAL, a));
    parts.push(`${positional ? `rebootlab ${command ?? ''} <${name}>`.replace('  ', ' ') : `--${name}`}: ${given} is not one of ${choices}`);
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

/** What each command's file or directory positional names, for {@link emptyPositionalLine}: key as yargs parses it → words. */
const PATH_POSITIONALS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  validate: { files: 'experiment file' },
  run: { experiment: 'experiment file' },
  plan: { experiment: 'experiment file' },
  predict: { experiment: 'experiment file' },
  report: { 'run-dir': 'run directory' },
  compare: { dirs: 'run directory' },
};

/**
 * The line for `-` given where a command takes a file or directory (`rebootlab validate -`), or null: rebootlab reads
 * no experiment or run from standard input. A `-` that is the value of the flag before it (`--out -`) is not one.
 */
export function stdinArgumentLine(argv: readonly string[], args: Record<string, unknown>, options: YargsOptions): string | null {
  const command = String((args._ as unknown[] | undefined)?.[0] ?? '');
  if (!Object.hasOwn(PATH_POSITIONALS, command)) return null;
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  const flagless = new Set([...(options.boolean ?? []), ...(options.count ?? [])]);
  const takesValue = (word: string) => {
    if (!word.startsWith('-') || word === '-' || word.includes('=')) return false;
    const name = word.replace(/^--?/, '').replace(/^no-/, '');
    return !flagless.has(name) && !(options.alias[name] ?? []).some((a) => flagless.has(a));
  };
  const at = words.findIndex((w, i) => w === '-' && !(i > 0 && takesValue(words[i - 1]!)));
  if (at < 0) return null;
  const noun = Object.values(PATH_POSITIONALS[command]!)[0]!;
  return `rebootlab ${command}: "-" is not ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}: rebootlab does not read one from standard input; give its path; usage: ${MISSING_POSITIONAL[command]!.usage}`;
}

/**
 * The line for a command whose file or directory argument is the empty string (`rebootlab validate ''`, or
 * `rebootlab report "$DIR"` with DIR unset) or blank (only spaces or tabs, and no such file), from yargs' parsed `args` (`_[0]` the command): e.g. `rebootlab validate:
 * no experiment file given: argument 1 is empty (''); usage: rebootlab validate <file.yaml> [<file.yaml> ...]`.
 * Null when every such argument is non-empty or the command takes none.
 */
export function emptyPositionalLine(args: Record<string, unknown>): string | null {
  const command = String((args._ as unknown[] | undefined)?.[0] ?? '');
  const positionals = Object.hasOwn(PATH_POSITIONALS, command) ? PATH_POSITIONALS[command]! : {};
  for (const [key, noun] of Object.entries(positionals)) {
    const values = [args[key]].flat();
    // Blank (spaces, a tab) counts too unless such a file exists: the name would print as nothing (`ERROR:  : cannot read`).
    const at = values.findIndex((v) => typeof v === 'string' && v.trim() === '' && (v === '' || !existsSync(v)));
    if (at < 0) continue;
    const value = values[at] as string;
    const which = `${values.length > 1 ? `argument ${at + 1}` : 'the argument'} is ${value === '' ? "empty ('')" : `blank (${JSON.stringify(value)})`}`;
    return `rebootlab ${command}: no ${noun} given: ${which}; usage: ${MISSING_POSITIONAL[command]!.usage}`;
  }
  return null;
}

/** The line for a flag given without its value (`--out`, `--out=`, `--out ''`, `-o`): `--out: missing its value; see rebootlab --help`. */
export function missingValueLine(flag: string): string {
  return `${flag}: missing its value; see rebootlab --help`;
}

/**
 * The flags of `argv` that take a value (every option of the matched command that is not boolean or a count,
 * `options` as yargs' getOptions() gives them) but were given none, as written: `--out` last or followed by another
 * flag or `--`, `--out=`, `--out ''`, and `-o` (also last in a group, `-vo`). A negative number is a value
 * (`--tolerance-seconds -1`). Nothing after `--` is looked at.
 */
export function missingValueFlags(argv: readonly string[], options: YargsOptions): string[] {
  const takesValue = valueFlagTest(options);
  const isFlag = (arg: string) => /^-[^0-9]/.test(arg);
  const missing: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const m = /^(--?)([^=]+)(=(.*))?$/s.exec(arg);
    if (!m || arg === '-' || /^-[0-9]/.test(arg)) continue;
    // In a group of short flags (-vo) only the last may take the next word.
    const name = m[1] === '-' ? m[2]!.slice(-1) : m[2]!;
    if (!takesValue(name)) continue;
    const given = m[3] !== undefined ? m[4]! : argv[i + 1];
    if (given === undefined || given === '' || (m[3] === undefined && (given === '--' || isFlag(given)))) missing.push(`${m[1]}${name}`);
  }
  return [...new Set(missing)];
}

/** Positional arguments that take a fixed set of values (commands.ts): named `<action>` in an invalid-value line. */
const POSITIONAL_NAMES = new Set(['action']);

/** The part of yargs' getOptions() (not in its type declarations) that names the defined flags. */
interface YargsOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
  boolean?: string[];
  count?: string[];
  choices?: Record<string, readonly unknown[]>;
}

/**
 * The line for a flag with `choices` (--output, --format, …) given more than once, or null: e.g.
 * `--format given twice (markdown, json); give it once`. Aliases (-o) count as their flag.
 */
export function repeatedChoiceLine(args: Record<string, unknown>, options: YargsOptions): string | null {
  for (const key of Object.keys(options.choices ?? {})) {
    const value = args[key];
    if (!Array.isArray(value) || value.length < 2) continue;
    const flag = key.length === 1 ? `-${key}` : `--${key}`;
    const times = value.length === 2 ? 'twice' : `${value.length} times`;
    return `${flag} given ${times} (${value.map(String).join(', ')}); give it once`;
  }
  return null;
}

/**
 * The flags of `argv` that the matched command does not define (`options` as yargs' getOptions() gives them for
 * that command, aliases included), as written: `--foo`, `-x`. `--no-<flag>` counts as `<flag>`; nothing after `--`.
 */
export function unknownFlags(argv: readonly string[], options: YargsOptions): string[] {
  const known = new Set<string>(Object.keys(options.key));
  for (const [name, aliases] of Object.entries(options.alias)) for (const a of [name, ...aliases]) known.add(a);
  const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const unknown: string[] = [];
  for (const arg of argv) {
    if (arg === '--') break;
    const m = /^(--?)([^=]+)/.exec(arg);
    if (!m || arg === '-' || /^-[0-9]/.test(arg)) continue;
    const names = m[1] === '-' ? [...m[2]!] : [m[2]!, m[2]!.replace(/^no-/, '')];
    if (!names.some((n) => known.has(n) || known.has(camel(n)))) unknown.push(arg.split('=')[0]!);
  }
  return [...new Set(unknown)];
}
