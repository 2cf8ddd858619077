// `rebootlab run <script.ts|.js>`: compile (TypeScript), hand the run options over, import the script in this process.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError, RebootlabError } from '../common/errors.js';
import type { CommandOutcome } from '../run/index.js';
import { compileScript } from './compile.js';
import { provideScriptOptions, scriptOutcome, type ScriptRunOptions } from './options.js';

/** Whether `file` is a scripted experiment (TypeScript or JavaScript) rather than an experiment file. */
export function isScriptFile(file: string): boolean {
  return /\.(m?ts|m?js)$/.test(file) && !file.endsWith('.d.ts');
}

/**
 * Runs a scripted experiment: type-checks and compiles a `.ts` script (compileScript), then imports it; its
 * `experiment()` call reads `options` and records the outcome. Resolves to exit code 0, 1 or 130.
 * @throws InputError for type errors, a script that never calls experiment(), or an error the script's own code
 *   threw (exit 2, not "a bug in rebootlab"); rebootlab's own errors as they are.
 */
export async function runScriptFile(options: ScriptRunOptions): Promise<CommandOutcome> {
  const jsFile = /\.m?ts$/.test(options.scriptFile) ? (await compileScript(options.scriptFile)).jsFile : options.scriptFile;
  provideScriptOptions(options);
  try {
    await import(pathToFileURL(jsFile).href);
  } catch (error) {
    throw scriptError(error, options.scriptFile);
  }
  const outcome = scriptOutcome();
  if (!outcome) throw new InputError(`${options.scriptFile}: the script finished without calling experiment(spec, body)`, "import { experiment } from 'rebootlab' and await it");
  return { exitCode: outcome.exitCode };
}

/** rebootlab's compiled library (dist/lib/), where a frame means the error came from rebootlab itself. */
const LIBRARY_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * What the CLI reports for an error that escaped the script: rebootlab's own errors (InputError, InfraError) and
 * errors thrown inside rebootlab's code (a bug) as they are; anything the script's code threw (its first stack
 * frame outside rebootlab, or a thrown non-Error) as one InputError line naming the script, its stack behind -v.
 */
export function scriptError(error: unknown, scriptFile: string): unknown {
  if (error instanceof RebootlabError) return error;
  if (error instanceof Error) {
    const frame = error.stack?.split('\n').find((line) => /^\s+at /.test(line) && /(file:\/\/|\/)/.test(line));
    if (frame !== undefined && frame.includes(LIBRARY_DIR)) return error;
    if (frame !== undefined && frame.includes(pathToFileURL(LIBRARY_DIR).href)) return error;
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new InputError(`${scriptFile}: the script threw ${text.split('\n')[0]}`, 'rerun with -v for its stack trace', { cause: error });
}
