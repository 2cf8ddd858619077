// `rebootlab run <script.ts|.js>`: compile (TypeScript), hand the run options over, import the script in this process.
import { pathToFileURL } from 'node:url';
import { InputError } from '../common/errors.js';
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
 * @throws InputError for type errors or a script that never calls experiment(); whatever the script throws.
 */
export async function runScriptFile(options: ScriptRunOptions): Promise<CommandOutcome> {
  const jsFile = /\.m?ts$/.test(options.scriptFile) ? (await compileScript(options.scriptFile)).jsFile : options.scriptFile;
  provideScriptOptions(options);
  await import(pathToFileURL(jsFile).href);
  const outcome = scriptOutcome();
  if (!outcome) throw new InputError(`${options.scriptFile}: the script finished without calling experiment(spec, body)`, "import { experiment } from 'rebootlab' and await it");
  return { exitCode: outcome.exitCode };
}
