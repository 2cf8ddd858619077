// Tests for lib/faults/steps.ts: timed follow-up steps after a fault, on a fake cluster with an injected clock.
import { expect } from 'chai';
import { FaultGuard } from '../../../lib/faults/guard.js';
import { runFault, type InjectedNodeFault, type Sleep } from '../../../lib/faults/inject.js';
import { runSteps, type StepDetail } from '../../../lib/faults/steps.js';
import type { StepSpec } from '../../../lib/spec/types.js';
import { FakeCluster } from './fake-cluster.js';

/** A clock that jumps forward by whatever a step sleeps: steps run in simulated time. */
function simulatedTime(cluster: FakeCluster, startMs: number) {
  let nowMs = startMs;
  const sleep: Sleep = async (ms) => {
    if (ms > 0) {
      cluster.log.push(`sleep ${ms}`);
      nowMs += ms;
    }
  };
  return { sleep, now: () => nowMs };
}

const step = (afterMs: number, action: StepSpec['action'], node: string | null = null): StepSpec => ({ afterMs, action, node, args: {} });

describe('runSteps', () => {
  it('acts on every fault target at injection + after, registering each undo with the guard first', async () => {
    const cluster = new FakeCluster();
    const guard = new FaultGuard({ runDir: null });
    const time = simulatedTime(cluster, 10_000);
    const phases: { nodes: string[]; detail: StepDetail }[] = [];
    await runSteps(cluster, [step(60_000, 'taint-out-of-service'), step(90_000, 'force-delete-pods', 'w2')], ['w1', 'w2'], {
      guard, injectedAtMs: 10_000, faults: () => [], onPhase: (_p, info) => phases.push(info), ...time,
    });
    expect(cluster.log).to.deep.equal(['sleep 60000', 'act taint-out-of-service w1', 'act taint-out-of-service w2', 'sleep 30000', 'act force-delete-pods w2']);
    expect(phases.map((p) => [p.nodes[0], p.detail.action, p.detail.afterSeconds, p.detail.startedAfterSeconds, p.detail.actedAfterSeconds])).to.deep.equal([
      ['w1', 'taint-out-of-service', 60, 60, 60], ['w2', 'taint-out-of-service', 60, 60, 60], ['w2', 'force-delete-pods', 90, 90, 90],
    ]);
    expect(guard.pending.map((e) => e.label)).to.deep.equal(['taint-out-of-service w1 (step 0)', 'taint-out-of-service w2 (step 0)', 'force-delete-pods w2 (step 1)']);
    await guard.releaseAll();
    expect(cluster.log.slice(-3)).to.deep.equal(['undo force-delete-pods w2', 'undo taint-out-of-service w2', 'undo taint-out-of-service w1']);
  });

  it('uncordon releases the earlier cordon at once; a step already late does not wait', async () => {
    const cluster = new FakeCluster();
    const guard = new FaultGuard({ runDir: null });
    const time = simulatedTime(cluster, 50_000); // 40 s after the injection already
    await runSteps(cluster, [step(30_000, 'cordon'), step(45_000, 'uncordon')], ['w1'], {
      guard, injectedAtMs: 10_000, faults: () => [], onPhase: () => {}, ...time,
    });
    expect(cluster.log).to.deep.equal(['act cordon w1', 'sleep 5000', 'undo cordon w1']);
    expect(guard.pending).to.have.length(0);
  });

  it('restore ends a power-off before its duration: runFault stops waiting and restores once', async () => {
    const cluster = new FakeCluster();
    const guard = new FaultGuard({ runDir: null });
    const injected: InjectedNodeFault[] = [];
    // runFault's duration wait lasts until its signal aborts, as a real timer ended by restore() would.
    const waitForAbort: Sleep = (ms, signal) => new Promise((resolve) => (ms === 0 || signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve())));
    const faultDone = runFault(cluster, { type: 'power-off', durationMs: 300_000, staggerMs: 0 }, ['w1'], {
      guard, onPhase: (phase, info) => cluster.log.push(`phase ${phase} ${info.nodes.join(',')}`), sleep: waitForAbort, onInjected: (f) => injected.push(f),
    });
    await new Promise((r) => setImmediate(r));
    const time = simulatedTime(cluster, 0);
    await runSteps(cluster, [step(120_000, 'restore')], ['w1'], { guard, injectedAtMs: 0, faults: () => injected, onPhase: () => cluster.log.push('phase step'), ...time });
    expect(await faultDone).to.deep.equal([]);
    expect(cluster.log.filter((l) => !l.startsWith('phase fault-injecting'))).to.deep.equal([
      'act stop w1', 'phase fault-injected w1', 'sleep 120000', 'phase fault-restoring w1', 'undo stop w1', 'phase fault-restored w1', 'phase step',
    ]);
  });

  it('an undo step without its earlier step, or a restore without a fault, is an InputError', async () => {
    const cluster = new FakeCluster();
    const guard = new FaultGuard({ runDir: null });
    const opts = { guard, injectedAtMs: 0, faults: () => [], onPhase: () => {}, ...simulatedTime(cluster, 0) };
    const failure = (steps: StepSpec[]) => runSteps(cluster, steps, ['w1'], opts).then(() => null, (e: Error) => e.message);
    expect(await failure([step(0, 'untaint-out-of-service')])).to.equal('steps[0]: untaint-out-of-service on w1 has no earlier taint-out-of-service step to undo');
    expect(await failure([step(0, 'restore')])).to.equal('steps[0]: restore on w1: no fault was injected on that node');
  });

  it('stops before the next step once the signal aborted', async () => {
    const cluster = new FakeCluster();
    const controller = new AbortController();
    controller.abort();
    await runSteps(cluster, [step(10_000, 'cordon')], ['w1'], {
      guard: new FaultGuard({ runDir: null }), injectedAtMs: 0, faults: () => [], onPhase: () => {}, signal: controller.signal, ...simulatedTime(cluster, 0),
    });
    expect(cluster.log.filter((l) => l.startsWith('act'))).to.deep.equal([]);
  });
});
