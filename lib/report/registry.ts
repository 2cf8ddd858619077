// Reporter name → factory. The CLI and runner pick reporters by name and never import one directly.
import { InputError } from '../common/errors.js';
import type { ReporterFactory } from './reporter.js';
import { createGithubSummaryReporter } from './reporters/github-summary.js';
import { createHtmlReporter } from './reporters/html.js';
import { createJsonReporter } from './reporters/json.js';
import { createJunitReporter } from './reporters/junit.js';
import { createMarkdownReporter } from './reporters/markdown.js';

/**
 * Built-in reporters: `json` → result.json, `markdown` → summary.md, `html` → report.html (self-contained timeline
 * and tables), `junit` → junit.xml (one testcase per expectation), `github-summary` → appends summary.md to
 * `$GITHUB_STEP_SUMMARY` when that variable is set (nothing otherwise).
 */
export const REPORTERS: Readonly<Record<string, ReporterFactory>> = {
  json: createJsonReporter,
  markdown: createMarkdownReporter,
  html: createHtmlReporter,
  junit: createJunitReporter,
  'github-summary': (options) => createGithubSummaryReporter(options),
};

/** Reporters a run writes when none are named. */
export const DEFAULT_REPORTERS: readonly string[] = ['json', 'markdown', 'html', 'junit'];

/**
 * Look up a reporter factory.
 * @throws InputError naming the unknown reporter and the known ones.
 */
export function reporterFactory(name: string): ReporterFactory {
  const factory = REPORTERS[name];
  if (!factory) throw new InputError(`unknown reporter "${name}"; known: ${Object.keys(REPORTERS).join(', ')}`);
  return factory;
}
