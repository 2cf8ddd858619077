// Error classes and exit codes shared by every module; only lib/cli maps them to a process exit.

/**
 * Process exit codes of the rebootlab CLI.
 * 0 all expectations met, 1 an expectation failed, 2 bad input, 3 infrastructure failure
 * (Docker, kind, cluster, API unreachable), 130 interrupted (128 + SIGINT) after every fault was undone.
 */
export const ExitCode = { Ok: 0, ExpectationFailed: 1, BadInput: 2, Infrastructure: 3, Interrupted: 130 } as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Base class of every error rebootlab raises on purpose. `message` is one line; `hint` says what to do. */
export class RebootlabError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly hint?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * One problem in user input, printed as `file:line:column: path: message` by formatInputIssue.
 * `line` and `column` are 1-based; both absent when the problem has no place in a file
 * (then `origin` may say where it came from, e.g. `--set cluster.workers=0`).
 */
export interface InputIssue {
  file: string;
  line?: number;
  column?: number;
  /** Where the value came from when not from the file itself, e.g. `--set cluster.workers=0`. */
  origin?: string;
  /** Dotted field path, e.g. `cluster.controllerManager.nodeMonitorGracePeriod` or `workloads[0].name`; '' for the document. */
  path: string;
  message: string;
}

/** Formats an issue as one line: `file:line:col: path: message` (parts that are unknown are left out). */
export function formatInputIssue(issue: InputIssue): string {
  let where = issue.file;
  if (issue.line !== undefined) where += `:${issue.line}:${issue.column ?? 1}`;
  if (issue.origin !== undefined) where += ` (${issue.origin})`;
  return issue.path === '' ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`;
}

/** Bad input from the user: a malformed experiment file, an unknown flag or field. Exit code 2. */
export class InputError extends RebootlabError {
  /** Every problem found, in file order; empty when the error is not about a file's content. */
  readonly issues: readonly InputIssue[];
  constructor(message: string, hint?: string, options?: ErrorOptions & { issues?: readonly InputIssue[] }) {
    super(message, ExitCode.BadInput, hint, options);
    this.issues = options?.issues ?? [];
  }
}

/** The environment failed: Docker, kind, the toolchain or the Kubernetes API. Exit code 3. */
export class InfraError extends RebootlabError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.Infrastructure, hint, options);
  }
}
