// Tests for the expectation language: parsing (lib/spec/expectation.ts) and evaluation (lib/analyze/expect.ts).
import { expect } from 'chai';
import { aggregate, evaluateExpectations } from '../../../lib/analyze/expect.js';
import { analyze } from '../../../lib/analyze/analyze.js';
import { parseExpectation, type Expectation } from '../../../lib/spec/expectation.js';
import { loadFixtureRun } from './fixture-runs.js';

const parsed = (text: string): Expectation => {
  const r = parseExpectation(text);
  if (!r.ok) throw new Error(r.message);
  return r.expectation;
};

describe('spec/expectation parseExpectation', () => {
  it('pods[workload=web].outcome == restarted-in-place', () => {
    expect(parsed('pods[workload=web].outcome == restarted-in-place')).to.deep.include({
      subject: { scope: 'pods', selector: { workload: 'web' }, field: 'outcome' },
      comparison: { op: '==', value: 'restarted-in-place' },
      aggregate: null,
    });
  });
  it('node.notReadyAfterSeconds in [15, 25] targets the fault node', () => {
    expect(parsed('node.notReadyAfterSeconds in [15, 25]')).to.deep.include({
      subject: { scope: 'node', name: null, field: 'notReadyAfterSeconds' },
      comparison: { op: 'in', from: 15, to: 25 },
    });
  });
  it('nodes[name=kind-worker2].readyAtEnd == true', () => {
    expect(parsed('nodes[name=kind-worker2].readyAtEnd == true').subject).to.deep.equal({ scope: 'node', name: 'kind-worker2', field: 'readyAtEnd' });
  });
  it('workloads.web.unavailableSeconds < 60 and <= >= > !=', () => {
    for (const op of ['<', '<=', '>', '>=', '!=', '==']) {
      expect(parsed(`workloads.web.unavailableSeconds ${op} 60`).comparison).to.deep.equal({ op, value: 60 });
    }
  });
  it('p95(workloads.web.unavailableSeconds) < 70 parses as a 95th percentile', () => {
    expect(parsed('p95(workloads.web.unavailableSeconds) < 70').aggregate).to.deep.equal({ fn: 'percentile', percentile: 95 });
  });
  it('pods[workload=web,node=kind-worker] combines selector keys', () => {
    expect(parsed('pods[workload=web, node=kind-worker].restartCountDelta == 1').subject).to.deep.include({ selector: { workload: 'web', node: 'kind-worker' } });
  });

  const BAD: [string, RegExp][] = [
    ['pods[workload=web].outcom == unaffected', /unknown field "outcom"; allowed: outcome, restartCountBefore/],
    ['pods[app=web].outcome == unaffected', /unknown key "app"; allowed: workload, name, namespace, node/],
    ['pods[workload=web].outcome == rebooted', /unknown outcome "rebooted"; allowed: restarted-in-place/],
    ['node.notReadyAfter in [15, 25]', /node: unknown field "notReadyAfter"; allowed: notReadyAfterSeconds/],
    ['node.notReadyAfterSeconds in [25, 15]', /range \[25, 15\] is empty/],
    ['node.notReadyAfterSeconds in 15..25', /"in" needs a range \[from, to\]/],
    ['workloads.web.unavailableSeconds < soon', /is a number/],
    ['cluster.nodes == 3', /unknown subject "cluster"/],
    ['p100(workloads.web.unavailableSeconds) < 1', /percentile must be between 0 and 100/],
    ['avg(workloads.web.unavailableSeconds) < 1', /unknown aggregate "avg"/],
    ['p95(pods[workload=web].outcome) == unaffected', /needs a number field/],
    ['node.notReadyAfterSeconds', /cannot parse/],
  ];
  for (const [text, message] of BAD) {
    it(`rejects "${text}" with one line: ${message.source}`, () => {
      const r = parseExpectation(text);
      expect(r.ok).to.equal(false);
      if (!r.ok) {
        expect(r.message).to.match(message);
        expect(r.message).to.not.include('\n');
      }
    });
  }
});

