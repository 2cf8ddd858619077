// Reporter name → factory. The CLI and runner pick reporters by name (`--reporter`) and never import one directly.
import { InputError } from '../common/errors.js';
import type { ReporterFactory } from './reporter.js';
import { createGithubSummaryReporter, STEP_SUMMARY_ENV } from './reporters/github-summary.js';
import { createHtmlReporter } from './reporters/html.js';
import { createJsonReporter } from './reporters/json.js';
import { createJunitReporter } from './reporters/junit.js';
import { createListReporter } from './reporters/list.js';
import { createMarkdownReporter } from './reporters/markdown.js';

/**
 * Built-in reporters: `list` → progress lines on the terminal (live during a run, replayed by `report`), `json` →
 * result.json, `markdown` → summary.md, `html` → report.html (self-contained timeline and tables), `junit` →
 * junit.xml (one testcase per expectation), `github` → appends summary.md to `$GITHUB_STEP_SUMMARY` (the GitHub
 * Actions job summary).
 */
export const REPORTERS = {
  list: createListReporter,
  json: createJsonReporter,
  markdown: createMarkdownReporter,
  html: createHtmlReporter,
  junit: createJunitReporter,
  github: createGithubSummaryReporter,
} as const satisfies Record<string, ReporterFactory>;

/** A reporter's name: `list`, `json`, `markdown`, `html`, `junit` or `github`. */
export type ReporterName = keyof typeof REPORTERS;

/** The reporters that write files into the run directory, written when no `--reporter` is given. */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['json', 'markdown', 'html', 'junit'];

/**
 * Look up a reporter factory.
 * @throws InputError naming the unknown reporter and the known ones.
 */
export function reporterFactory(name: string): ReporterFactory {
  if (!Object.hasOwn(REPORTERS, name)) throw new InputError(`unknown reporter "${name}"; known: ${Object.keys(REPORTERS).join(', ')}`);
  return REPORTERS[name as ReporterName];
}

/** Where the defaults of {@link selectReporters} come from. */
export interface ReporterDefaults {
  /** Whether progress is shown (text output on a terminal stream): adds `list`. */
  progress: boolean;
  /** The environment; a non-empty GITHUB_STEP_SUMMARY (set by GitHub Actions) adds `github`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The reporters of one `run` or `report`: the `--reporter` values as given (each may hold a comma-separated list,
 * e.g. `list,html`; duplicates once, in order), or without any, the defaults: `list` when progress is shown, then
 * json, markdown, html, junit, and `github` when GITHUB_STEP_SUMMARY is set.
 * @throws InputError (exit 2) naming an unknown reporter and the known ones, or an empty `--reporter`.
 */
export function selectReporters(chosen: readonly string[] | undefined, defaults: ReporterDefaults): ReporterName[] {
  if (chosen === undefined || chosen.length === 0) {
    return [
      ...(defaults.progress ? (['list'] as const) : []),
      ...DEFAULT_REPORTERS,
      ...((defaults.env ?? process.env)[STEP_SUMMARY_ENV] ? (['github'] as const) : []),
    ];
  }
  const names = chosen.flatMap((value) => value.split(',')).map((name) => name.trim());
  if (names.some((name) => name === '')) throw new InputError(`--reporter ${chosen.join(',')}: empty reporter name; known: ${Object.keys(REPORTERS).join(', ')}`);
  const unknown = names.find((name) => !Object.hasOwn(REPORTERS, name));
  if (unknown !== undefined) throw new InputError(`--reporter: unknown reporter "${unknown}"; known: ${Object.keys(REPORTERS).join(', ')}`);
  return [...new Set(names as ReporterName[])];
}
