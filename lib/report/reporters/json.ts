// Writes result.json: the Result object, two-space indented, keys in a fixed order, trailing newline.
import { join } from 'node:path';
import type { Reporter, ReporterFactory, RunResult } from '../reporter.js';
import { writeReportFile } from './write-file.js';
import type { Result } from '../result-types.js';

/** File name of the JSON result in a run directory. */
export const RESULT_FILE = 'result.json';

/** The exact bytes of result.json for `result` (deterministic for equal input). */
export function renderResultJson(result: Result): string {
  return JSON.stringify(result, null, 2) + '\n';
}

/** Reporter that writes `<runDir>/result.json`. @throws InfraError from onEnd if the file cannot be written. */
export const createJsonReporter: ReporterFactory = (): Reporter => ({
  onEnd({ runDir, result }: RunResult): void {
    writeReportFile(join(runDir, RESULT_FILE), renderResultJson(result));
  },
  printsToStdio: () => false,
});
