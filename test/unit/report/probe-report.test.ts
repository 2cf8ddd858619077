// Traffic probes in the reports: the probe lane of report.html, the failing backends in summary.md and report.html,
// the probe metrics of compare, and a JUnit testcase per probe expectation whose failure names the failing backends.
// Input: the result of the recorded kind run test/fixtures/runs/kind-service-probes-recorded.
import { expect } from 'chai';
import { compareResults } from '../../../lib/report/compare.js';
import { renderComparison } from '../../../lib/report/compare-render.js';
import { metricValue } from '../../../lib/report/compare-metrics.js';
import { renderHtmlReport } from '../../../lib/report/reporters/html.js';
import { timelineModel } from '../../../lib/report/reporters/html-timeline-model.js';
import { renderJunit } from '../../../lib/report/reporters/junit.js';
import { renderSummary as renderMarkdown } from '../../../lib/report/reporters/markdown.js';
import type { Result } from '../../../lib/report/result-types.js';
import { fixtureResult } from './synthetic-results.js';

const SCENARIO = 'kind-service-probes-recorded';

describe('report: traffic probes', () => {
  it('report.html has a probe lane per prober: 100 ms runs ok / errors / some errors and a latency line', () => {
    const r = fixtureResult(SCENARIO);
    const lanes = timelineModel(r).lanes.filter((l) => l.section === 'Probes');
    expect(lanes.map((l) => l.id)).to.deep.equal(['probe:web', 'probe:api']);
    const web = lanes[0]!;
    const segments = web.rows[0]!.segments;
    // web failed every request from the power-off until a replacement answered: one long run of errors from 0.4 s.
    const longestError = segments.filter((s) => s.kind === 'down').sort((a, b) => (b.toSeconds - b.fromSeconds) - (a.toSeconds - a.fromSeconds))[0]!;
    expect(longestError.fromSeconds).to.be.at.most(2);
    expect(longestError.toSeconds).to.be.within(59, 61);
    expect(segments.reduce((n, s) => n + Number(/(\d+) failed/.exec(s.title)![1]), 0)).to.equal(r.probes![0]!.errors);
    expect(web.line!.points.length).to.be.above(50);
    const html = renderHtmlReport(r);
    expect(html).to.contain('data-lane="probe:web"').and.to.contain('data-kind="latency-line"').and.to.contain('data-table="failing-backends"');
  });

  it('summary.md lists the failing backends with cause, pods, count, interval and why', () => {
    const md = renderMarkdown(fixtureResult(SCENARIO));
    expect(md).to.contain('## Failing backends (failed requests joined with the EndpointSlices)');
    expect(md).to.contain('| api | endpoint-ready-on-down-node | api-7d54775566-jk9q8 | rl-svc-worker | 270 | refused 11, timeout 259 | 0.375 s | 26.136 s |');
    expect(md).to.contain('| web | no-ready-endpoint | web-76568cd5df-ppzww, web-76568cd5df-xkwnk | rl-svc-worker | 591 |');
  });

  it('compare tabulates errorSeconds, errorRatio (in percent), first and last error per probe', () => {
    const a = fixtureResult(SCENARIO);
    const b: Result = JSON.parse(JSON.stringify(a));
    b.metadata.variant = 'other';
    b.probes![1]!.errorRatio = 0.05;
    const c = compareResults([a, b].map((result, i) => ({ dir: `run-${i}`, result, matrixValues: null })));
    expect(c.metrics.filter((m) => m.id.startsWith('probe')).map((m) => m.id)).to.deep.equal([
      'probeErrorSeconds:web', 'probeErrorRatio:web', 'probeFirstError:web', 'probeLastError:web',
      'probeErrorSeconds:api', 'probeErrorRatio:api', 'probeFirstError:api', 'probeLastError:api',
    ]);
    expect(metricValue(a, 'probeErrorRatio:api')).to.equal(0.1438);
    expect(metricValue(a, 'probeFirstError:web')).to.equal(0.431);
    expect(metricValue(a, 'probeErrorSeconds:web')).to.equal(a.probes![0]!.errorSeconds);
    const text = renderComparison(c, 'markdown');
    expect(text).to.match(/probe api error ratio \| 14\.4 % \| 5\.0 % \(Δ −9\.4 %\)/);
  });

  it('JUnit: one testcase per probe expectation; a failed one names the probe\'s failing backends', () => {
    const r = fixtureResult(SCENARIO);
    const i = r.expectations.findIndex((e) => e.text.startsWith('probes.api.'));
    expect(i).to.be.at.least(0);
    r.expectations[i] = { ...r.expectations[i]!, passed: false };
    r.status = 'failed';
    const xml = renderJunit([r]);
    const cases = [...xml.matchAll(/<testcase [^>]*name="(probes\.[^"]+)"/g)].map((m) => m[1]);
    expect(cases).to.deep.equal(r.expectations.filter((e) => e.text.startsWith('probes.')).map((e) => e.text.replace(/</g, '&lt;')));
    expect(xml).to.contain('probe api (Service api): 302 of 2100 requests failed; failing backends:');
    expect(xml).to.contain('endpoint-ready-on-down-node: api-7d54775566-jk9q8 — 270 failed, 0.375 s → 26.136 s');
  });
});
