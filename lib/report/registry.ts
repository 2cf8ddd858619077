// Reporter name → factory. The CLI and runner pick reporters by name and never import one directly.
import { InputError } from '../common/errors.js';
import type { ReporterFactory } from './reporter.js';
import { createJsonReporter } from './reporters/json.js';
import { createMarkdownReporter } from './reporters/markdown.js';

/** Built-in reporters: `json` → result.json, `markdown` → summary.md. Issue 4 adds html, junit, github-summary. */
export const REPORTERS: Readonly<Record<string, ReporterFactory>> = {
  json: createJsonReporter,
  markdown: createMarkdownReporter,
};

/** Reporters a run writes when none are named. */
export const DEFAULT_REPORTERS: readonly string[] = ['json', 'markdown'];

/**
 * Look up a reporter factory.
 * @throws InputError naming the unknown reporter and the known ones.
 */
export function reporterFactory(name: string): ReporterFactory {
  const factory = REPORTERS[name];
  if (!factory) throw new InputError(`unknown reporter "${name}"; known: ${Object.keys(REPORTERS).join(', ')}`);
  return factory;
}
