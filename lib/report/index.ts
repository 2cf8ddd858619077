// Public API of reports: the Reporter interface, the registry, result.json and summary.md, and the entry points.
export type { Reporter, ReporterFactory, ReporterOptions, RunResult } from './reporter.js';
export type { Result, RunInfo, RunStatus } from './result-types.js';
export { Multiplexer } from './multiplexer.js';
export { REPORTERS, DEFAULT_REPORTERS, reporterFactory } from './registry.js';
export { buildResult, evaluateTexts, runStatus, RESULT_API_VERSION } from './result.js';
export { renderResultJson, RESULT_FILE } from './reporters/json.js';
export { renderSummary, SUMMARY_FILE } from './reporters/markdown.js';
export { writeReports, rebuildReports, readRunInfo, writeRunInfo, RUN_FILES, type WriteReportsOptions } from './write-reports.js';
