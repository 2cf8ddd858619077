// Measurement: the Events and pod disruption conditions kept as cross-checks of the timelines.
import { buildEvents } from '../events.js';
import type { Measurement } from '../measurement.js';

/** Events (NodeNotReady, TaintManagerEviction, PodGC, kubelet kills, probe failures) received after the fault, in time order. */
export const eventsMeasurement: Measurement = {
  name: 'events',
  describes: 'node lifecycle, taint eviction, pod GC, kubelet kill and probe failure Events (and DisruptionTarget conditions), as cross-checks',
  needs: [],
  provides: ['events'],
  measure: ({ ctx, observations }) => ({ events: buildEvents(ctx, observations) }),
  tables: (v) =>
    v.events.length === 0
      ? []
      : [{
          name: 'events',
          title: 'Events',
          headers: ['At', 'Reason', 'Object', 'Source', 'Count', 'Message', 'Time from'],
          rows: v.events.map((e) => [
            { seconds: e.afterSeconds }, e.reason, e.object, e.recordedAs === 'Event' ? e.source : `${e.source} (pod condition ${e.recordedAs})`, e.count,
            e.message.length > 100 ? `${e.message.slice(0, 99)}…` : e.message, `${e.timeField} (${e.resolutionSeconds} s)`,
          ]),
        }],
};
