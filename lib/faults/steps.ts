// Timed follow-up steps after a fault (experiment `steps:`): node actions of the cluster at fixed times since
// the injection, each undo registered with the fault guard before acting, and a `step` phase per node.
import type { ActionRecord, Cluster, EvictionAttempt, NodeAction } from '../cluster/provider.js';
import { InputError } from '../common/errors.js';
import { stepArgsRule, STEPS, type StepRecord } from '../spec/steps.js';
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
  /** `label-node` / `unlabel-node`: the label (`key=value`, or the key) and the value it had before (null: absent). */
  label?: string;
  labelBefore?: string | null;
  /** `evict-pods` / `drain`: the pods asked for (namespace, `k=v` labels) and how long refusals were retried, seconds. */
  pods?: { namespace: string | null; selector: string };
  retrySeconds?: number;
  /** `evict-pods` / `drain`: per outcome, how many pods (each pod's attempts are `eviction` phases). */
  evictions?: Record<EvictionAttempt['outcome'], number>;
}

/** Receives each pod's `evict-pods` / `drain` attempt (first refusal, then final); the runner journals it as an `eviction` phase. Must not throw. */
export type EvictionCallback = (attempt: EvictionAttempt & { step: number }) => void;

/** The journal detail of an `eviction` phase: the attempt with the step's index (the same record from a YAML step and from lab.act). */
export function evictionDetail(attempt: EvictionAttempt, step: number | null): Record<string, unknown> {
  return { ...attempt, ...(step === null ? {} : { step }) };
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
  /** Each eviction attempt of `evict-pods` / `drain` steps; default: none kept. */
  onEviction?: EvictionCallback;
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
      const stepRecord: StepRecord = STEPS[step.action];
      const facts: Partial<StepDetail> = {};
      if ('nodeAction' in stepRecord) {
        const { nodeAction } = stepRecord;
        let record: ActionRecord | undefined;
        const outcomes: Record<EvictionAttempt['outcome'], number> = { evicted: 0, refused: 0, gone: 0 };
        await cluster.act(node, nodeAction, {
          beforeAct: (undo, r) => {
            record = r;
            applied.set(`${nodeAction} ${node}`, options.guard.register(`${nodeAction} ${node} (step ${index})`, [node], undo, r.restoreCommands));
          },
          onEviction: (attempt) => {
            if (attempt.final) outcomes[attempt.outcome] += 1;
            options.onEviction?.({ ...attempt, step: index });
          },
        }, step.args);
        Object.assign(facts, stepActionDetail(step, record, outcomes));
      } else if ('undoes' in stepRecord) {
        const undoOf = stepRecord.undoes;
        const entry = applied.get(`${undoOf} ${node}`);
        if (!entry) throw new InputError(`steps[${index}]: ${step.action} on ${node} has no earlier ${undoOf} step to undo`);
        await options.guard.release(entry);
        applied.delete(`${undoOf} ${node}`);
      } else {
        const fault = options.faults().find((f) => f.node === node);
        if (!fault) throw new InputError(`steps[${index}]: restore on ${node}: no fault was injected on that node`);
        await fault.restore();
      }
      options.onPhase('step', { nodes: [node], detail: { ...base, ...facts, startedAfterSeconds, actedAfterSeconds: since() } });
    }
  }
}

/**
 * What a `step` phase journals of a node action's step beyond its times, the same from YAML steps and from lab.act:
 * its arguments ({@link argsDetail}), the label's value before a label step (null: absent) and, for a step that
 * evicts, the final outcome counts of its pods.
 */
export function stepActionDetail(step: Pick<StepSpec, 'action' | 'args'>, record: ActionRecord | undefined, outcomes: Record<EvictionAttempt['outcome'], number>): Partial<StepDetail> {
  return { ...argsDetail(step), ...(record?.labelBefore ? { labelBefore: record.labelBefore.value } : {}), ...(step.args.pods ? { evictions: outcomes } : {}) };
}

/** The step's arguments as journaled: the label as written, the pods asked for and the retry time in seconds. */
function argsDetail(step: Pick<StepSpec, 'action' | 'args'>): Partial<StepDetail> {
  const { label, pods, retryForMs } = step.args;
  const rule = stepArgsRule(step.action);
  const removes = rule !== undefined && 'label' in rule && rule.label === 'remove';
  return {
    ...(label ? { label: removes ? label.key : `${label.key}=${label.value}` } : {}),
    ...(pods ? { pods: { namespace: pods.namespace, selector: Object.entries(pods.matchLabels).map(([k, v]) => `${k}=${v}`).join(',') } } : {}),
    ...(retryForMs !== undefined ? { retrySeconds: retryForMs / 1000 } : {}),
  };
}
