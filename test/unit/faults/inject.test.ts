import { expect } from 'chai';
import { FaultGuard } from '../../../lib/faults/guard.js';
import { injectOnNode, runFault, type FaultPhase, type Sleep } from '../../../lib/faults/inject.js';
import type { FaultSpec } from '../../../lib/spec/types.js';
import { FakeCluster } from './fake-cluster.js';

/** A sleep that returns at once and logs the requested wait. */
function fakeSleep(log: string[]): Sleep {
  return async (ms) => {
    if (ms > 0) log.push(`sleep ${ms}`);
  };
}

function setup() {
  const cluster = new FakeCluster();
  const guard = new FaultGuard({ runDir: null });
  const phases: { phase: FaultPhase; nodes: string[]; detail: Record<string, unknown> }[] = [];
  const onPhase = (phase: FaultPhase, info: { nodes: string[]; detail: Record<string, unknown> }) => {
    phases.push({ phase, ...info });
    cluster.log.push(`phase ${phase} ${info.nodes.join(',')}`);
  };
  return { cluster, guard, phases, onPhase, sleep: fakeSleep(cluster.log) };
}

const fault = (type: FaultSpec['type'], durationMs: number | null, staggerMs = 0) => ({ type, durationMs, staggerMs });

describe('runFault', () => {
  it('freezes: pause, wait the duration, unpause, with the four phase markers', async () => {
    const t = setup();
    const left = await runFault(t.cluster, fault('freeze', 30_000), ['kind-worker'], t);
    expect(left).to.deep.equal([]);
    expect(t.cluster.log).to.deep.equal([
      'phase fault-injecting kind-worker',
      'act pause kind-worker',
      'phase fault-injected kind-worker',
      'sleep 30000',
      'phase fault-restoring kind-worker',
      'undo pause kind-worker',
      'phase fault-restored kind-worker',
    ]);
    expect(t.guard.pending).to.have.length(0);
  });

  it('100 targets on one run signal: no MaxListenersExceededWarning (two listeners per target are expected)', async () => {
    const t = setup();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const nodes = Array.from({ length: 100 }, (_, i) => `w${i}`);
      // A sleep that really waits on the signal, so all the listeners are attached at once.
      const sleep: Sleep = (ms, signal) => new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(ms, 20));
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      await runFault(t.cluster, fault('freeze', 1_000, 1), nodes, { ...t, sleep, signal: new AbortController().signal });
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).to.not.include('MaxListenersExceededWarning');
    expect(t.guard.pending).to.have.length(0);
  });

  it('registers the undo with the guard before acting', async () => {
    const t = setup();
    let pendingAtAct = -1;
    const act = t.cluster.act.bind(t.cluster);
    t.cluster.act = async (node, action, hooks) => act(node, action, { ...hooks, afterAct: (r) => { pendingAtAct = t.guard.pending.length; hooks?.afterAct?.(r); } });
    await runFault(t.cluster, fault('power-off', 1_000), ['kind-worker'], t);
    expect(pendingAtAct).to.equal(1);
  });

  it('stamps fault-injected with the moment the command returned', async () => {
    const t = setup();
    t.cluster.clockMs = 12_345;
    await runFault(t.cluster, fault('network-partition', 5_000), ['kind-worker'], t);
    const injected = t.phases.find((p) => p.phase === 'fault-injected')!;
    expect(injected.detail).to.include({ type: 'network-partition', action: 'disconnect', actedAtMs: 12_345, ipBefore: '172.18.0.3' });
  });

  it('node-delete: stop then delete the Node object, undone in reverse', async () => {
    const t = setup();
    await runFault(t.cluster, fault('node-delete', 60_000), ['kind-worker'], t);
    expect(t.cluster.log.filter((l) => !l.startsWith('phase'))).to.deep.equal([
      'act stop kind-worker', 'act delete-node-object kind-worker', 'sleep 60000', 'undo delete-node-object kind-worker', 'undo stop kind-worker',
    ]);
    expect(t.phases.map((p) => p.phase)).to.deep.equal(['fault-injecting', 'fault-injected', 'fault-step', 'fault-restoring', 'fault-restored']);
  });

  it('leaves a fault without duration to the caller, still held by the guard', async () => {
    const t = setup();
    const left = await runFault(t.cluster, fault('node-delete', null), ['kind-worker'], t);
    expect(left.map((f) => f.node)).to.deep.equal(['kind-worker']);
    expect(t.guard.pending).to.have.length(2);
    await left[0]!.restore();
    expect(t.guard.pending).to.have.length(0);
  });

  it('reboot: restart with a no-op restore right after', async () => {
    const t = setup();
    await runFault(t.cluster, fault('reboot', null), ['kind-worker'], t);
    expect(t.cluster.log.filter((l) => !l.startsWith('phase'))).to.deep.equal(['act restart kind-worker', 'undo restart kind-worker']);
  });

  it('staggers nodes by staggerMs', async () => {
    const t = setup();
    await runFault(t.cluster, fault('freeze', 10_000, 2_000), ['w1', 'w2', 'w3'], t);
    expect(t.cluster.log.filter((l) => l.startsWith('sleep'))).to.include.members(['sleep 2000', 'sleep 4000']);
    expect(t.cluster.log.filter((l) => l.startsWith('undo')).sort()).to.deep.equal(['undo pause w1', 'undo pause w2', 'undo pause w3']);
  });
  it('hits no further node once the signal aborted, and restores the ones hit', async () => {
    const t = setup();
    const controller = new AbortController();
    const onPhase = (phase: FaultPhase, info: { nodes: string[]; detail: Record<string, unknown> }) => {
      t.onPhase(phase, info);
      if (phase === 'fault-injected') controller.abort();
    };
    // Every non-zero wait lasts until the abort, as a real one would.
    const sleep: Sleep = (ms, signal) =>
      new Promise((resolve) => (ms === 0 || signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve())));
    await runFault(t.cluster, fault('freeze', 10_000, 2_000), ['w1', 'w2'], { ...t, onPhase, sleep, signal: controller.signal });
    expect(t.cluster.log.filter((l) => l.startsWith('act') || l.startsWith('undo'))).to.deep.equal(['act pause w1', 'undo pause w1']);
  });
});

