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

/** Bad input from the user: a malformed experiment file, an unknown flag or field. Exit code 2. */
export class InputError extends RebootlabError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.BadInput, hint, options);
  }
}

/** The environment failed: Docker, kind, the toolchain or the Kubernetes API. Exit code 3. */
export class InfraError extends RebootlabError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.Infrastructure, hint, options);
  }
}
