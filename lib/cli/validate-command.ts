// `rebootlab validate <files..>`: load every file, print `ok <file>` or one line per issue.
import { ExitCode, InputError, type ExitCodeValue, type InputIssue } from '../common/errors.js';
import { loadExperiment } from '../spec/load.js';
import { issueLines, MAX_PRINTED_ISSUES, printError, type Streams } from './print-error.js';

/** Options of validateFiles. */
export interface ValidateOptions {
  files: string[];
  set: string[];
  output: 'text' | 'json';
  verbose: boolean;
}

/** Result of validating one file, as printed with `-o json`. */
export interface FileValidation {
  file: string;
  ok: boolean;
  /** Number of variants (matrix × repeat) when ok. */
  variantCount: number;
  issues: InputIssue[];
}

/**
 * Validates each file independently: a bad file, or one that trips a bug, does not hide the others.
 * Text: `ok <file>` on stdout per valid file, `ERROR: file:line:col: path: message` on stderr per issue (at most
 * {@link MAX_PRINTED_ISSUES} per file, then one line counting the rest).
 * JSON: `{ files: FileValidation[] }` on stdout.
 * @returns exit code 0 when every file is valid, 2 otherwise; 3 if an unexpected error occurred in any file.
 */
export async function validateFiles(options: ValidateOptions, streams: Streams): Promise<ExitCodeValue> {
  const results: FileValidation[] = [];
  let exitCode: ExitCodeValue = ExitCode.Ok;
  for (const file of options.files) {
    try {
      const loaded = await loadExperiment(file, { set: options.set });
      results.push({ file, ok: true, variantCount: loaded.variants.length, issues: [] });
      if (options.output === 'text') streams.stdout(`ok ${file}\n`);
    } catch (error) {
      if (!(error instanceof InputError)) {
        // A bug: say so for this file, and go on with the others.
        exitCode = printError(error, options.verbose, streams);
        results.push({ file, ok: false, variantCount: 0, issues: [{ file, path: '', message: `unexpected error: ${(error as Error)?.message ?? String(error)}` }] });
        continue;
      }
      // An error without issues (a manifest that cannot be read) names the file itself; the line names it once.
      const message = error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message;
      const issues = error.issues.length > 0 ? [...error.issues] : [{ file, path: '', message }];
      results.push({ file, ok: false, variantCount: 0, issues });
      if (options.output === 'text') for (const line of issueLines(file, issues, error.issueCount)) streams.stderr(`ERROR: ${line}\n`);
      if (exitCode === ExitCode.Ok) exitCode = ExitCode.BadInput;
    }
  }
  if (options.output === 'json') streams.stdout(`${JSON.stringify({ files: results }, null, 2)}\n`);
  return exitCode;
}
