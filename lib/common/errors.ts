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

/**
 * Formats an issue as one line: `file:line:col: path: message` (parts that are unknown are left out). Each part
 * goes through {@link printable}: a field name, value or file name from the input cannot break the line or flood
 * the terminal.
 */
export function formatInputIssue(issue: InputIssue): string {
  let where = printable(issue.file, MAX_NAME_CHARS);
  if (issue.line !== undefined) where += `:${issue.line}:${issue.column ?? 1}`;
  if (issue.origin !== undefined) where += ` (${printable(issue.origin, MAX_NAME_CHARS)})`;
  const message = printable(issue.message, MAX_MESSAGE_CHARS);
  return issue.path === '' ? `${where}: ${message}` : `${where}: ${printable(issue.path, MAX_NAME_CHARS)}: ${message}`;
}

/** Longest file name, origin or field path printed in one issue line, characters; the middle of a longer one is elided. */
export const MAX_NAME_CHARS = 160;
/** Longest message printed in one line, characters (the longest rebootlab writes, listing allowed fields, is ≈ 600). */
export const MAX_MESSAGE_CHARS = 1000;

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The characters that break, hide or reorder a terminal line, as the body of a regular expression character class:
 * control characters (C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F, the Unicode line and paragraph separators
 * U+2028 and U+2029) and bidirectional format characters (the marks U+200E, U+200F and U+061C, the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069). One definition for {@link printable}, {@link
 * hasControlOrBidi} and every check that refuses such a character in a value (a flag value, a restore command word).
 */
export const CONTROL_OR_BIDI_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u200e\\u200f\\u061c\\u202a-\\u202e\\u2066-\\u2069';
/** Matches one character of {@link CONTROL_OR_BIDI_CLASS}, everywhere in a text (global: for `replace`, never `test`). */
const CONTROL_OR_BIDI_ALL = new RegExp(`[${CONTROL_OR_BIDI_CLASS}]`, 'g');
const CONTROL_OR_BIDI_ONE = new RegExp(`[${CONTROL_OR_BIDI_CLASS}]`);

/**
 * Whether `text` holds a control or bidirectional formatting character ({@link CONTROL_OR_BIDI_CLASS}): a value
 * that must stay one line of text shown as written is refused when this is true.
 */
export function hasControlOrBidi(text: string): boolean {
  return CONTROL_OR_BIDI_ONE.test(text);
}

/** The bidirectional formatting characters of {@link CONTROL_OR_BIDI_CLASS}: marks, embeddings, overrides and isolates. */
const BIDI_FORMATTING = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/;
/** {@link CONTROL_OR_BIDI_CLASS} without the line breaks and the tab a script is written with. */
const HIDDEN_IN_SCRIPT = new RegExp(`(?![\\n\\r\\t])[${CONTROL_OR_BIDI_CLASS}]`);

/**
 * The first character of a script (shell text the user wrote, e.g. `fault.backend.command.off`) that is a control or
 * bidirectional formatting character ({@link CONTROL_OR_BIDI_CLASS}) other than a line break (`\n`, `\r`) or a tab,
 * described for a message (`U+202E, a bidirectional formatting character, at character 24 (the text a reviewer reads
 * would differ from what runs)`), or null. A bidi override or isolate makes the text a reviewer reads differ from what the
 * shell runs (Trojan Source, CVE-2021-42574); NUL cannot be passed to a process at all; an escape, C1 or U+2028 hides
 * or moves text on a terminal. Never throws.
 */
export function hiddenCharacterInScript(text: string): string | null {
  const match = HIDDEN_IN_SCRIPT.exec(text);
  if (match === null) return null;
  const c = match[0];
  const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return BIDI_FORMATTING.test(c)
    ? `${code}, a bidirectional formatting character, at character ${match.index + 1} (the text a reviewer reads would differ from what runs)`
    : `${code}, a control character, at character ${match.index + 1} (it hides text on a terminal${c === '\u0000' ? ' and cannot be passed to a command' : ''})`;
}

/**
 * `text` with every control or bidirectional formatting character ({@link CONTROL_OR_BIDI_CLASS}) written as a JSON
 * escape (`\n`, `\r`, `\t`, otherwise `\u001b`, `\u202e`); no other change. Never throws.
 */
export function escapeControlOrBidi(text: string): string {
  return text.replace(CONTROL_OR_BIDI_ALL, escapeOne);
}

/** {@link CONTROL_OR_BIDI_CLASS} without the line feed and the tab that text output is laid out with. */
const HIDDEN_IN_OUTPUT_ALL = new RegExp(`(?![\\n\\t])[${CONTROL_OR_BIDI_CLASS}]`, 'g');

/**
 * `text` (lines of command output, which may hold names read from a run directory or a journal) with every control
 * or bidirectional formatting character other than a line feed or a tab written as a JSON escape (`\u001b`,
 * `\r`, `\u202e`), so that a name in run.json cannot clear the screen, move the cursor or reorder a line. Never throws.
 */
export function terminalOutput(text: string): string {
  return text.replace(HIDDEN_IN_OUTPUT_ALL, escapeOne);
}

/** One character as its JSON escape: `\n`, `\r`, `\t`, otherwise `\u` and four hex digits. */
function escapeOne(c: string): string {
  return CONTROL_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` made safe for one terminal line: control characters (C0, DEL, C1, and the Unicode line and paragraph
 * separators) and bidirectional format characters (the marks U+200E, U+200F and U+061C, the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069) written as JSON escapes (`\n`, `\u001b`, `\u202e`), and a
 * text longer than `maxChars` cut in the middle (`…(1234 characters)…`), so bytes from an input file never end the
 * line, move the cursor, reorder what the line shows, or fill the screen.
 */
export function printable(text: string, maxChars = MAX_MESSAGE_CHARS): string {
  const escaped = escapeControlOrBidi(text);
  if (escaped.length <= maxChars) return escaped;
  const keep = Math.max(0, Math.floor((maxChars - 30) / 2));
  return `${escaped.slice(0, keep)}…(${escaped.length - 2 * keep} characters)…${escaped.slice(escaped.length - keep)}`;
}

/** Bad input from the user: a malformed experiment file, an unknown flag or field. Exit code 2. */
export class InputError extends RebootlabError {
  /** Every problem found, in file order; empty when the error is not about a file's content. */
  readonly issues: readonly InputIssue[];
  /** How many issues were found; more than `issues.length` when only the first ones were kept. */
  readonly issueCount: number;
  constructor(message: string, hint?: string, options?: ErrorOptions & { issues?: readonly InputIssue[]; issueCount?: number }) {
    super(message, ExitCode.BadInput, hint, options);
    this.issues = options?.issues ?? [];
    this.issueCount = Math.max(options?.issueCount ?? 0, this.issues.length);
  }
}

/** The environment failed: Docker, kind, the toolchain or the Kubernetes API. Exit code 3. */
export class InfraError extends RebootlabError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, ExitCode.Infrastructure, hint, options);
  }
}
