// Tests for lib/report/compare*.ts: statistics on synthetic runs with known medians/p95, directory expansion, rendering.
import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareResults, compareRuns, metricStats } from '../../../lib/report/compare.js';
import { renderComparison } from '../../../lib/report/compare-render.js';
import type { Result } from '../../../lib/report/result-types.js';
import { syntheticResult } from './synthetic-results.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const loaded = (results: Result[]) => results.map((result, i) => ({ dir: `run-${i}`, result, matrixValues: null }));

/** grace 20 s vs 40 s, two repeats each: detection moves by the grace difference. */
function graceMatrix(): Result[] {
  const runs = [
    syntheticResult('grace-20s', 0, { detection: 22, eviction: 52, replacementReady: 55.3, unavailableWeb: 32.7 }),
    syntheticResult('grace-20s', 1, { detection: 18, eviction: 48, replacementReady: 51.1, unavailableWeb: 30.1 }),
    syntheticResult('grace-40s', 0, { detection: 41, eviction: 71, replacementReady: 75.0, unavailableWeb: 52.0 }),
    syntheticResult('grace-40s', 1, { detection: 43, eviction: 73, replacementReady: 77.5, unavailableWeb: 55.0 }),
  ];
  for (const r of runs.slice(2)) r.spec.settings.controllerManager.nodeMonitorGracePeriodMs = 40000;
  return runs;
}

