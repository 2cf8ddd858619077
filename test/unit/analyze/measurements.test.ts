// The measurement registry: every part needed is provided earlier, every expectation scope has one answer, and the
// registry's tables are what summary.md and report.html show.
import { expect } from 'chai';
import { MEASUREMENTS, measurementForScope } from '../../../lib/analyze/measurements/index.js';
import type { MeasuredKey } from '../../../lib/analyze/measurement.js';
import { renderSummary } from '../../../lib/report/reporters/markdown.js';
import { renderHtmlReport } from '../../../lib/report/reporters/html.js';
import { buildResult } from '../../../lib/report/result.js';
import { loadFixtureRun } from './fixture-runs.js';

describe('measurement registry', function () {
  it('computes each part once, after every part it needs', function () {
    const provided = new Set<MeasuredKey>();
    for (const m of MEASUREMENTS) {
      for (const need of m.needs) expect(provided.has(need), `${m.name} needs ${need} before it is provided`).to.equal(true);
      for (const key of m.provides) {
        expect(provided.has(key), `${key} provided twice (${m.name})`).to.equal(false);
        provided.add(key);
      }
    }
    expect([...provided]).to.include.members(['faults', 'steps', 'nodes', 'pods', 'workloads', 'predictions', 'events', 'marks', 'probes']);
  });

  it('answers every expectation scope except the run\'s own fields with exactly one measurement', function () {
    for (const scope of ['pods', 'node', 'workload', 'probe', 'predictions']) {
      expect(MEASUREMENTS.filter((m) => m.expectations?.scope === scope), scope).to.have.length(1);
      expect(measurementForScope(scope)?.expectations?.scope).to.equal(scope);
    }
    expect(measurementForScope('run')).to.equal(undefined);
  });

  it('every table a measurement returns for a recorded run appears in summary.md and report.html with each row', function () {
    const run = loadFixtureRun('kind-service-probes-recorded');
    const result = buildResult(run.analysis, run.info, run.observations[0]!.receivedAtMs);
    const tables = MEASUREMENTS.flatMap((m) => m.tables?.({ ...result, faultType: result.spec.fault.type }) ?? []);
    expect(tables.map((t) => t.name)).to.include.members(['nodes', 'pods', 'workloads', 'service-endpoints', 'endpoints', 'probes', 'events']);
    const md = renderSummary(result);
    const page = renderHtmlReport(result);
    for (const t of tables) {
      expect(md, t.name).to.include(`## ${t.title}`);
      expect(md, t.name).to.include(`| ${t.headers.join(' | ')} |`);
      expect(page, t.name).to.include(`data-table="${t.name}"`);
      for (const row of t.rows) {
        const first = row[0];
        const text = first !== null && typeof first === 'object' ? (first.seconds === null ? '—' : `${first.seconds.toFixed(3)} s`) : String(first ?? '—');
        expect(md, `${t.name} row ${text}`).to.include(`| ${text.replace(/\|/g, '\\|')} |`);
      }
    }
  });
});
