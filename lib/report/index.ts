// Public API of reports: the Reporter interface, the registry, result.json and summary.md, and the entry points.
export type { Reporter, ReporterFactory, ReporterOptions, RunResult, TerminalSink } from './reporter.js';
export type { Result, RunInfo, RunStatus } from './result-types.js';
export { Multiplexer } from './multiplexer.js';
export { REPORTERS, DEFAULT_REPORTERS, reporterFactory, selectReporters, type ReporterDefaults, type ReporterName } from './registry.js';
export { buildResult, RESULT_API_VERSION } from './result.js';
export { renderResultJson, RESULT_FILE } from './reporters/json.js';
export { renderSummary, SUMMARY_FILE } from './reporters/markdown.js';
export { writeReports, rebuildReports, readRunInfo, writeRunInfo, journalDamageWarning, RUN_FILES, type RebuildReportsOptions, type WriteReportsOptions } from './write-reports.js';
export { renderHtmlReport, REPORT_HTML_FILE } from './reporters/html.js';
export { renderJunit, JUNIT_FILE } from './reporters/junit.js';
export { appendStepSummary, renderStepSummary, STEP_SUMMARY_ENV } from './reporters/github-summary.js';
export { compareRuns, compareResults, metricStats, type Comparison, type CompareRunsOptions, type MetricStats, type VariantComparison } from './compare.js';
export { expandRunDirs, loadRun, type LoadedRun } from './compare-load.js';
export { FIXED_METRICS, metricValue, type MetricDef } from './compare-metrics.js';
export { renderComparison, COMPARISON_FORMATS, type ComparisonFormat } from './compare-render.js';
export { baselineDifferences, checkBaseline, checkBaselineSubject, checkToleranceFlags, MAX_TOLERANCE_PERCENT, MAX_TOLERANCE_SECONDS, readBaseline, type BaselineSubject, type BaselineTolerance, type Regression } from './baseline.js';
export { checkResultShape, checkRunInfoShape } from './result-shape.js';
