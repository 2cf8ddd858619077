// The one door through which the zone replay reads the outcome it then judges. Every choice the controller's code
// leaves open (which waiting node gets a token, whether the 100 ms tainting loop ran before the pass ended, the path
// a late taint took) goes through `observedTaint`; the blind choices never look, and take the usual path.
import { firstTaint } from '../predict-detection.js';
import type { Detection } from './limiter.js';

/**
 * How the replay decides what the controller's code leaves open. `observedTaint` is the only read of the outcome:
 * `undefined` means "not looked at" (the blind replay), null "looked, never seen".
 */
export interface ZoneChoices {
  /** 'observation' reads the journal's taints; 'model' never does (what the replay predicts from causes alone). */
  readonly by: 'observation' | 'model';
  /** When `d`'s NoExecute taint of its key was first received, seconds since time zero; null when never; undefined when not looked at. */
  observedTaint(d: Detection): number | null | undefined;
}

/** Reads each node's NoExecute taint from its timeline: the causal model's explanation of a run. */
export const observedChoices: ZoneChoices = {
  by: 'observation',
  observedTaint: (d) => firstTaint(d.node, d.key, 'NoExecute')?.addedReceivedAfterSeconds ?? null,
};

/**
 * Never reads an outcome: each token goes to the waiting node detected first (then by name), the next token counts
 * from the predicted taint, an in-pass taint is written before its pass ends. What the model predicts from the
 * observed causes alone; an item whose window differs from this replay's was chosen by the observation.
 */
export const blindChoices: ZoneChoices = {
  by: 'model',
  observedTaint: () => undefined,
};

/** `choices.observedTaint(d)` with "not looked at" read as "not seen". */
export function seenTaint(choices: ZoneChoices, d: Detection): number | null {
  return choices.observedTaint(d) ?? null;
}
