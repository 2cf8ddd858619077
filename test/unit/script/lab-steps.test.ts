// A scripted lab.act() of a step's node action writes the journal record an experiment file's `steps:` writes, so the
// analysis reads both alike (a scripted force-delete-pods is a step of the causal model, not a fault marker).
import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildContext } from '../../../lib/analyze/context.js';
import { FaultGuard } from '../../../lib/faults/guard.js';
import { runSteps, type StepDetail } from '../../../lib/faults/steps.js';
import { openJournal, readJournal } from '../../../lib/observe/journal.js';
import type { PhaseObservation } from '../../../lib/observe/types.js';
import { FORECAST_HORIZON_PHASE } from '../../../lib/analyze/forecast/index.js';
import { Lab, type FirstFault } from '../../../lib/script/lab.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { Experiment } from '../../../lib/spec/types.js';
import { FakeCluster } from '../faults/fake-cluster.js';

describe('script/lab: node actions of steps are journaled as steps', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rebootlab-lab-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('after a fault, lab.act(force-delete-pods) and lab.act(cordon) + its undo write step records with the YAML steps\' detail', async () => {
    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    const cluster = new FakeCluster();
    const guard = new FaultGuard({ runDir: null });
    const lab = new Lab({
      experiment: {} as Experiment, cluster, kc: new KubeConfig(), journal, guard, settings: DEFAULT_TIMEOUT_SETTINGS, runDir: dir, signal: new AbortController().signal,
    });
    await lab.inject('power-off', 'w1');
    await lab.act('w1', 'force-delete-pods');
    const uncordon = await lab.act('w1', 'cordon');
    await uncordon();
    await lab.restoreAll();
    journal.close();
    const phases = readJournal(journalPath).filter((r): r is PhaseObservation => r.type === 'phase');
    expect(phases.map((p) => p.phase)).to.deep.equal(['fault-injecting', 'fault-injected', 'step', 'step', 'step', 'fault-restoring', 'fault-restored']);
    const steps = phases.filter((p) => p.phase === 'step');
    expect(steps.map((p) => [p.nodes, (p.detail as StepDetail).index, (p.detail as StepDetail).action])).to.deep.equal([
      [['w1'], 0, 'force-delete-pods'], [['w1'], 1, 'cordon'], [['w1'], 2, 'uncordon'],
    ]);
    expect(cluster.log).to.deep.equal(['act stop w1', 'act force-delete-pods w1', 'act cordon w1', 'undo cordon w1', 'undo force-delete-pods w1', 'undo stop w1']);

    // The same detail keys as lib/faults/steps.ts writes for a YAML step.
    const yaml: StepDetail[] = [];
    await runSteps(new FakeCluster(), [{ afterMs: 0, action: 'force-delete-pods', node: null, args: {} }], ['w1'], {
      guard: new FaultGuard({ runDir: null }), injectedAtMs: 0, faults: () => [], onPhase: (_p, info) => yaml.push(info.detail), sleep: async () => {}, now: () => 0,
    });
    expect(Object.keys(steps[0]!.detail!).sort()).to.deep.equal(Object.keys(yaml[0]!).sort());
    // And the analysis takes them as the run's steps.
    expect(buildContext(readJournal(journalPath)).steps.map((p) => p.detail?.action)).to.deep.equal(['force-delete-pods', 'cordon', 'uncordon']);
  });

  it('after a fault, lab.act of a step with arguments (drain, label-node) writes the YAML step\'s fields and eviction records', async () => {
    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    const lab = new Lab({
      experiment: {} as Experiment, cluster: new FakeCluster(), kc: new KubeConfig(), journal, guard: new FaultGuard({ runDir: null }), settings: DEFAULT_TIMEOUT_SETTINGS, runDir: dir, signal: new AbortController().signal,
    });
    await lab.inject('power-off', 'w1');
    await lab.act('w1', 'drain', { selector: 'app=web', timeout: '20s' });
    await lab.act('w1', 'label-node', { label: 'rebootlab.dev/pool=blue' });
    await lab.restoreAll();
    journal.close();
    const records = readJournal(journalPath).filter((r): r is PhaseObservation => r.type === 'phase');
    const scripted = records.filter((p) => p.phase === 'step').map((p) => p.detail as StepDetail);
    expect(records.filter((p) => p.phase === 'eviction').map((p) => [p.detail?.pod, p.detail?.outcome, p.detail?.step])).to.deep.equal([['web-0', 'evicted', 0]]);

    const yaml: StepDetail[] = [];
    const evictions: unknown[] = [];
    await runSteps(new FakeCluster(), [
      { afterMs: 0, action: 'drain', node: null, args: { pods: { namespace: null, matchLabels: { app: 'web' } }, retryForMs: 20_000 } },
      { afterMs: 0, action: 'label-node', node: null, args: { label: { key: 'rebootlab.dev/pool', value: 'blue' } } },
    ], ['w1'], {
      guard: new FaultGuard({ runDir: null }), injectedAtMs: 0, faults: () => [], onPhase: (_p, info) => yaml.push(info.detail), sleep: async () => {}, now: () => 0,
      onEviction: (attempt) => evictions.push([attempt.pod, attempt.outcome, attempt.step]),
    });
    expect(evictions).to.deep.equal([['web-0', 'evicted', 0]]);
    const fields = ({ startedAfterSeconds: _s, actedAfterSeconds: _a, afterSeconds: _f, ...rest }: StepDetail) => rest;
    expect(scripted.map(fields)).to.deep.equal(yaml.map(fields));
    expect(scripted[0]).to.include({ action: 'drain', retrySeconds: 20 });
    expect(scripted[1]).to.include({ action: 'label-node', label: 'rebootlab.dev/pool=blue', labelBefore: null });
  });

  it('before any fault, lab.act keeps making the act the fault (time zero), as before', async () => {
    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    const lab = new Lab({
      experiment: {} as Experiment, cluster: new FakeCluster(), kc: new KubeConfig(), journal, guard: new FaultGuard({ runDir: null }), settings: DEFAULT_TIMEOUT_SETTINGS, runDir: dir, signal: new AbortController().signal,
    });
    await lab.act('w1', 'cordon');
    await lab.restoreAll();
    journal.close();
    expect(readJournal(journalPath).filter((r) => r.type === 'phase').map((r) => (r as PhaseObservation).phase)).to.deep.equal(['fault-injected', 'fault-restoring', 'fault-restored']);
  });

  /** A Lab on a fake cluster whose forecast callback records each first fault (and, `markIt`, journals where it ran). */
  function forecastingLab(markIt: boolean) {
    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    const frozen: FirstFault[] = [];
    const lab = new Lab({
      experiment: {} as Experiment, cluster: new FakeCluster(), kc: new KubeConfig(), journal, guard: new FaultGuard({ runDir: null }), settings: DEFAULT_TIMEOUT_SETTINGS, runDir: dir, signal: new AbortController().signal,
      freezeForecast: (fault) => {
        frozen.push(fault);
        if (markIt) journal.mark('forecast-frozen-here');
      },
    });
    return { journalPath, journal, frozen, lab };
  }

  it('a forecast frozen once, just before the first fault, and a forecast-horizon mark before the script\'s next action only', async () => {
    const { journalPath, journal, frozen, lab } = forecastingLab(true);
    await lab.inject('power-off', 'w1');
    const uncordon = await lab.act('w1', 'cordon');
    await uncordon();
    await lab.inject('freeze', 'w2', { duration: '1ms' });
    await lab.restoreAll();
    journal.close();
    expect(frozen).to.deep.equal([{ type: 'power-off', node: 'w1', durationMs: null, scope: 'node' }]);
    const phases = readJournal(journalPath).filter((r): r is PhaseObservation => r.type === 'phase');
    expect(phases.map((p) => p.phase)).to.deep.equal([
      'forecast-frozen-here', 'fault-injecting', 'fault-injected', FORECAST_HORIZON_PHASE, 'step', 'step',
      'fault-injecting', 'fault-injected', 'fault-restoring', 'fault-restored', 'fault-restoring', 'fault-restored',
    ]);
    expect(phases.find((p) => p.phase === FORECAST_HORIZON_PHASE)?.detail).to.deep.equal({ action: 'lab.act(w1, cordon)' });
  });

  it('a fault held for its duration is part of the forecast (its restore is no next action); an untimed restore is', async () => {
    const { journalPath, journal, frozen, lab } = forecastingLab(false);
    await lab.inject('freeze', 'w1', { duration: '5ms' });
    const second = await lab.inject('power-off', 'w1');
    await second.restore();
    journal.close();
    expect(frozen).to.deep.equal([{ type: 'freeze', node: 'w1', durationMs: 5, scope: 'node' }]);
    const phases = readJournal(journalPath).filter((r): r is PhaseObservation => r.type === 'phase');
    expect(phases.map((p) => p.phase)).to.deep.equal(['fault-injecting', 'fault-injected', 'fault-restoring', 'fault-restored', FORECAST_HORIZON_PHASE, 'fault-injecting', 'fault-injected', 'fault-restoring', 'fault-restored']);
    expect(phases.find((p) => p.phase === FORECAST_HORIZON_PHASE)?.detail).to.deep.equal({ action: 'lab.inject(power-off, w1)' });
  });
});
