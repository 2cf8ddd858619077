// The act/undo protocol every provider's node actions share: hand an idempotent undo to the caller's
// beforeAct hook BEFORE touching the node, act, and stamp the ActionRecord when each command returned.
import type { ActHooks, ActionRecord, RestoreCommand, Undo } from './provider.js';

/** One reversible step on a node: the command and the command that reverts it. */
export interface ActionPlan {
  act(): Promise<void>;
  undo(): Promise<void>;
}

/** A provider's plan of one node action: the plan plus the command lines that undo it by hand (pending-restore.json). */
export interface NodeActionPlan extends ActionPlan {
  restoreCommands: RestoreCommand[];
  /** Facts the plan read before acting, copied into the ActionRecord (e.g. a label's value before `label-node`). */
  recordFacts?: Pick<ActionRecord, 'labelBefore'>;
}

/** Provider-specific follow-ups, run after the record was stamped (e.g. reading the container IP). */
export interface ActFollowUps {
  /** After the action returned and `hooks.afterAct` ran. */
  afterAct?(record: ActionRecord): Promise<void>;
  /** After the undo returned and `record.undoneAtMs` was set, still inside the undo. */
  afterUndo?(record: ActionRecord): Promise<void>;
}

/**
 * Runs `plan` for `record` and resolves to its undo. The undo is idempotent: concurrent and later calls
 * share one attempt; a failed attempt is forgotten so a later caller (the guard, doctor --restore) can retry.
 * `now` is the client clock (Unix epoch milliseconds) used for `actedAtMs` and `undoneAtMs`.
 * @throws whatever `hooks.beforeAct` or `plan.act` throws (the undo has then already been handed out).
 */
export async function actWithUndo(record: ActionRecord, plan: ActionPlan | NodeActionPlan, hooks: ActHooks, now: () => number, followUps: ActFollowUps = {}): Promise<Undo> {
  if ('recordFacts' in plan && plan.recordFacts) Object.assign(record, plan.recordFacts);
  let undone: Promise<void> | null = null;
  const undo = Object.assign(
    (): Promise<void> => {
      undone ??= (async () => {
        await plan.undo();
        record.undoneAtMs = now();
        await followUps.afterUndo?.(record);
      })().catch((error: unknown) => {
        undone = null;
        throw error;
      });
      return undone;
    },
    { record },
  ) as Undo;
  await hooks.beforeAct?.(undo, record);
  await plan.act();
  record.actedAtMs = now();
  hooks.afterAct?.(record);
  await followUps.afterAct?.(record);
  return undo;
}
