// Measurement: the forecast frozen before the fault (or recomputed from the records before it), judged against what
// happened; `count(forecast.<list>)`.
import type { ForecastField } from '../../spec/expectation.js';
import { forecast } from '../forecast/forecast.js';
import { judgeForecast } from '../forecast/judge.js';
import { FORECAST_LEAD_SECONDS, preFaultStateOfJournal } from '../forecast/prefault.js';
import type { Forecast, JudgedForecastItem } from '../forecast/types.js';
import { part, type Measurement } from '../measurement.js';

const FORECAST_LISTS: Record<ForecastField, (items: JudgedForecastItem[]) => JudgedForecastItem[]> = {
  missed: (items) => items.filter((i) => i.held === false),
  held: (items) => items.filter((i) => i.held === true),
  open: (items) => items.filter((i) => i.held === null),
  items: (items) => items,
};

/**
 * The run's forecast: the `forecast` record of the journal written before the first fault command (frozen: journal),
 * else, when the run's experiment is known (run.json `experiment`), the forecast of its records before time zero
 * (frozen: recomputed, the same function the run calls). Judged against the nodes, pods, workloads and probes.
 * Absent when neither exists (scripted experiments, older run directories).
 */
export const forecastMeasurement: Measurement = {
  name: 'forecast',
  describes: 'the forecast frozen before the fault (lib/analyze/forecast), each item held or missed',
  needs: ['nodes', 'pods', 'workloads'],
  provides: ['forecast'],
  measure: ({ observations, ctx, options, warn }, earlier) => {
    const frozen = observations.find((o) => o.type === 'forecast' && o.seq < ctx.faultSeq);
    if (frozen && (ctx.faultMs - frozen.receivedAtMs) / 1000 > FORECAST_LEAD_SECONDS) {
      warn(`the forecast was frozen ${(ctx.faultMs - frozen.receivedAtMs) / 1000} s before time zero, more than the ${FORECAST_LEAD_SECONDS} s its heartbeat windows allow for`);
    }
    let made: Forecast | null = frozen?.type === 'forecast' ? (frozen.forecast as unknown as Forecast) : null;
    if (made === null && options.experiment) {
      const preFault = preFaultStateOfJournal(observations, options.workloads);
      if (preFault) made = forecast({ experiment: options.experiment, settings: options.settings, kubernetesVersion: options.kubernetesVersion ?? options.experiment.cluster.kubernetesVersion, preFault });
    }
    if (made === null) return {};
    const run = { nodes: part(earlier, 'nodes'), pods: part(earlier, 'pods'), workloads: part(earlier, 'workloads'), endAfterSeconds: Math.round(ctx.endMs - ctx.faultMs) / 1000, ...(earlier.probes ? { probes: earlier.probes } : {}) };
    return { forecast: judgeForecast(made, run, frozen ? 'journal' : 'recomputed') };
  },
  expectations: {
    scope: 'forecast',
    values(analysis, s) {
      if (s.scope !== 'forecast') return 'not a forecast subject';
      if (!analysis.forecast) return 'this run has no forecast (a scripted experiment, or a run directory older than forecasts)';
      return FORECAST_LISTS[s.field](analysis.forecast.items).map((i) => ({ label: `forecast ${i.event} of ${i.pod ?? i.workload ?? i.node}`, value: true }));
    },
  },
};