describe('report/compare: statistics', () => {
  it('median and p95 are nearest-rank, the rule of median()/p95() in expect:', () => {
    // sorted 10, 20, 30, 40, 50: median = rank ceil(0.5·5) = 3rd = 30; p95 = rank ceil(0.95·5) = 5th = 50.
    const s = metricStats([30, 10, null, 50, 20, 40]);
    expect(s).to.include({ count: 5, medianSeconds: 30, p95Seconds: 50, minSeconds: 10, maxSeconds: 50 });
    // 20 values 1..20: p95 = rank 19 → 19; median = rank 10 → 10.
    const t = metricStats(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(t).to.include({ medianSeconds: 10, p95Seconds: 19, minSeconds: 1, maxSeconds: 20 });
  });
  it('no value at all gives null statistics, not 0', () => {
    expect(metricStats([null, null])).to.include({ count: 0, medianSeconds: null, p95Seconds: null, minSeconds: null, maxSeconds: null });
  });
  it('groups by variant, sorts repeats, and measures deltas against the first variant', () => {
    const c = compareResults(loaded(graceMatrix().reverse()));
    expect(c.variants.map((v) => v.name)).to.deep.equal(['grace-40s', 'grace-20s']);
    expect(c.baseline).to.equal('grace-40s');
    const v20 = c.variants[1];
    expect(v20.runs.map((r) => r.repeatIndex)).to.deep.equal([0, 1]);
    expect(v20.metrics.detection.values).to.deep.equal([22, 18]);
    // two values: nearest-rank median is the lower one (18), p95 the higher (22); baseline 40 s variant: 41 / 43.
    expect(v20.metrics.detection).to.include({ medianSeconds: 18, p95Seconds: 22, minSeconds: 18, maxSeconds: 22, deltaMedianSeconds: -23, deltaP95Seconds: -21 });
  });
  it('a chosen baseline: detection moves by the grace difference (≈ +20 s) and settings that differ are listed', () => {
    const c = compareResults(loaded(graceMatrix()), { baseline: 'grace-20s' });
    const v40 = c.variants.find((v) => v.name === 'grace-40s')!;
    expect(v40.metrics.detection.deltaMedianSeconds).to.equal(23); // 41 − 18
    expect(v40.metrics['unavailable:web']).to.include({ medianSeconds: 52, deltaMedianSeconds: 21.9 }); // 52 − 30.1
    expect(v40.metrics.replacementReady).to.include({ medianSeconds: 75, deltaP95Seconds: 22.2 }); // 77.5 − 55.3
    expect(c.variants[0].metrics.detection.deltaMedianSeconds).to.equal(null);
    expect(v40.settings).to.deep.equal({ 'controllerManager.nodeMonitorGracePeriodMs': 40000 });
    expect(c.metrics.map((m) => m.id)).to.deep.equal(['detection', 'noExecuteTaint', 'eviction', 'replacementReady', 'unavailable:web', 'unavailable:db', 'unavailable:solo', 'unavailable:agent']);
  });
  it('never pools runs of one variant name on different providers or fault types; names them apart', () => {
    const kind = syntheticResult('outage-tuned', 0, { detection: 19.4, eviction: 49.7, replacementReady: 52.1, unavailableWeb: 33 });
    const kwok = syntheticResult('outage-tuned', 0, { detection: 22.8, eviction: 53.9, replacementReady: 54, unavailableWeb: 34 });
    kwok.spec.cluster.provider = 'kwok';
    const c = compareResults(loaded([kind, kwok]));
    expect(c.variants.map((v) => v.name)).to.deep.equal(['outage-tuned [kind]', 'outage-tuned [kwok]']);
    expect(c.variants.map((v) => v.metrics.detection.count)).to.deep.equal([1, 1]);
    expect(c.variants[1].metrics.detection.deltaMedianSeconds).to.equal(3.4);
  });
  it('an unknown baseline variant is bad input (exit code 2) naming the variants', () => {
    expect(() => compareResults(loaded(graceMatrix()), { baseline: 'grace-30s' }))
      .to.throw('baseline variant "grace-30s" is not among the compared runs; variants: grace-20s, grace-40s').with.property('exitCode', 2);
  });
  it('an event that did not happen in one repeat is counted as missing, not as 0', () => {
    const c = compareResults(loaded([syntheticResult('a', 0, { detection: 20 }), syntheticResult('a', 1, { detection: null })]));
    expect(c.variants[0].metrics.detection).to.include({ count: 1, medianSeconds: 20 });
    expect(renderComparison(c, 'text')).to.include('20.000 s n=1/2');
  });
});

describe('report/compare: runs of several Kubernetes versions (issue 25)', () => {
  /** A version × toleration matrix: each variant's Δ is against the same toleration on the first version. */
  function versionMatrix() {
    const cell = (version: string, toleration: number, eviction: number) => {
      const r = syntheticResult(`upgrade--kubernetesVersion-${version}--tol-${toleration}`, 0, { detection: 20, eviction });
      r.spec.cluster.kubernetesVersion = version;
      return { dir: `${version}-${toleration}`, result: r, matrixValues: { 'cluster.kubernetesVersion': version, 'tol': toleration } };
    };
    return [cell('v1.35.4', 300, 320), cell('v1.35.4', 30, 50), cell('v1.37.2', 300, 321), cell('v1.37.2', 30, 52.5)];
  }

  it('measures each variant against the same settings on the baseline version, not against the baseline variant', () => {
    const c = compareResults(versionMatrix());
    expect(c.byKubernetesVersion).to.equal(true);
    const byName = Object.fromEntries(c.variants.map((v) => [v.name, v]));
    const tuned137 = byName['upgrade--kubernetesVersion-v1.37.2--tol-30']!;
    expect(tuned137.kubernetesVersion).to.equal('v1.37.2');
    expect(tuned137.deltaAgainst).to.equal('upgrade--kubernetesVersion-v1.35.4--tol-30');
    expect(tuned137.metrics.eviction.deltaMedianSeconds).to.equal(2.5); // 52.5 − 50, not 52.5 − 320
    expect(byName['upgrade--kubernetesVersion-v1.37.2--tol-300']!.metrics.eviction.deltaMedianSeconds).to.equal(1);
    expect(byName['upgrade--kubernetesVersion-v1.35.4--tol-30']!.deltaAgainst).to.equal('upgrade--kubernetesVersion-v1.35.4--tol-300');
    const text = renderComparison(c, 'text');
    expect(text).to.contain('Δ against the same settings on Kubernetes v1.35.4');
    expect(text).to.match(/Kubernetes\s*│?\s*v1\.35\.4/);
  });

  it('a variant of another version without a run of its settings on the baseline version: the headline names the baseline variant, not "the same settings"', () => {
    // Two recorded runs of different experiments on different versions (found by a new-user try: `compare` of
    // kind-outage-tuned-recorded and reboot-quick said "Δ against the same settings on Kubernetes v1.34.4").
    const run = (name: string, version: string, detection: number) => {
      const r = syntheticResult(name, 0, { detection });
      r.metadata.experiment = name;
      r.spec.cluster.kubernetesVersion = version;
      return { dir: name, result: r, matrixValues: null };
    };
    const c = compareResults([run('outage-tuned', 'v1.34.4', 22), run('reboot-quick', 'v1.34.0', 6)]);
    expect(c.variants[1]!.deltaAgainst).to.equal('outage-tuned');
    const text = renderComparison(c, 'text');
    expect(text).to.not.contain('the same settings');
    expect(text).to.contain('Δ against outage-tuned (no run of the settings of reboot-quick on Kubernetes v1.34.4; row "Δ against")');
    // A version matrix missing one cell: the others keep their peer, the headline says which one has none.
    const partial = compareResults(versionMatrix().filter((r) => r.dir !== 'v1.35.4-30'));
    expect(renderComparison(partial, 'markdown')).to.contain(
      'the same settings on Kubernetes v1.35.4, else upgrade--kubernetesVersion-v1.35.4--tol-300 (no run of the settings of upgrade--kubernetesVersion-v1.37.2--tol-30 on Kubernetes v1.35.4',
    );
  });

  it('with --baseline every delta is against that variant, as for one version', () => {
    const c = compareResults(versionMatrix(), { baseline: 'upgrade--kubernetesVersion-v1.35.4--tol-30' });
    expect(c.byKubernetesVersion).to.equal(false);
    const tuned137 = c.variants.find((v) => v.name === 'upgrade--kubernetesVersion-v1.37.2--tol-300')!;
    expect(tuned137.metrics.eviction.deltaMedianSeconds).to.equal(271); // 321 − 50
  });
});

describe('report/compare: run directories', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rebootlab-compare-'));
    graceMatrix().forEach((r, i) => {
      const dir = join(root, 'matrix', `${r.metadata.variant}-${r.metadata.repeatIndex}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'result.json'), JSON.stringify(r));
      writeFileSync(join(dir, 'run.json'), JSON.stringify({ matrixValues: { 'controllerManager.nodeMonitorGracePeriod': i < 2 ? '20s' : '40s' } }));
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a run named twice (its matrix directory and itself) counts once', () => {
    const c = compareRuns([join(root, 'matrix'), join(root, 'matrix', 'grace-20s-0'), join(root, 'matrix', '..', 'matrix', 'grace-20s-1')]);
    expect(c.variants.map((v) => [v.name, v.runs.length])).to.deep.equal([['grace-20s', 2], ['grace-40s', 2]]);
  });
  it('a matrix directory expands to its run directories, sorted by name, with run.json matrixValues', () => {
    const c = compareRuns([join(root, 'matrix')], { baseline: 'grace-20s' });
    expect(c.variants.map((v) => [v.name, v.runs.length])).to.deep.equal([['grace-20s', 2], ['grace-40s', 2]]);
    expect(c.variants[1].matrixValues).to.deep.equal({ 'controllerManager.nodeMonitorGracePeriod': '40s' });
    expect(c.variants[0].runs[0].dir).to.equal(join(root, 'matrix', 'grace-20s-0'));
  });
  it('a directory that is not a run and holds none is bad input naming it', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(() => compareRuns([empty])).to.throw(`${empty}: not a run directory (no result.json or run.json) and holds none`).with.property('exitCode', 2);
    expect(() => compareRuns([join(root, 'missing')])).to.throw(`${join(root, 'missing')}: not a directory`).with.property('exitCode', 2);
  });
  it('a run directory without result.json says how to rebuild it, or, when report cannot, that the run is incomplete', () => {
    const dir = join(root, 'norun');
    mkdirSync(dir);
    writeFileSync(join(dir, 'run.json'), '{}');
    const incomplete = (why: string) => `the run is incomplete (${why}), so rebootlab report cannot rebuild it: run the experiment again, or leave ${dir} out of the comparison`;
    expect(() => compareRuns([dir])).to.throw(`${dir}: not a run directory: no result.json`).with.property('hint', incomplete('no observations.jsonl'));
    writeFileSync(join(dir, 'observations.jsonl'), '');
    expect(() => compareRuns([dir])).to.throw(`${dir}: not a run directory: no result.json`).with.property('hint', incomplete(`${join(dir, 'run.json')}: not a rebootlab run.json: experiment: missing`));
    cpSync(join(REPO_ROOT, 'test/fixtures/runs/reboot-quick/run.json'), join(dir, 'run.json'));
    expect(() => compareRuns([dir])).to.throw(`${dir}: not a run directory: no result.json`).with.property('hint', `rebuild it with: rebootlab report ${dir}`);
    writeFileSync(join(dir, 'result.json'), '{');
    expect(() => compareRuns([dir])).to.throw(`${join(dir, 'result.json')}: not JSON: `).with.property('hint', `rebuild it with: rebootlab report ${dir}`);
    rmSync(join(dir, 'observations.jsonl'));
    expect(() => compareRuns([dir])).to.throw(`${join(dir, 'result.json')}: not JSON: `).with.property('hint', incomplete('no observations.jsonl'));
  });
  it('renders text, Markdown, JSON and self-contained HTML, each deterministic', () => {
    const c = compareRuns([join(root, 'matrix')], { baseline: 'grace-20s' });
    const text = renderComparison(c, 'text');
    expect(text).to.include('grace-20s (baseline)').and.include('41.000 s (Δ +23.000 s)').and.include('matrix controllerManager.nodeMonitorGracePeriod');
    expect(text).to.not.match(/\u001b\[/); // no ANSI colours
    const md = renderComparison(c, 'markdown');
    expect(md).to.include('| detection (NotReady) | 18.000 s | 41.000 s (Δ +23.000 s) |');
    expect(JSON.parse(renderComparison(c, 'json'))).to.deep.equal(JSON.parse(JSON.stringify(c)));
    const page = renderComparison(c, 'html');
    expect(page).to.match(/^<!doctype html>/).and.include('data-metric="detection"');
    expect(page).to.not.match(/<script|<link|src="http|href="http/);
    for (const f of ['text', 'markdown', 'html', 'json'] as const) expect(renderComparison(c, f)).to.equal(renderComparison(compareRuns([join(root, 'matrix')], { baseline: 'grace-20s' }), f));
  });
  it('Markdown writes variant names from result.json as text: a |, line break, <script> or [link](url) breaks no table and adds no tag or link', () => {
    const hostile = 'g|x\n# h <script>alert(1)</script> [a](http://e.invalid)';
    const results = graceMatrix();
    for (const r of results) r.metadata.variant = r.metadata.variant === 'grace-20s' ? hostile : 'grace-40s';
    const md = renderComparison(compareResults(loaded(results)), 'markdown');
    expect(md).to.not.match(/<script|^# h|(?<!\\)\](?=\(http)/m);
    expect(md).to.include('g\\|x\\\\n# h &lt;script>alert(1)&lt;/script> [a\\](http://e.invalid) (baseline)');
    const lines = md.split('\n');
    const separators = (line: string) => line.replace(/\\./g, '').split('|').length;
    lines.forEach((line, i) => {
      if (!line.startsWith('|')) return;
      let header = i;
      while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
      expect(separators(line), line).to.equal(separators(lines[header]!));
    });
  });
  it('an unknown format is bad input', () => {
    const c = compareRuns([join(root, 'matrix')]);
    expect(() => renderComparison(c, 'csv' as never)).to.throw('unknown compare format "csv"; known: text, markdown, html, json').with.property('exitCode', 2);
  });
});

describe('report/compare: the grace-matrix run recorded on kind (reports/examples/grace-matrix-kind)', () => {
  // Unavailability counts from the fault for clients (both replicas sat on the stopped node), so it moves with the
  // grace period; only the API-visible figure (from NotReady) stays put.
  it('detection, eviction, replacement and client unavailability move by about the 20 s grace difference; the API-visible unavailability does not', () => {
    const dir = join(REPO_ROOT, 'reports/examples/grace-matrix-kind');
    const c = compareRuns([dir]);
    expect(c.variants.map((v) => [v.name, v.passed])).to.deep.equal([['grace-matrix--nodeMonitorGracePeriod-20s', 2], ['grace-matrix--nodeMonitorGracePeriod-40s', 2]]);
    const v40 = c.variants[1].metrics;
    for (const id of ['detection', 'eviction', 'replacementReady', 'unavailable:web']) expect(v40[id].deltaMedianSeconds, id).to.be.within(15, 30);
    const api = (grace: string) =>
      [0, 1].map((r) => (JSON.parse(readFileSync(join(dir, `grace-matrix--nodeMonitorGracePeriod-${grace}-r${r}`, 'result.json'), 'utf8')) as Result).workloads[0].apiUnavailableSeconds);
    for (const [a, b] of [[api('20s')[0], api('40s')[0]], [api('20s')[1], api('40s')[1]]]) expect(Math.abs(b - a)).to.be.below(5);
  });

  it('sums the predictions over repeats per variant and overall, and lists every miss with its run', () => {
    const dir = join(REPO_ROOT, 'reports/examples/grace-matrix-kind');
    const results = readdirSync(dir).filter((d) => d.startsWith('grace-matrix--')).sort()
      .map((d) => ({ d, r: JSON.parse(readFileSync(join(dir, d, 'result.json'), 'utf8')) as Result }));
    const held = results.reduce((n, { r }) => n + r.predictions.heldCount, 0);
    const predicted = results.reduce((n, { r }) => n + r.predictions.predictedCount, 0);
    expect(predicted).to.be.above(0);
    const c = compareRuns([dir]);
    expect(c.predictions).to.deep.include({ held, predicted, missed: [] });
    expect(c.variants.map((v) => v.predictions.predicted).reduce((a, b) => a + b)).to.equal(predicted);
    // Recorded before explained items and forecasts existed: all predicted from their causes, no forecast.
    expect(renderComparison(c, 'text')).to.include(`Predictions held: ${held} of ${predicted} over 4 run(s) (predicted from their causes: ${held} of ${predicted}; explained by reading the run: 0 of 0); missed: 0.`);
    expect(renderComparison(c, 'text')).to.include('Forecasts: none (no run froze one).');
    // One run whose eviction came late: a miss in that variant's row and listed with its run directory.
    const late = results[0]!.r;
    const item = late.predictions.items.find((i) => i.event === 'pod-eviction' && i.window !== null)!;
    const miss = { ...item, observedSeconds: item.window!.toSeconds + 5, held: false };
    late.predictions = { ...late.predictions, heldCount: late.predictions.heldCount - 1, missed: [miss] };
    const tampered = compareResults(results.map(({ d, r }) => ({ dir: d, result: r, matrixValues: null })));
    expect(tampered.predictions.held).to.equal(held - 1);
    expect(tampered.variants[0]!.predictions.missed).to.have.length(1);
    expect(tampered.variants[1]!.predictions.missed).to.deep.equal([]);
    expect(renderComparison(tampered, 'markdown')).to.include(`- missed: pod-eviction ${item.pod} at ${miss.observedSeconds} s, window [${item.window!.fromSeconds}, ${item.window!.toSeconds}] s (${results[0]!.d})`);
  });
});

describe('report/compare: forecasts and explained items totalled apart from the causal chain (recorded fixture runs)', () => {
  it('the kwok large-zone and outage-tuned runs: 9 explained of the causal items, every forecast item judged held, each total its own line', () => {
    const fixtures = ['kwok-eviction-rate-large-zone-recorded', 'kind-outage-tuned-recorded'].map((d) => join(REPO_ROOT, 'test/fixtures/runs', d));
    const results = fixtures.map((dir) => JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as Result);
    const c = compareResults(results.map((result, i) => ({ dir: fixtures[i]!, result, matrixValues: null })));
    expect([c.predictions.explained, c.predictions.explainedHeld]).to.deep.equal([9, 9]);
    const judged = results.reduce((n, r) => n + r.forecast!.judgedCount, 0);
    expect(c.predictions.forecast).to.deep.include({ runs: 2, judged, held: judged, missed: [] });
    const text = renderComparison(c, 'text');
    expect(text).to.match(/explained by reading the run: 9 of 9\)/);
    expect(text).to.include(`Forecasts held: ${judged} of ${judged} judged`);
  });
});
