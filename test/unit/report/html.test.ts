// Tests for lib/report/reporters/html*.ts: report.html is deterministic, self-contained, escapes cluster strings, has every lane.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderHtmlReport } from '../../../lib/report/reporters/html.js';
import { MAX_NODE_LANES, MAX_POD_LANES } from '../../../lib/report/reporters/html-lanes.js';
import { tickStepSeconds } from '../../../lib/report/reporters/html-timeline.js';
import { timelineModel } from '../../../lib/report/reporters/html-timeline-model.js';
import { rebuildReports, writeReports } from '../../../lib/report/write-reports.js';
import { FIXTURE_RUNS_DIR, loadFixtureRun } from '../analyze/fixture-runs.js';
import { fixtureResult } from './synthetic-results.js';

const SCENARIOS = readdirSync(FIXTURE_RUNS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

function copyRun(scenario: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rebootlab-html-${scenario}-`));
  for (const f of ['observations.jsonl', 'run.json']) cpSync(join(FIXTURE_RUNS_DIR, scenario, f), join(dir, f));
  return dir;
}

describe('report/html: report.html of every fixture run', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: rebuilt twice and written live, report.html and junit.xml are byte-identical`, async () => {
      const [a, b] = [copyRun(scenario), copyRun(scenario)];
      try {
        await rebuildReports(a);
        const first = { html: readFileSync(join(a, 'report.html'), 'utf8'), junit: readFileSync(join(a, 'junit.xml'), 'utf8') };
        await rebuildReports(a);
        expect(readFileSync(join(a, 'report.html'), 'utf8')).to.equal(first.html);
        expect(readFileSync(join(a, 'junit.xml'), 'utf8')).to.equal(first.junit);
        // live: the runner calls writeReports with the analysis in memory and streams the observations.
        const run = loadFixtureRun(scenario);
        await writeReports(b, run.analysis, run.info, { observations: run.observations });
        expect(readFileSync(join(b, 'report.html'), 'utf8')).to.equal(first.html);
        expect(readFileSync(join(b, 'junit.xml'), 'utf8')).to.equal(first.junit);
      } finally {
        rmSync(a, { recursive: true, force: true });
        rmSync(b, { recursive: true, force: true });
      }
    });
    it(`${scenario}: self-contained (no script, no external URL) with a lane per node and pod and a marker per expectation`, () => {
      const r = fixtureResult(scenario);
      const page = renderHtmlReport(r);
      expect(page).to.match(/^<!doctype html>\n<html lang="en">/);
      expect(page).to.not.match(/<script|<link |<img |<iframe|@import|url\(|(src|href)="/i);
      // At most MAX_NODE_LANES node lanes (the kwok fixture has 101 nodes): the fault targets first, then the others.
      const targets = new Set(r.spec.fault.nodes);
      const nodeOrder = [...r.nodes.filter((n) => targets.has(n.name)), ...r.nodes.filter((n) => !targets.has(n.name))];
      nodeOrder.forEach((n, i) => expect(page.includes(`data-lane="node:${n.name}"`), `lane of node ${n.name} (#${i})`).to.equal(i < MAX_NODE_LANES));
      expect(r.pods.length, 'fixture pods within the pod lane cap').to.be.at.most(MAX_POD_LANES);
      for (const p of r.pods) expect(page).to.include(`data-lane="pod:${p.namespace}/${p.name}"`);
      for (const w of r.workloads) expect(page).to.include(`data-lane="workload:${w.name}"`);
      // One lane per expectation, each with at least one marker: an expectation over several pods
      // (e.g. evictedAfterSeconds of two replicas, recorded on kind) draws one marker per value.
      const lanes = page.split('<g class="lane"').slice(1);
      r.expectations.forEach((_, i) => {
        const lane = lanes.find((l) => l.includes(`data-lane="expectation:${i}"`));
        expect(lane, `lane of expectation ${i}`).to.be.a('string');
        expect(lane!.match(/data-kind="expectation-marker"/g)?.length ?? 0, `markers of expectation ${i}`).to.be.at.least(1);
      });
      for (const heading of ['Timeline', 'Expectations', 'Predicted vs observed', 'Nodes', 'Pods', 'Workloads', 'Effective flags']) expect(page).to.include(`<h2>${heading}</h2>`);
    });
  }

  it('power-off: detection from the last heartbeat (a status post at −1.7 s, received 0.3 s) [17.3, 31.3] s and eviction from the taint [52.3, 54.833] s (toleration from its timeAdded 22.3 s) are shaded with their cause; the grace flag is shown as --node-monitor-grace-period=20s', () => {
    const page = renderHtmlReport(fixtureResult('power-off-past-toleration'));
    expect(page).to.include('data-lane="predicted:detection"').and.include('data-lane="predicted:eviction"');
    expect(page).to.include('predicted Ready→Unknown: [17.3, 31.3] s; why: no heartbeat (Lease renewal or node status post) for more than the grace period');
    expect(page).to.include('predicted pod-eviction (node.kubernetes.io/unreachable) of rebootlab/web-5d8b7c9f4-aaaaa: [52.3, 54.833] s (held); why: node.kubernetes.io/unreachable:NoExecute + 30 s toleration');
    expect(page).to.include('cause: NoExecute taint change on kind-worker seen by the taint eviction controller (received) at 22.833 s');
    // The table of events with their cause, and no missed prediction.
    expect(page).to.include('data-table="predicted"').and.include('data-missed="0"');
    expect(page).to.include('Time zero is the start of the first fault command');
    expect(page).to.include('<code>--node-monitor-grace-period=20s</code>');
    expect(page.match(/data-kind="fault-window"/g)?.length).to.equal(1);
  });

  it('escapes every string from the cluster (pod name, reason, expectation message)', () => {
    const r = fixtureResult('power-off-past-toleration');
    r.pods[0].name = '<script>alert(1)</script>';
    r.nodes[1].notReadyReason = '"><img src=x onerror=alert(2)>';
    r.expectations[0].message = "</table><b onclick='x'>&";
    const page = renderHtmlReport(r);
    expect(page).to.not.include('<script>alert(1)</script>').and.not.include('<img src=x').and.not.include("<b onclick='x'>");
    expect(page).to.include('&lt;script>alert(1)&lt;/script>');
    expect(page).to.include('&lt;/table>&lt;b onclick=');
  });

  it('a failed expectation shows a red ✗ marker and a fail row', () => {
    const r = fixtureResult('reboot-quick');
    r.expectations[0] = { ...r.expectations[0], passed: false, actual: 'evicted-lost', message: 'web-7c9f8d6b5-abcde: evicted-lost' };
    const page = renderHtmlReport(r);
    expect(page).to.include('data-kind="expectation-marker" data-passed="false"').and.include('✗ fail');
  });

  it('the axis starts at most 10 s before the fault and reaches the last predicted window', () => {
    // power-off: journal starts 60.2 s before time zero (the fault command's start), ends at 120.9 s.
    expect(timelineModel(fixtureResult('power-off-past-toleration'))).to.include({ fromSeconds: -10, toSeconds: 120.9 });
    const quick = timelineModel(fixtureResult('reboot-quick'));
    // reboot-quick: no window past the journal's end (no NotReady expected from the controller), so the axis ends at the end.
    expect(quick).to.include({ fromSeconds: -10, toSeconds: 20.201, endAfterSeconds: 20.201 });
    expect([tickStepSeconds(130.6), tickStepSeconds(65), tickStepSeconds(3)]).to.deep.equal([20, 10, 0.5]);
  });
});
