// Writes junit.xml: one <testcase> per expectation, one <testsuite> per variant, for CI systems' test reports.
//
// Library: xmlbuilder2 (maintained, Node >= 20, no native code) builds the document and escapes every attribute
// and text, so expectation texts and messages from the cluster cannot break the XML. The layout is the one
// Jenkins, GitLab and GitHub test-report actions read: testsuites > testsuite > testcase > failure|error, with
// tests/failures/errors/skipped counts on both containers and time in seconds.
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import type { ExpectationResult } from '../../analyze/types.js';
import type { Reporter, ReporterFactory, RunResult } from '../reporter.js';
import type { Result } from '../result-types.js';
import { writeReportFile } from './write-file.js';

/** File name of the JUnit report in a run directory. */
export const JUNIT_FILE = 'junit.xml';

/** Characters XML 1.0 forbids even escaped (C0 controls other than tab, LF, CR); replaced by U+FFFD. */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const clean = (text: string): string => text.replace(XML_INVALID, '\uFFFD');

/**
 * For an expectation on `probes.<name>.…`: that probe's failing backends, one line each (cause, pods, count, interval,
 * why), so a CI failure says which backends failed and why; empty otherwise.
 */
export function probeContext(r: Result, text: string): string {
  const name = /^\s*(?:\w+\()?probes\.([^.\s]+)\./.exec(text)?.[1];
  const probe = name === undefined ? undefined : r.probes?.find((p) => p.name === name);
  if (!probe) return '';
  const lines = probe.failingBackends.map((f) => `  ${f.cause}: ${f.pods.join(', ')} — ${f.failed} failed, ${f.firstAfterSeconds} s → ${f.lastAfterSeconds} s; ${f.because}`);
  return `\nprobe ${probe.name} (Service ${probe.service ?? '?'}): ${probe.errors} of ${probe.sent} requests failed${lines.length > 0 ? `; failing backends:\n${lines.join('\n')}` : ''}`;
}

const actualText = (e: ExpectationResult): string => (Array.isArray(e.actual) ? `[${e.actual.map(String).join(', ')}]` : String(e.actual));

/** The testsuite name / testcase classname of a run: its variant, else its experiment. */
export function variantName(r: Result): string {
  return r.metadata.variant ?? r.metadata.experiment;
}

/** Seconds the run observed (first to last journal record), 3 decimals, for `time` attributes. */
function observedSeconds(r: Result): number {
  return (Date.parse(r.metadata.finishedAt) - Date.parse(r.metadata.startedAt)) / 1000;
}

/**
 * The JUnit XML document for one or more runs (deterministic: equal input, byte-identical output). Runs are grouped
 * by variant into one `<testsuite>` each (name and every testcase's classname = the variant name, else the
 * experiment name); each expectation of each run is one `<testcase>`, named by its text plus ` [repeat N]` when a
 * variant has several runs (so each `probes.<name>.<field>` expectation is a testcase, whose failure text lists that
 * probe's failing backends). A failed expectation carries `<failure message="expected …, actual …">`; every
 * testcase of an interrupted run carries `<error>`. `time` attributes are seconds (the run's observed span on the
 * suite, 0 on testcases: expectations are evaluated after the run, not timed).
 */
export function renderJunit(results: readonly Result[]): string {
  const groups = new Map<string, Result[]>();
  for (const r of results) groups.set(variantName(r), [...(groups.get(variantName(r)) ?? []), r]);
  const count = (pred: (r: Result, e: ExpectationResult) => boolean, rs: readonly Result[]): number => rs.reduce((n, r) => n + r.expectations.filter((e) => pred(r, e)).length, 0);
  const isError = (r: Result): boolean => r.status === 'interrupted';
  const totals = (rs: readonly Result[]) => ({
    tests: String(count(() => true, rs)),
    failures: String(count((r, e) => !isError(r) && !e.passed, rs)),
    errors: String(count((r) => isError(r), rs)),
    skipped: '0',
    time: rs.reduce((t, r) => t + observedSeconds(r), 0).toFixed(3),
  });
  const name = results.length > 0 ? results[0].metadata.experiment : 'rebootlab';
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: clean(name), ...totals(results) });
  for (const [variant, runs] of groups) {
    const sorted = [...runs].sort((a, b) => a.metadata.repeatIndex - b.metadata.repeatIndex);
    const suite = root.ele('testsuite', { name: clean(variant), ...totals(sorted), timestamp: sorted[0].metadata.startedAt.replace(/\.\d+Z$/, 'Z') });
    const props = suite.ele('properties');
    const first = sorted[0];
    props.ele('property', { name: 'experiment', value: clean(first.metadata.experiment) });
    props.ele('property', { name: 'fault', value: clean(`${first.spec.fault.type} ${first.spec.fault.nodes.join(',')}`) });
    props.ele('property', { name: 'repeats', value: String(sorted.length) });
    for (const r of sorted) {
      const suffix = sorted.length > 1 ? ` [repeat ${r.metadata.repeatIndex}]` : '';
      for (const e of r.expectations) {
        const tc = suite.ele('testcase', { classname: clean(variant), name: clean(e.text + suffix), time: '0.000' });
        const detail = `${e.text}\nexpected: ${e.expected ?? e.text}\nactual:   ${actualText(e)}\n${e.message}${probeContext(r, e.text)}`;
        if (isError(r)) tc.ele('error', { message: 'run interrupted before the end; result is partial', type: 'Interrupted' }).txt(clean(detail));
        else if (!e.passed) tc.ele('failure', { message: clean(`expected ${e.expected ?? e.text}, actual ${actualText(e)}`), type: 'ExpectationFailed' }).txt(clean(detail));
      }
    }
  }
  return root.end({ prettyPrint: true }) + '\n';
}

/** Reporter that writes `<runDir>/junit.xml` for the run. @throws InfraError from onEnd if the file cannot be written. */
export const createJunitReporter: ReporterFactory = (): Reporter => ({
  onEnd({ runDir, result }: RunResult): void {
    writeReportFile(join(runDir, JUNIT_FILE), renderJunit([result]));
  },
  printsToStdio: () => false,
});
