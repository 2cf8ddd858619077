// Marks a script writes (`lab.mark`) reach the analysis with their time since the fault; a journal without
// them (every YAML run) has no `marks` at all, so recorded results stay byte-identical.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/index.js';
import type { Observation, PhaseObservation } from '../../../lib/observe/index.js';
import { loadFixtureRun } from './fixture-runs.js';

describe('analyze: script marks', function () {
  const run = loadFixtureRun('kind-reboot-quick-recorded');
  // Time zero: the start of the fault command (the fault-injecting marker).
  const fault = run.observations.find((o): o is PhaseObservation => o.type === 'phase' && o.phase === 'fault-injecting')!;
  const lastSeq = run.observations.reduce((max, o) => Math.max(max, o.seq), 0);

  it('has no marks for a YAML run', function () {
    expect(run.analysis).to.not.have.property('marks');
  });

  it('lists phase records with detail.mark, timed from time zero, without the mark flag', function () {
    const mark: PhaseObservation = {
      type: 'phase', seq: lastSeq + 1, receivedAtMs: fault.receivedAtMs + 12_345, phase: 'node-recovered',
      nodes: ['rebootlab-worker'], detail: { mark: true, recoverySeconds: 5.4 },
    };
    const runner: PhaseObservation = { type: 'phase', seq: lastSeq + 2, receivedAtMs: fault.receivedAtMs + 13_000, phase: 'settled' };
    const observations: Observation[] = [...run.observations, mark, runner];
    const analysis = analyze(observations, { settings: run.info.settings, workloads: run.info.workloads });
    expect(analysis.marks).to.deep.equal([{ name: 'node-recovered', afterSeconds: 12.345, nodes: ['rebootlab-worker'], detail: { recoverySeconds: 5.4 } }]);
  });
});