describe('injectOnNode', () => {
  it('a restore the guard runs on a signal (releaseAll) is journaled as it happens, before the run says so (found by a new-user Ctrl-C)', async () => {
    const t = setup();
    const injected = await injectOnNode(t.cluster, 'node-delete', 'kind-worker', t);
    t.cluster.log.push('signal');
    await t.guard.releaseAll();
    t.cluster.log.push('faults restored');
    await injected.restore(); // the run's own restore after the abort: nothing left, nothing journaled twice
    expect(t.cluster.log.slice(t.cluster.log.indexOf('signal'))).to.deep.equal([
      'signal', 'phase fault-restoring kind-worker', 'undo delete-node-object kind-worker', 'undo stop kind-worker', 'phase fault-restored kind-worker', 'faults restored',
    ]);
  });

  it('a failed injection is undone without restore markers', async () => {
    const t = setup();
    t.cluster.failing.add('delete-node-object kind-worker');
    await injectOnNode(t.cluster, 'node-delete', 'kind-worker', t).catch(() => undefined);
    expect(t.phases.map((p) => p.phase)).to.deep.equal(['fault-injecting', 'fault-injected']);
  });

  it('undoes the primitives already applied when a later one fails', async () => {
    const t = setup();
    t.cluster.failing.add('delete-node-object kind-worker');
    let error: Error | undefined;
    await injectOnNode(t.cluster, 'node-delete', 'kind-worker', t).catch((e: Error) => { error = e; });
    expect(error?.message).to.equal('delete-node-object kind-worker failed');
    expect(t.cluster.log.filter((l) => !l.startsWith('phase'))).to.deep.equal(['act stop kind-worker', 'undo delete-node-object kind-worker', 'undo stop kind-worker']);
    expect(t.guard.pending).to.have.length(0);
  });
});