describe('analyze/expect evaluateExpectations (power-off-past-toleration run)', () => {
  const { analysis } = loadFixtureRun('power-off-past-toleration');
  const evaluate = (text: string) => evaluateExpectations(analysis, [parsed(text)])[0];

  // Time zero is the fault command's start, 0.3 s before it returned in this journal: 22 s from the return is 22.3 s.
  it('passes node.notReadyAfterSeconds in [15, 25] with actual 22.3', () => {
    expect(evaluate('node.notReadyAfterSeconds in [15, 25]')).to.deep.include({ passed: true, actual: 22.3 });
  });
  it('pods[...] needs every selected pod to match: web has one evicted and one unaffected pod', () => {
    const r = evaluate('pods[workload=web].outcome == evicted-replaced');
    expect(r.passed).to.equal(false);
    expect(r.message).to.equal('web-5d8b7c9f4-bbbbb: unaffected (not == evicted-replaced)');
  });
  it('== null asserts "did not happen": the node never became Ready again', () => {
    expect(evaluate('node.readyAgainAfterSeconds == null').passed).to.equal(true);
  });
  it('a number comparison against null (never happened) fails', () => {
    expect(evaluate('workloads.db.recoveredAfterSeconds <= 90')).to.deep.include({ passed: false, actual: null });
  });
  it('a selector that matches nothing fails with a message', () => {
    expect(evaluate('pods[workload=nope].outcome == unaffected')).to.deep.include({ passed: false, message: 'no pod matches the selector' });
  });
  it('max(...) over the pods of a workload aggregates within the run', () => {
    expect(evaluate('max(pods[workload=web].evictedAfterSeconds) < 60')).to.deep.include({ passed: true, actual: 53.001 });
  });
  it('nearest-rank percentile: p95 of 1..20 is 19', () => {
    expect(aggregate(Array.from({ length: 20 }, (_, i) => i + 1), { fn: 'percentile', percentile: 95 })).to.equal(19);
  });
});

describe('expectation grammar: target selectors, count(), phaseWhenNotReady (kind-outage-tuned-recorded run)', () => {
  const { analysis } = loadFixtureRun('kind-outage-tuned-recorded');
  const evaluate = (text: string) => evaluateExpectations(analysis, [parsed(text)])[0];

  it('parses pods[target=true,...] and nodes[target=true]', () => {
    expect(parsed('pods[target=true,workload=web].outcome == evicted-replaced').subject).to.deep.equal({ scope: 'pods', selector: { target: 'true', workload: 'web' }, field: 'outcome' });
    expect(parsed('nodes[target=false].readyAtEnd == true').subject).to.deep.equal({ scope: 'node', name: null, target: false, field: 'readyAtEnd' });
    expect(parsed('count(nodes[target=true].noExecuteTaintAfterSeconds) <= 1').aggregate).to.deep.equal({ fn: 'count' });
  });
  it('pods[target=true] selects the pods that ran on the powered-off worker, target=false the others', () => {
    const onTarget = evaluate('pods[target=true,workload=web].evictedAfterSeconds in [45, 55]');
    expect(onTarget.passed).to.equal(true);
    expect(onTarget.actual).to.deep.equal([52.318, 52.312]); // 2.608 s (docker stop) later than from the command's return
    expect(evaluate('pods[target=false,workload=web].outcome == unaffected')).to.deep.include({ passed: false, message: 'no pod matches the selector' });
  });
  it('nodes[target=false] covers every other node: still Ready at the end, never tainted', () => {
    expect(evaluate('nodes[target=false].readyAtEnd == true').passed).to.equal(true);
    expect(evaluate('count(nodes[target=false].noExecuteTaintAfterSeconds) == 0')).to.deep.include({ passed: true, actual: 0 });
  });
  it('count() counts the selected values that happened (not null, not false)', () => {
    const r = evaluate('count(nodes[target=true].noExecuteTaintAfterSeconds) <= 1');
    expect(r).to.deep.include({ passed: true, actual: 1 });
    expect(r.message).to.equal('1 of 1 (rebootlab-worker) is <= 1');
    expect(evaluate('count(pods[workload=web].evictedAfterSeconds) == 2').passed).to.equal(true);
    expect(evaluate('count(pods[target=true].readyAtEnd) in [0, 0]').passed).to.equal(false);
  });
  it('phaseWhenNotReady: pods on an unreachable node are marked Ready=False while their phase stays Running', () => {
    expect(evaluate('pods[workload=web].phaseWhenNotReady == Running').passed).to.equal(true);
  });
  it('rejects a target value other than true/false and count() compared with a non-number', () => {
    for (const [text, message] of [
      ['pods[target=yes].outcome == unaffected', 'pods[...]: target is true or false, got "yes"'],
      ['nodes[zone=a].readyAtEnd == true', 'nodes[...]: unknown key "zone"; allowed: name, target'],
      ['count(pods[workload=web].outcome) == evicted-replaced', 'count(pods[workload=web].outcome) is a number; got evicted-replaced'],
    ]) {
      const r = parseExpectation(text);
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.message).to.equal(message);
    }
  });
});

describe('workloads.<name>.dataProbe (kind-reboot-quick-recorded run)', () => {
  const { analysis } = loadFixtureRun('kind-reboot-quick-recorded');
  it('a local PersistentVolume keeps its marker across a reboot; a workload without a probe has none', () => {
    const [db, web] = evaluateExpectations(analysis, [parsed('workloads.db.dataProbe == kept'), parsed('workloads.web.dataProbe == null')]);
    expect(db).to.deep.include({ passed: true, actual: 'kept' });
    expect(web.passed).to.equal(true);
  });
});

