// Timed follow-up steps after a fault (experiment `steps:`): node actions of the cluster at fixed times since
// the injection, each undo registered with the fault guard before acting, and a `step` phase per node.
import type { Cluster, NodeAction } from '../cluster/provider.js';
import { InputError } from '../common/errors.js';
import { STEPS, type StepRecord } from '../spec/steps.js';
import type { StepAction, StepSpec } from '../spec/types.js';
import type { FaultGuard, GuardEntry } from './guard.js';
import { abortableSleep, type Sleep } from '../common/sleep.js';
import type { InjectedNodeFault } from './inject.js';


/** Facts journaled with each `step` phase. Times: `afterSeconds` as planned, `actedAfterSeconds` as done (seconds since fault). */
export interface StepDetail extends Record<string, unknown> {
  /** 0-based position in the experiment's (time-sorted) steps. */
  index: number;
  action: StepAction;
  /** Planned time since time zero (the start of the first fault command), seconds. */
  afterSeconds: number;
  /** When the action started on this node, seconds since time zero (client clock). */
  startedAfterSeconds: number;
  /** When the action's command returned, seconds since time zero (client clock). */
  actedAfterSeconds: number;
}

/** Receives one `step` phase per node and step, the instant its action returned. Must not throw. */
export type StepPhaseCallback = (phase: 'step', info: { nodes: string[]; detail: StepDetail }) => void;

/** Options of {@link runSteps}. */
export interface StepOptions {
  guard: FaultGuard;
  onPhase: StepPhaseCallback;
  /** Time zero, Unix epoch milliseconds (client clock): the start of the first fault command, the zero of every `afterMs`. */
  injectedAtMs: number;
  /** The faults injected so far (one per node), for `restore` steps. */
  faults: () => readonly InjectedNodeFault[];
  /** Default {@link abortableSleep}. */
  sleep?: Sleep;
  /** Client clock, Unix epoch milliseconds; default Date.now. */
  now?: () => number;
  /** Aborting skips the steps not yet run. */
  signal?: AbortSignal;
}

/**
 * Runs `steps` (sorted by `afterMs`) on `cluster`: each waits until `injectedAtMs + afterMs`, then acts on its
 * node (`step.node`) or on every fault target. Node actions go through `cluster.act` with the undo registered
 * with the guard first, so whatever a step leaves (a taint, a cordon) is undone at the end of the run;
 * `untaint-out-of-service` / `uncordon` release the earlier step's undo at once; `restore` ends the node's fault.
 * @throws InputError when a step names a node without a fault to restore, or an undo step has no earlier step;
 *   InfraError when an action fails.
 */
export async function runSteps(cluster: Cluster, steps: readonly StepSpec[], targets: readonly string[], options: StepOptions): Promise<void> {
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const applied = new Map<string, GuardEntry>();
  const since = () => Math.round(now() - options.injectedAtMs) / 1000;
  for (const [index, step] of steps.entries()) {
    await sleep(options.injectedAtMs + step.afterMs - now(), options.signal);
    if (options.signal?.aborted) return;
    const nodes = step.node === null ? [...targets] : [step.node];
    const base = { index, action: step.action, afterSeconds: step.afterMs / 1000 };
    for (const node of nodes) {
      const startedAfterSeconds = since();
      const record: StepRecord = STEPS[step.action];
      if ('nodeAction' in record) {
        const { nodeAction } = record;
        await cluster.act(node, nodeAction, {
          beforeAct: (undo, r) => {
            applied.set(`${nodeAction} ${node}`, options.guard.register(`${nodeAction} ${node} (step ${index})`, [node], undo, r.restoreCommands));
          },
        });
      } else if ('undoes' in record) {
        const undoOf = record.undoes;
        const entry = applied.get(`${undoOf} ${node}`);
        if (!entry) throw new InputError(`steps[${index}]: ${step.action} on ${node} has no earlier ${undoOf} step to undo`);
        await options.guard.release(entry);
        applied.delete(`${undoOf} ${node}`);
      } else {
        const fault = options.faults().find((f) => f.node === node);
        if (!fault) throw new InputError(`steps[${index}]: restore on ${node}: no fault was injected on that node`);
        await fault.restore();
      }
      options.onPhase('step', { nodes: [node], detail: { ...base, startedAfterSeconds, actedAfterSeconds: since() } });
    }
  }
}
