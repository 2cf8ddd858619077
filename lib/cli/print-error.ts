// Turns any thrown value into the CLI's error lines and exit code: `ERROR: <one line>` on stderr,
// the hint on a second line, the stack only with -v (kind's logError).
import { ExitCode, RebootlabError, formatInputIssue, InputError, printable, type ExitCodeValue, type InputIssue } from '../common/errors.js';

/** Where the CLI writes; replaced in tests. */
export interface Streams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Error codes of a write to a reader that is gone (`rebootlab predict x.yaml | head`), and of writes after it. */
const CLOSED_PIPE_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);
let closedPipesIgnored = false;

/**
 * Makes a closed stdout or stderr end that stream's output quietly. Without a listener Node turns the stream's EPIPE
 * 'error' into an uncaught exception: a stack trace and exit 1 after `| head`, and a `run` whose output reader went
 * away would stop mid-fault. With it the command goes on (a run restores its faults and writes its reports) and keeps
 * its own exit code. Any other write error (e.g. ENOSPC on a redirected file) is rethrown as before. Idempotent.
 */
export function ignoreClosedPipes(): void {
  if (closedPipesIgnored) return;
  closedPipesIgnored = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!CLOSED_PIPE_CODES.has(error.code ?? '')) throw error;
    });
  }
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
    for (const line of issueLines(error.issues[0]!.file, error.issues, error.issueCount)) streams.stderr(`ERROR: ${line}\n`);
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

/** The first line of `text`, through {@link printable} (no control characters, at most 1000 characters). */
function oneLine(text: string): string {
  return printable(text.split('\n')[0]!.trim());
}

/** Most issues printed for one file; the first ones in file order say what to fix first. */
export const MAX_PRINTED_ISSUES = 10;

/**
 * The lines for `issues` of `file` (without `ERROR: `): one per issue up to {@link MAX_PRINTED_ISSUES}, then
 * `<file>: N more issues not shown` when `issueCount` (all found) is larger.
 */
export function issueLines(file: string, issues: readonly InputIssue[], issueCount = issues.length): string[] {
  const lines = issues.slice(0, MAX_PRINTED_ISSUES).map((issue) => formatInputIssue(issue));
  const more = Math.max(issueCount, issues.length) - lines.length;
  if (more > 0) lines.push(`${printable(file, 160)}: ${more} more issue${more === 1 ? '' : 's'} not shown; fix these first`);
  return lines;
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