describe('count(predictions.<list>) (kind-outage-tuned-recorded run and an edited copy with a miss)', () => {
  it('parses count(predictions.missed) and rejects unknown prediction fields and uncounted lists with one line', () => {
    expect(parsed('count(predictions.missed) == 0').subject).to.deep.equal({ scope: 'predictions', field: 'missed' });
    for (const [text, message] of [
      ['count(predictions.misses) == 0', 'predictions: unknown field "misses"; allowed: missed, held, open, notModelled, items (inside count(), e.g. count(predictions.missed) == 0)'],
      ['predictions.missed == 0', 'predictions.missed is a list of predictions; count it, e.g. count(predictions.missed) == 0'],
    ]) {
      const r = parseExpectation(text);
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.message).to.equal(message);
    }
  });

  it('counts the missed, held and not-modelled items of a run', () => {
    const run = loadFixtureRun('kind-outage-tuned-recorded');
    const [missed, held] = evaluateExpectations(run.analysis, [parsed('count(predictions.missed) == 0'), parsed('count(predictions.held) >= 10')]);
    expect(missed).to.deep.include({ passed: true, actual: 0 });
    expect(held.passed, held.message).to.equal(true);
    // The same journal with the eviction moved 10 s later than its window: one miss, named in the message.
    const moved = run.observations.map((o) => (o.type === 'object' && o.kind === 'Pod' && o.name === 'solo' && o.receivedAtMs > run.analysis.faultInjectedAtMs + 50_000 ? { ...o, receivedAtMs: o.receivedAtMs + 10_000 } : o));
    const edited = analyze(moved, { settings: run.info.settings, workloads: run.info.workloads });
    const [r] = evaluateExpectations(edited, [parsed('count(predictions.missed) == 0')]);
    expect(r.passed).to.equal(false);
    expect(r.message).to.include('pod-eviction (node.kubernetes.io/unreachable) of rebootlab/solo');
  });
});

describe('analyze() owns the verdicts (power-off-past-toleration run)', () => {
  const run = loadFixtureRun('power-off-past-toleration');
  const options = { settings: run.info.settings, workloads: run.info.workloads };

  it('evaluates expect: texts in order, with the expected side and, for instants, the accepted interval', () => {
    const a = analyze(run.observations, { ...options, expectations: ['node.notReadyAfterSeconds in [15, 30]', 'pods[name=web-5d8b7c9f4-aaaaa].evictedAfterSeconds < 90', ' count(pods[workload=web].evictedAfterSeconds) >= 1', 'workloads.web.unavailableSeconds < 600', 'pods[name=web-5d8b7c9f4-aaaaa].evictedAfterSeconds != null'] });
    expect(a.expectations.map((e) => [e.text, e.expected, e.acceptedSeconds])).to.deep.equal([
      ['node.notReadyAfterSeconds in [15, 30]', 'in [15, 30]', { fromSeconds: 15, toSeconds: 30 }],
      ['pods[name=web-5d8b7c9f4-aaaaa].evictedAfterSeconds < 90', '< 90', { fromSeconds: null, toSeconds: 90 }],
      // A count of instants is a count: no interval on the time axis.
      ['count(pods[workload=web].evictedAfterSeconds) >= 1', '>= 1', null],
      // A span in seconds is no instant.
      ['workloads.web.unavailableSeconds < 600', '< 600', null],
      ['pods[name=web-5d8b7c9f4-aaaaa].evictedAfterSeconds != null', '!= null', { fromSeconds: null, toSeconds: null }],
    ]);
    expect(a.status).to.equal('passed');
  });

  it('status: failed when one expectation fails or does not parse (its message kept), interrupted when told or the journal was cut', () => {
    const failed = analyze(run.observations, { ...options, expectations: ['node.notReadyAfterSeconds < 1', 'node.bogus == 1'] });
    expect(failed.status).to.equal('failed');
    expect(failed.expectations[1]).to.deep.equal({
      text: 'node.bogus == 1', passed: false, actual: null, expected: 'node.bogus == 1', acceptedSeconds: null,
      message: failed.expectations[1]!.message,
    });
    expect(failed.expectations[1]!.message).to.match(/^node: unknown field "bogus"; allowed: notReadyAfterSeconds/);
    expect(analyze(run.observations, { ...options, expectations: [], interrupted: true }).status).to.equal('interrupted');
    // A killed run's journal has no run-finished marker: whatever it shows stopped early.
    const cut = run.observations.filter((o) => !(o.type === 'phase' && o.phase === 'run-finished'));
    expect(cut.length).to.equal(run.observations.length - 1);
    expect(analyze(cut, options).status).to.equal('interrupted');
    expect(analyze(run.observations, options)).to.deep.include({ status: 'passed', expectations: [] });
  });

  it('a field is an own field of its scope: Object.prototype names are unknown fields, one line', () => {
    for (const text of ['node.toString == 1', 'workloads.web.constructor == 1', 'pods[workload=web].__proto__ == 1']) {
      const r = parseExpectation(text);
      expect(r.ok, text).to.equal(false);
      if (!r.ok) expect(r.message).to.match(/unknown field "(toString|constructor|__proto__)"/);
    }
  });
});
