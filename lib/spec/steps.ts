// The step catalogue: one record per step action (experiment `steps:`, and the node actions a script applies with
// lab.act): the cluster node action it applies, or the earlier step it undoes, or the fault it ends. Validation,
// the step runner, `rebootlab plan`, the scripting API and the analysis read it.
import type * as v1 from './v1alpha1/types.js';
import type { NodeAction } from './providers.js';

/**
 * The arguments a step's node action takes, beyond `after` and `node`:
 * - `label`: a node label, written `key=value` (`set`) or `key` alone (`remove`);
 * - `pods`: which pods of the node the Eviction API is asked for (`selector`, `namespace`) and how long a refusal
 *   (HTTP 429, a PodDisruptionBudget) is retried (`timeout`, default `defaultRetryMs` milliseconds).
 */
export type StepArgsRule =
  | { readonly label: 'set' | 'remove' }
  | { readonly pods: { readonly defaultRetryMs: number } };

/** A step's fields that belong to some actions only, and the argument rule that takes each. */
export const STEP_ARG_FIELDS = { label: 'label', selector: 'pods', namespace: 'pods', timeout: 'pods' } as const;

/** One step action's facts: exactly one of `nodeAction`, `undoes`, `endsFault`. */
export type StepRecord =
  /**
   * Applies this node action of the cluster (its undo registered with the fault guard, run at the end if still in
   * place), with the arguments `args` describes (none when absent).
   */
  | { readonly nodeAction: NodeAction; readonly args?: StepArgsRule }
  /** Undoes the node action of an earlier step of this action on the same node (at once). */
  | { readonly undoes: NodeAction }
  /** Ends the node's fault early (its restore). */
  | { readonly endsFault: true };

/**
 * Every step action. `delete-node-object`, `taint-out-of-service`, `force-delete-pods`, `cordon`, `label-node`,
 * `unlabel-node`, `evict-pods`, `drain` and `restart-kubelet` are node actions of the cluster (lib/spec/providers.ts);
 * `untaint-out-of-service` and `uncordon` undo an earlier step of that action on the same node; `restore` ends the fault
 * on the node early. `evict-pods` asks once by default (what the budget allows now); `drain` retries refusals for a
 * minute (`kubectl drain` waits without limit, which a timed step cannot).
 */
export const STEPS = {
  'delete-node-object': { nodeAction: 'delete-node-object' },
  'taint-out-of-service': { nodeAction: 'taint-out-of-service' },
  'untaint-out-of-service': { undoes: 'taint-out-of-service' },
  'force-delete-pods': { nodeAction: 'force-delete-pods' },
  cordon: { nodeAction: 'cordon' },
  uncordon: { undoes: 'cordon' },
  restore: { endsFault: true },
  'label-node': { nodeAction: 'label-node', args: { label: 'set' } },
  'unlabel-node': { nodeAction: 'unlabel-node', args: { label: 'remove' } },
  'evict-pods': { nodeAction: 'evict-pods', args: { pods: { defaultRetryMs: 0 } } },
  drain: { nodeAction: 'drain', args: { pods: { defaultRetryMs: 60_000 } } },
  'restart-kubelet': { nodeAction: 'restart-kubelet' },
} as const satisfies Record<string, StepRecord>;

/**
 * A step action, a key of {@link STEPS}: `delete-node-object`, `taint-out-of-service`, `force-delete-pods`, `cordon`,
 * `label-node`, `unlabel-node`, `evict-pods`, `drain` and `restart-kubelet` apply that node action; `untaint-out-of-service` and `uncordon` undo an earlier step of that action on the same node;
 * `restore` ends the fault on the node early.
 */
export type StepAction = keyof typeof STEPS;

/** Every step action, in catalogue order. */
export const STEP_ACTIONS = Object.keys(STEPS) as StepAction[];

/** The record of `action`, or undefined for a name that is no step action (own keys only). */
export function stepRecord(action: unknown): StepRecord | undefined {
  return typeof action === 'string' && Object.hasOwn(STEPS, action) ? STEPS[action as StepAction] : undefined;
}

/** The step action that applies `nodeAction`, if a step does (so a script's lab.act of it journals as that step). */
export function stepApplying(nodeAction: NodeAction): StepAction | undefined {
  return STEP_ACTIONS.find((a) => (STEPS[a] as StepRecord as { nodeAction?: NodeAction }).nodeAction === nodeAction);
}

/** The argument rule of step `action`, if it takes arguments. */
export function stepArgsRule(action: unknown): StepArgsRule | undefined {
  const record = stepRecord(action);
  return record !== undefined && 'nodeAction' in record ? record.args : undefined;
}

/** The step actions that take step field `field` (`label`, `selector`, `namespace`, `timeout`). */
export function actionsTaking(field: keyof typeof STEP_ARG_FIELDS): StepAction[] {
  return STEP_ACTIONS.filter((a) => {
    const rule = stepArgsRule(a);
    return rule !== undefined && STEP_ARG_FIELDS[field] in rule;
  });
}

/** The step action that undoes `nodeAction` (`uncordon` for `cordon`), if there is one. */
export function stepUndoing(nodeAction: NodeAction): StepAction | undefined {
  return STEP_ACTIONS.find((a) => (STEPS[a] as StepRecord as { undoes?: NodeAction }).undoes === nodeAction);
}

// The experiment format's own union (schema/experiment.schema.json is generated from it) must name exactly these actions.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const FORMAT_NAMES_EVERY_STEP_ACTION: Same<v1.Step['action'], StepAction> = true;
void FORMAT_NAMES_EVERY_STEP_ACTION;
