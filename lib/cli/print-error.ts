// Turns any thrown value into the CLI's error lines and exit code: `ERROR: <one line>` on stderr,
// the hint on a second line, the stack only with -v (kind's logError).
import { ExitCode, RebootlabError, formatInputIssue, InputError, type ExitCodeValue } from '../common/errors.js';

/** Where the CLI writes; replaced in tests. */
export interface Streams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The process streams, each call writing whole lines. */
export const processStreams: Streams = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Prints an error and returns its exit code: a RebootlabError's own (InputError 2, InfraError 3);
 * anything else is a bug, exit 3. An InputError with issues prints one `ERROR:` line per issue.
 */
export function printError(error: unknown, verbose: boolean, streams: Streams = processStreams): ExitCodeValue {
  if (error instanceof InputError && error.issues.length > 0) {
    for (const issue of error.issues) streams.stderr(`ERROR: ${oneLine(formatInputIssue(issue))}\n`);
    if (verbose && error.stack) streams.stderr(`${error.stack}\n`);
    return error.exitCode;
  }
  if (error instanceof RebootlabError) {
    streams.stderr(`ERROR: ${oneLine(error.message)}\n`);
    if (error.hint) streams.stderr(`${oneLine(error.hint)}\n`);
    if (verbose) streams.stderr(`${causeChain(error)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  streams.stderr(`ERROR: unexpected error: ${oneLine(message)}\n`);
  if (verbose) streams.stderr(`${error instanceof Error ? causeChain(error) : String(error)}\n`);
  else streams.stderr('This is a bug in rebootlab; rerun with -v for the stack trace.\n');
  return ExitCode.Infrastructure;
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function causeChain(error: Error): string {
  let text = error.stack ?? error.message;
  let cause = error.cause;
  while (cause instanceof Error) {
    text += `\nCaused by: ${cause.stack ?? cause.message}`;
    cause = cause.cause;
  }
  return text;
}
