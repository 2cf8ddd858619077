// The forecast timeline's order: by window start, but a window derived from the event it follows (0.1 s early for
// the clocks' rounding) is listed after that event.
import { expect } from 'chai';
import { orderItems } from '../../../lib/analyze/forecast/forecast.js';
import type { ForecastItem } from '../../../lib/analyze/forecast/types.js';

function row(event: ForecastItem['event'], fromSeconds: number | null, pod: string): ForecastItem {
  return { event, node: 'rebootlab-worker', pod, workload: null, window: fromSeconds === null ? null : { fromSeconds, toSeconds: fromSeconds + 20 } } as unknown as ForecastItem;
}

describe('analyze/forecast order', () => {
  it('lists an eviction before the replacement whose window starts 0.1 s earlier, and a later start after both', () => {
    const ordered = orderItems([
      row('replacement-created', 69.5, 'rebootlab/web-0'),
      row('pod-deleted', 422.0, 'rebootlab/db-0'),
      row('job-failed', null, 'rebootlab/batch-0'),
      row('replacement-created', 421.9, 'rebootlab/db-0'),
      row('pod-eviction', 69.6, 'rebootlab/web-0'),
      row('node-not-ready', 38.6, ''),
    ]);
    expect(ordered.map((i) => `${i.event} ${i.window?.fromSeconds ?? 'never'}`)).to.deep.equal([
      'node-not-ready 38.6', 'pod-eviction 69.6', 'replacement-created 69.5', 'pod-deleted 422', 'replacement-created 421.9', 'job-failed never',
    ]);
  });

  it('keeps starts more than 0.1 s apart in time order whatever their events', () => {
    const ordered = orderItems([row('pod-eviction', 70, 'a'), row('replacement-created', 69.8, 'b')]);
    expect(ordered.map((i) => i.event)).to.deep.equal(['replacement-created', 'pod-eviction']);
  });
});
