// The host's load journaled by a run (`host-load` markers, lib/observe/host-load.ts) and what the analysis says of it
// (lib/analyze/host-load.ts): among the forecast's conditions, and one warning when the host was overloaded while the
// run observed. The journals are recorded runs with markers added, shaped as lib/run/run-variant.ts writes them.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { forecast, preFaultStateOfJournal } from '../../../lib/analyze/forecast/index.js';
import { hostLoadCondition, hostLoadOf, hostLoadWarning, HOST_OVERLOADED_LOAD_PER_CPU } from '../../../lib/analyze/host-load.js';
import { HOST_LOAD_PHASE, sampleHostLoad } from '../../../lib/observe/host-load.js';
import type { Observation, PhaseObservation } from '../../../lib/observe/types.js';
import { analyzeOptionsOf } from '../../../lib/report/write-reports.js';
import { loadFixtureRun } from './fixture-runs.js';
import { mergeJournal, timeZeroMarker } from './edited-journals.js';

/** A `host-load` marker at `atMs` (client time) with a 1-minute load average `one` on `cpus` CPUs. */
const marker = (atMs: number, one: number, cpus = 2): PhaseObservation => ({
  seq: -1, type: 'phase', receivedAtMs: atMs, phase: HOST_LOAD_PHASE, detail: { loadAverage1m: one, loadAverage5m: one, cpus },
});

describe('host load (lib/analyze/host-load.ts)', function () {
  const run = loadFixtureRun('kind-outage-tuned-recorded');
  const zeroMs = timeZeroMarker(run.observations).receivedAtMs;
  const withMarkers = (...markers: PhaseObservation[]): Observation[] => mergeJournal(run.observations, markers);

  it('reads the sample a run journals, and refuses a marker whose detail is not a load reading', function () {
    const sample = sampleHostLoad();
    expect(sample.cpus).to.be.at.least(1);
    expect(hostLoadOf({ ...marker(zeroMs, 0), detail: { ...sample } })).to.include({ cpus: sample.cpus, loadAverage1m: sample.loadAverage1m, atMs: zeroMs });
    expect(hostLoadOf({ ...marker(zeroMs, 0), detail: { loadAverage1m: 'high', loadAverage5m: 1, cpus: 2 } })).to.equal(null);
    expect(hostLoadOf({ ...marker(zeroMs, 0), detail: { loadAverage1m: 1, loadAverage5m: 1, cpus: 0 } })).to.equal(null);
    expect(hostLoadOf({ ...marker(zeroMs, 0), phase: 'settled' })).to.equal(null);
  });

  it(`says the host is overloaded from ${HOST_OVERLOADED_LOAD_PER_CPU} per CPU, not below`, function () {
    expect(hostLoadCondition({ loadAverage1m: 0.84, loadAverage5m: 1, cpus: 2, atMs: 0 })).to.equal('the host running the nodes at load average 0.84 over 1 min on 2 CPUs (0.42 per CPU)');
    expect(hostLoadCondition({ loadAverage1m: 3.98, loadAverage5m: 1, cpus: 2, atMs: 0 })).not.to.include('overloaded');
    expect(hostLoadCondition({ loadAverage1m: 4, loadAverage5m: 1, cpus: 2, atMs: 0 })).to.include('overloaded').and.include('may be too short');
  });

  it('names the reading before the fault among the conditions of the forecast recomputed from the journal', function () {
    const preFault = preFaultStateOfJournal(withMarkers(marker(zeroMs - 200, 11.7)), run.info.workloads);
    expect(preFault?.host).to.include({ loadAverage1m: 11.7, cpus: 2 });
    const f = forecast({ experiment: run.info.resolved!, settings: run.info.settings, kubernetesVersion: run.info.cluster.kubernetesVersion ?? 'v1.34.4', preFault: preFault! });
    expect(f.conditions.filter((c) => c.startsWith('the host running the nodes'))).to.deep.equal([hostLoadCondition({ loadAverage1m: 11.7, loadAverage5m: 11.7, cpus: 2, atMs: 0 })]);
    // The recorded journal has no marker: no condition is made up.
    const plain = preFaultStateOfJournal(run.observations, run.info.workloads)!;
    expect(forecast({ experiment: run.info.resolved!, settings: run.info.settings, kubernetesVersion: 'v1.34.4', preFault: plain }).conditions.join(' ')).not.to.include('the host running the nodes');
  });

  it('warns once, naming the highest reading and when, when the host was overloaded after the forecast', function () {
    const observations = withMarkers(marker(zeroMs - 200, 1.1), marker(zeroMs + 15_000, 6.2), marker(zeroMs + 30_000, 11.7), marker(zeroMs + 45_000, 9));
    const warnings = analyze(observations, analyzeOptionsOf(run.info)).warnings.filter((w) => w.includes('overloaded'));
    expect(warnings).to.deep.equal([
      'the host running the nodes was overloaded during the run: load average up to 11.7 over 1 min on 2 CPUs (5.85 per CPU, at 30.0 s); Kubernetes\' timers keep their time, but the windows measured from runs (a restarted kubelet\'s Ready, a pod\'s start-up, a docker command\'s return) may be too short, so a miss among them may be the host\'s, not Kubernetes\'',
    ]);
  });

  it('stays silent for a host below the line, and for an overload before the forecast', function () {
    const toSeconds = (ms: number) => (ms - zeroMs) / 1000;
    expect(hostLoadWarning(withMarkers(marker(zeroMs + 15_000, 3.9), marker(zeroMs + 30_000, 1)), zeroMs - 500, toSeconds)).to.equal(null);
    expect(hostLoadWarning(withMarkers(marker(zeroMs - 60_000, 12), marker(zeroMs + 15_000, 1)), zeroMs - 500, toSeconds)).to.equal(null);
    expect(analyze(run.observations, analyzeOptionsOf(run.info)).warnings.join(' ')).not.to.include('overloaded');
  });
});
