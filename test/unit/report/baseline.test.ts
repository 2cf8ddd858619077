// Tests for lib/report/baseline.ts: regressions beyond a tolerance in seconds or percent, and what is not a regression.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBaseline, readBaseline } from '../../../lib/report/baseline.js';
import { syntheticResult } from './synthetic-results.js';

const baseline = syntheticResult('tuned', 0, { detection: 20, eviction: 50, replacementReady: 55, unavailableWeb: 33 });

describe('report/baseline: checkBaseline', () => {
  it('no regression when every metric is within the tolerance', () => {
    const current = [syntheticResult('tuned', 0, { detection: 21, eviction: 51.9, replacementReady: 56, unavailableWeb: 34 })];
    expect(checkBaseline(current, baseline, { tolerancePercent: 0, toleranceSeconds: 2 })).to.deep.equal([]);
  });
  it('the larger of the two allowances applies; a slower median beyond it is reported with baseline, current and allowed seconds', () => {
    // replacementReady 55 s: 10 % = 5.5 s > 2 s → allowed 60.5 s; unavailable web 33 s: 10 % = 3.3 s → allowed 36.3 s.
    const current = [
      syntheticResult('tuned', 0, { detection: 20, eviction: 50, replacementReady: 61, unavailableWeb: 36 }),
      syntheticResult('tuned', 1, { detection: 20, eviction: 50, replacementReady: 64, unavailableWeb: 40 }),
      syntheticResult('tuned', 2, { detection: 20, eviction: 50, replacementReady: 62, unavailableWeb: 37 }),
    ];
    const regressions = checkBaseline(current, baseline, { tolerancePercent: 10, toleranceSeconds: 2 });
    expect(regressions.map(({ metric, baselineSeconds, currentSeconds, allowedSeconds }) => ({ metric, baselineSeconds, currentSeconds, allowedSeconds }))).to.deep.equal([
      { metric: 'replacementReady', baselineSeconds: 55, currentSeconds: 62, allowedSeconds: 60.5 },
      { metric: 'unavailable:web', baselineSeconds: 33, currentSeconds: 37, allowedSeconds: 36.3 },
    ]);
    expect(regressions[0].message).to.equal('replacement Ready: 62.000 s, baseline 55.000 s, allowed up to 60.500 s (+7.000 s)');
  });
  it('faster is never a regression', () => {
    const current = [syntheticResult('tuned', 0, { detection: 5, eviction: 10, replacementReady: 12, unavailableWeb: 1 })];
    expect(checkBaseline(current, baseline, { tolerancePercent: 0, toleranceSeconds: 0 })).to.deep.equal([]);
  });
  it('a replacement that never became Ready now is a regression; a detection that did not happen is not', () => {
    const current = [syntheticResult('tuned', 0, { detection: null, eviction: null, replacementReady: null, unavailableWeb: 33 })];
    const regressions = checkBaseline(current, baseline, { tolerancePercent: 10, toleranceSeconds: 0 });
    expect(regressions).to.have.length(1);
    expect(regressions[0]).to.include({ metric: 'replacementReady', currentSeconds: null, message: 'replacement Ready: 55.000 s in the baseline, did not happen now' });
  });
  it('bad tolerances and an empty current list are bad input (exit code 2)', () => {
    expect(() => checkBaseline([baseline], baseline, { tolerancePercent: -1, toleranceSeconds: 0 })).to.throw('baseline tolerancePercent: must be a number ≥ 0, got -1').with.property('exitCode', 2);
    expect(() => checkBaseline([], baseline, { tolerancePercent: 0, toleranceSeconds: 0 })).to.throw('needs at least one current result').with.property('exitCode', 2);
  });
  it('a baseline metric edited to -1e308 s (the allowance turned NaN and the gate passed everything) is bad input', () => {
    const edited = syntheticResult('tuned', 0, { detection: 20, eviction: 50, replacementReady: 55, unavailableWeb: -1e308 });
    const current = [syntheticResult('tuned', 0, { detection: 21, eviction: 51, replacementReady: 56, unavailableWeb: 900 })];
    expect(() => checkBaseline(current, edited, { tolerancePercent: 10, toleranceSeconds: 5 }))
      .to.throw('-1e+308 s is not a time a run observes').with.property('exitCode', 2);
    // A real slowdown against a sane baseline still fails the gate.
    expect(checkBaseline(current, baseline, { tolerancePercent: 10, toleranceSeconds: 5 }).map((r) => r.metric)).to.include('unavailable:web');
  });
  it('readBaseline names a file that is not a result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-baseline-'));
    const path = join(dir, 'result.json');
    writeFileSync(path, '{"kind":"Experiment"}');
    try {
      expect(() => readBaseline(path)).to.throw(`--baseline ${path}: not a rebootlab result: kind is "Experiment", not "Result"`).with.property('exitCode', 2);
      expect(() => readBaseline(join(dir, 'missing.json'))).to.throw(`--baseline ${join(dir, 'missing.json')}: cannot read`).with.property('exitCode', 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
