// The step catalogue: one record per step action (experiment `steps:`, and the node actions a script applies with
// lab.act): the cluster node action it applies, or the earlier step it undoes, or the fault it ends. Validation,
// the step runner, `rebootlab plan`, the scripting API and the analysis read it.
import type * as v1 from './v1alpha1/types.js';
import type { NodeAction } from './providers.js';

/** One step action's facts: exactly one of `nodeAction`, `undoes`, `endsFault`. */
export type StepRecord =
  /** Applies this node action of the cluster (its undo registered with the fault guard, run at the end if still in place). */
  | { readonly nodeAction: NodeAction }
  /** Undoes the node action of an earlier step of this action on the same node (at once). */
  | { readonly undoes: NodeAction }
  /** Ends the node's fault early (its restore). */
  | { readonly endsFault: true };

/**
 * Every step action. `delete-node-object`, `taint-out-of-service`, `force-delete-pods` and `cordon` are node actions
 * of the cluster (lib/spec/providers.ts); `untaint-out-of-service` and `uncordon` undo an earlier step of that action on
 * the same node; `restore` ends the fault on the node early.
 */
export const STEPS = {
  'delete-node-object': { nodeAction: 'delete-node-object' },
  'taint-out-of-service': { nodeAction: 'taint-out-of-service' },
  'untaint-out-of-service': { undoes: 'taint-out-of-service' },
  'force-delete-pods': { nodeAction: 'force-delete-pods' },
  cordon: { nodeAction: 'cordon' },
  uncordon: { undoes: 'cordon' },
  restore: { endsFault: true },
} as const satisfies Record<string, StepRecord>;

/**
 * A step action, a key of {@link STEPS}: `delete-node-object`, `taint-out-of-service`, `force-delete-pods` and `cordon`
 * apply that node action; `untaint-out-of-service` and `uncordon` undo an earlier step of that action on the same node;
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

/** The step action that undoes `nodeAction` (`uncordon` for `cordon`), if there is one. */
export function stepUndoing(nodeAction: NodeAction): StepAction | undefined {
  return STEP_ACTIONS.find((a) => (STEPS[a] as StepRecord as { undoes?: NodeAction }).undoes === nodeAction);
}

// The experiment format's own union (schema/experiment.schema.json is generated from it) must name exactly these actions.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const FORMAT_NAMES_EVERY_STEP_ACTION: Same<v1.Step['action'], StepAction> = true;
void FORMAT_NAMES_EVERY_STEP_ACTION;
