// A scripted experiment's forecast: made at its first fault from the records before it, judged as the run stood when
// the script's next action began. Checked on the recorded controller-manager-restart journal (kind v1.34.4, recorded
// before scripts had forecasts): the forecast and its horizon mark are put where a run now writes them.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { FORECAST_HORIZON_PHASE, judgeForecast, PreFaultRecorder } from '../../../lib/analyze/forecast/index.js';
import type { Observation } from '../../../lib/observe/types.js';
import { analyzeOptionsOf } from '../../../lib/report/write-reports.js';
import { resolveScriptExperiment, scriptForecast, type ScriptExperiment } from '../../../lib/script/index.js';
import { loadFixtureRun } from '../analyze/fixture-runs.js';

/**
 * The workloads of experiments/controller-manager-restart.ts; its cluster settings are those the run read back
 * (run.json `settings`), which the forecast takes.
 */
const SPEC: ScriptExperiment = { name: 'controller-manager-restart', workloads: [{ name: 'web', kind: 'Deployment', replicas: 2, placement: 'target' }] };

describe('script: the forecast of a script\'s first fault (controller-manager-restart, kind v1.34.4, recorded)', () => {
  const run = loadFixtureRun('kind-controller-manager-restart-recorded');
  const zero = run.observations.find((o) => o.type === 'phase' && o.phase === 'fault-injecting')!;
  const restart = run.observations.find((o) => o.type === 'phase' && o.phase === 'kube-controller-manager-stopped')!;
  const resolved = resolveScriptExperiment(SPEC, 'experiments/controller-manager-restart.ts');
  const recorder = new PreFaultRecorder(run.info.workloads);
  for (const o of run.observations) if (o.seq < zero.seq) recorder.add(o);
  const made = scriptForecast(resolved, run.info.settings, run.info.cluster.kubernetesVersion!, recorder, { type: 'power-off', node: 'rebootlab-scripts-worker', durationMs: null, scope: 'node' }, zero.receivedAtMs);
  // Where a run writes them: the forecast just before the fault command, the horizon just before lab.restartControlPlane.
  const observations: Observation[] = [
    ...run.observations.filter((o) => o.seq < zero.seq),
    { seq: zero.seq - 0.5, type: 'forecast', receivedAtMs: zero.receivedAtMs - 2, forecast: made as unknown as Record<string, unknown> },
    ...run.observations.filter((o) => o.seq >= zero.seq && o.seq < restart.seq),
    { seq: restart.seq - 0.5, type: 'phase', phase: FORECAST_HORIZON_PHASE, nodes: [], detail: { action: 'lab.restartControlPlane(kube-controller-manager)' }, receivedAtMs: restart.receivedAtMs - 1 },
    ...run.observations.filter((o) => o.seq >= restart.seq),
  ];
  const judged = analyze(observations, analyzeOptionsOf(run.info)).forecast!;
  const of = (event: string) => judged.items.filter((i) => i.event === event && (i.pod === null || i.pod.startsWith('rebootlab/')));

  it('is made for that fault on that node alone, and says what it does not know', () => {
    expect(made.horizon).to.equal('next-script-action');
    expect(made.targets).to.deep.equal(['rebootlab-scripts-worker']);
    expect(made.notForecast.at(-1)).to.match(/^what the script does after its first fault \(power-off on rebootlab-scripts-worker, restored when the script says\)/);
  });

  it('is judged as the run stood when the controller-manager restart began (35.8 s): detection and taints held, no miss', () => {
    expect(judged.frozen).to.equal('journal');
    expect(judged.judgedUntil).to.deep.equal({ afterSeconds: Math.round(restart.receivedAtMs - 1 - zero.receivedAtMs) / 1000, action: 'lab.restartControlPlane(kube-controller-manager)' });
    expect(judged.judgedUntil!.afterSeconds).to.be.within(35, 37);
    expect(judged.missed.map((i) => `${i.event} ${i.pod ?? i.node}`)).to.deep.equal([]);
    expect(of('node-not-ready').map((i) => i.held)).to.deep.equal([true]);
    expect(of('no-execute-taint').map((i) => i.held)).to.deep.equal([true]);
  });

  it('leaves the evictions open: their windows reach past the restart, which moved them to 85 s', () => {
    const evictions = of('pod-eviction');
    expect(evictions).to.have.length(2);
    for (const e of evictions) {
      expect(e.held).to.equal(null);
      expect(e.observedSeconds).to.be.above(80);
      expect(e.window!.toSeconds).to.be.above(judged.judgedUntil!.afterSeconds);
    }
    // Judged to the end of the run instead, the forecast of the first fault alone misses them: the horizon is what
    // keeps a script's later actions out of the forecast's verdicts.
    const toTheEnd = judgeForecast(made, run.analysis, 'journal');
    expect(toTheEnd.items.filter((i) => i.event === 'pod-eviction' && i.pod!.startsWith('rebootlab/')).map((i) => i.held)).to.deep.equal([false, false]);
  });
});
