// Measurement: the named instants a script marked (`lab.mark`).
import type { PhaseObservation } from '../../observe/types.js';
import { secondsSince } from '../clock.js';
import type { Measurement } from '../measurement.js';
import type { ScriptMark } from '../types.js';

/** Phase records a script marked (`detail.mark === true`), in seq order, timed from the fault (`faultMs`, Unix epoch milliseconds). */
function scriptMarks(observations: readonly { type: string }[], faultMs: number): ScriptMark[] {
  return observations
    .filter((o): o is PhaseObservation => o.type === 'phase' && (o as PhaseObservation).detail?.['mark'] === true)
    .sort((a, b) => a.seq - b.seq)
    .map((o) => {
      const { mark: _mark, ...detail } = o.detail ?? {};
      return { name: o.phase, afterSeconds: secondsSince(faultMs, o.receivedAtMs), nodes: o.nodes ?? [], detail };
    });
}

/** Script marks; absent from the analysis when there are none (YAML experiments). */
export const marksMeasurement: Measurement = {
  name: 'marks',
  describes: 'named instants a scripted experiment marked (lab.mark), seconds since time zero',
  needs: [],
  provides: ['marks'],
  measure: ({ ctx, observations }) => {
    const marks = scriptMarks(observations, ctx.faultMs);
    return marks.length > 0 ? { marks } : {};
  },
  tables: (v) =>
    v.marks && v.marks.length > 0
      ? [{ name: 'marks', title: 'Script marks', headers: ['Mark', 'At', 'Nodes', 'Detail'], rows: v.marks.map((k) => [k.name, { seconds: k.afterSeconds }, k.nodes.join(', '), JSON.stringify(k.detail)]) }]
      : [],
};
