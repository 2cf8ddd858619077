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
  /**
   * Whether the in-pass token of `d` (an unreachable NoExecute taint) is lost to the informer-cache race: the tainting
   * loop reads the node before the controller's own Ready=Unknown write reached its cache, spends the token and drops
   * the node, and the next monitor pass re-queues it. A blind choice (never reads an outcome); absent: never lost.
   */
  informerRace?(d: Detection): boolean;
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

/**
 * The blind model with every in-pass unreachable taint lost to the informer-cache race: the forecast's second outcome
 * of those taints (and of the taints waiting behind them in their zone). Never reads an outcome.
 */
export const informerRaceChoices: ZoneChoices = {
  by: 'model',
  observedTaint: () => undefined,
  informerRace: () => true,
};

/** `choices.observedTaint(d)` with "not looked at" read as "not seen". */
export function seenTaint(choices: ZoneChoices, d: Detection): number | null {
  return choices.observedTaint(d) ?? null;
}
