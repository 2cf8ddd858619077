// result.json and run.json read from a run directory are checked against the generated schemas for what rebootlab
// reads: every file rebootlab wrote passes (older results without later fields too), a wrong one is one line.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { checkResultShape, checkRunInfoShape } from '../../../lib/report/result-shape.js';
import { baselineDifferences } from '../../../lib/report/baseline.js';
import type { Result } from '../../../lib/report/result-types.js';

const tracked = (pattern: string): string[] => execFileSync('git', ['ls-files', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean);

describe('report/result-shape', () => {
  it('accepts every result.json and run.json in the repository (fixtures and the dated examples without `events`)', () => {
    const results = tracked('*result.json');
    const infos = tracked('*run.json');
    expect(results.length).to.be.above(20);
    for (const f of results) checkResultShape(JSON.parse(readFileSync(f, 'utf8')), f);
    for (const f of infos) checkRunInfoShape(JSON.parse(readFileSync(f, 'utf8')), f);
  });

  it('names the file and the first wrong field', () => {
    const good = JSON.parse(readFileSync('test/fixtures/runs/reboot-quick/result.json', 'utf8')) as Record<string, unknown>;
    const cases: [unknown, string][] = [
      [null, 'r.json: not a rebootlab result: null, not a JSON object'],
      [{ kind: 'Comparison' }, 'r.json: not a rebootlab result: kind is "Comparison", not "Result"'],
      [{ kind: 'Result' }, 'r.json: not a rebootlab result: apiVersion: missing'],
      [{ ...good, status: 'fine' }, 'r.json: not a rebootlab result: status: must be one of "passed", "failed", "interrupted"'],
      [{ ...good, pods: {} }, 'r.json: not a rebootlab result: pods: must be array, got an object'],
      [{ ...good, spec: { ...(good.spec as object), fault: { type: 'reboot' } } }, 'r.json: not a rebootlab result: spec.fault.durationSeconds: missing'],
    ];
    for (const [value, message] of cases) expect(() => checkResultShape(value, 'r.json')).to.throw(message).with.property('exitCode', 2);
    expect(() => checkRunInfoShape({ experiment: 'x' }, 'run.json')).to.throw('run.json: not a rebootlab run.json: variant: missing');
  });

  it('baselineDifferences: the experiment, the fault type and the variants that differ', () => {
    const result = (experiment: string, type: string, variant: string | null) => ({ metadata: { experiment, variant }, spec: { fault: { type } } }) as unknown as Result;
    expect(baselineDifferences(result('a', 'reboot', null), { experiment: 'a', faultType: 'reboot', variants: [null, null] })).to.deep.equal([]);
    expect(baselineDifferences(result('a', 'reboot', null), { experiment: 'b', faultType: 'power-off', variants: [null] })).to.deep.equal(['experiment "a", not "b"', 'fault reboot, not power-off']);
    expect(baselineDifferences(result('a', 'reboot', 'a--x-1'), { experiment: 'a', faultType: 'reboot', variants: ['a--x-1', 'a--x-2', 'a--x-3', 'a--x-4', 'a--x-5'] }))
      .to.deep.equal(['variant "a--x-1", not "a--x-2", "a--x-3", "a--x-4" and 1 more']);
  });
});
