// Measurement: every predicted event derived from its observed cause, judged against what happened; `count(predictions.<list>)`.
import type { PredictionField } from '../../spec/expectation.js';
import { secondsSince } from '../clock.js';
import { evictionApiEvictions } from '../events.js';
import { part, type Measurement } from '../measurement.js';
import { predict } from '../predict.js';
import type { PredictionItem } from '../types.js';

const PREDICTION_LISTS: Record<PredictionField, (items: PredictionItem[]) => PredictionItem[]> = {
  missed: (items) => items.filter((i) => i.held === false),
  held: (items) => items.filter((i) => i.held === true),
  open: (items) => items.filter((i) => i.held === null && i.notModelled === undefined),
  notModelled: (items) => items.filter((i) => i.notModelled !== undefined),
  items: (items) => items,
};

/**
 * The causal model (lib/analyze/predict*.ts) over the observed nodes, pods, faults, steps, Lease renewals and leader
 * changes. Its tables are drawn by the reporters themselves (missed first, each row's cause on hover).
 */
export const predictionsMeasurement: Measurement = {
  name: 'predictions',
  describes: 'detection, taints, evictions, PodGC and replacements predicted from their observed cause, each held or missed',
  needs: ['nodes', 'pods', 'faults', 'steps', 'leaseRenewals', 'leaderChanges', 'observerLag'],
  provides: ['predictions'],
  measure: ({ observations, ctx, options }, earlier) => ({
    predictions: predict(options.settings, {
      nodes: part(earlier, 'nodes'),
      pods: part(earlier, 'pods'),
      faults: part(earlier, 'faults'),
      steps: part(earlier, 'steps'),
      leaseRenewals: part(earlier, 'leaseRenewals'),
      leaderChanges: part(earlier, 'leaderChanges'),
      observerLag: part(earlier, 'observerLag'),
      apiEvictions: evictionApiEvictions(observations, ctx.faultMs),
      endSeconds: secondsSince(ctx.faultMs, ctx.endMs),
    }),
  }),
  expectations: {
    scope: 'predictions',
    values(analysis, s) {
      if (s.scope !== 'predictions') return 'not a predictions subject';
      return PREDICTION_LISTS[s.field](analysis.predictions.items).map((i) => ({ label: `${i.taintKey ? `${i.event} (${i.taintKey})` : i.event} of ${i.pod ?? i.node}`, value: true }));
    },
  },
};
