// Measurement: the forecast frozen before the fault (or recomputed from the records before it), judged against what
// happened; `count(forecast.<list>)`.
import type { ForecastField } from '../../spec/expectation.js';
import { forecast } from '../forecast/forecast.js';
import { FORECAST_HORIZON_PHASE, judgeForecast } from '../forecast/judge.js';
import { FORECAST_LEAD_SECONDS, preFaultStateOfJournal } from '../forecast/prefault.js';
import type { Forecast, JudgedForecast, JudgedForecastItem } from '../forecast/types.js';
import { hostLoadWarning } from '../host-load.js';
import { part, type Measurement, type MeasurementTable } from '../measurement.js';
import type { PredictionItem, Window } from '../types.js';

/** `[13.8, 31.5] s`, `never`, `[13.8, 31.5] s or never`; several outcomes joined with "; ". */
function forecastText(i: JudgedForecastItem): string {
  const one = (w: Window | null) => (w === null ? 'never' : `[${w.fromSeconds.toFixed(3)}, ${w.toSeconds.toFixed(3)}] s`);
  return i.outcomes.length === 1 ? one(i.outcomes[0].window) : i.outcomes.map((o) => `${one(o.window)} when ${o.when}`).join('; ');
}

/**
 * Forecast vs observed, one row per forecast item, next to the causal model's item for the same event (its window,
 * verdict and why: derived from the observed cause after the fact).
 */
function forecastTable(f: JudgedForecast, causal: readonly PredictionItem[]): MeasurementTable {
  const causalFor = (i: JudgedForecastItem) => causal.find((c) => c.event === i.event && c.node === i.node && c.pod === i.pod && (i.taintKey === null || c.taintKey === i.taintKey));
  return {
    name: 'forecast',
    title: 'Forecast vs observed',
    note: `${f.heldCount} of ${f.judgedCount} forecast items held, ${f.missed.length} missed, ${f.items.length - f.judgedCount} open or not observable${f.judgedUntil ? `, judged as the run stood at ${f.judgedUntil.afterSeconds} s when the script's next action (${f.judgedUntil.action}) began: the forecast knows its first fault only` : ''}; frozen ${f.frozen === 'journal' ? 'in the journal before the first fault command' : 'now from the journal\'s records before the fault'}, conditioned on ${f.conditionedOn === 'journal' ? 'the pre-fault state' : 'the experiment alone'}${f.conditions.length > 0 ? ` (${f.conditions.join('; ')})` : ''}.`,
    after: 'The forecast is made before the fault from the settings and the pre-fault state; the causal model\'s window is derived after the fact from the observed event it follows.',
    headers: ['', 'Event', 'Subject', 'Forecast', 'Observed', 'Causal model (why)', 'Mechanism', 'Assumption'],
    rows: f.items.map((i) => {
      const c = causalFor(i);
      const m = f.mechanisms[i.mechanism];
      return [
        i.held === true ? '✓' : i.held === false ? '✗ missed' : '? open', i.taintKey ? `${i.event} (${i.taintKey})` : i.event, i.pod ?? (i.event.startsWith('workload') || i.event.startsWith('probe') || i.event.startsWith('job') ? i.workload : null) ?? i.node,
        forecastText(i), { seconds: i.observedSeconds },
        c ? `${c.notModelled ?? (c.expected ? (c.window ? `[${c.window.fromSeconds.toFixed(3)}, ${c.window.toSeconds.toFixed(3)}] s` : '—') : 'must not happen')} ${c.held === true ? '✓' : c.held === false ? '✗' : '?'}${c.chosenBy ? ' (explained)' : ''}: ${c.because}` : '—',
        m ? `${m.function} (${m.file}, ${m.versions})` : i.mechanism, `${i.setting}; ${i.assumption}`,
      ];
    }),
  };
}

const FORECAST_LISTS: Record<ForecastField, (items: JudgedForecastItem[]) => JudgedForecastItem[]> = {
  missed: (items) => items.filter((i) => i.held === false),
  held: (items) => items.filter((i) => i.held === true),
  open: (items) => items.filter((i) => i.held === null),
  items: (items) => items,
};

/**
 * The run's forecast: the `forecast` record of the journal written before the first fault command (frozen: journal),
 * else, when the run's experiment is known (run.json `experiment`), the forecast of its records before time zero
 * (frozen: recomputed, the same function the run calls). Judged against the nodes, pods, workloads, probes and Jobs.
 * A scripted experiment's forecast (made at its first fault) is judged up to its next action (its `forecast-horizon`
 * mark). Absent when neither exists (a script whose first fault was a lab.act, older run directories). Warns when the journal's `host-load`
 * markers show the host overloaded from the forecast on (lib/analyze/host-load.ts hostLoadWarning).
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
    // A host overloaded while the run observed slows what the measured windows rest on: said beside the verdicts.
    const busy = hostLoadWarning(observations, frozen?.receivedAtMs ?? ctx.faultMs, (ms) => (ms - ctx.faultMs) / 1000);
    if (busy !== null) warn(busy);
    let made: Forecast | null = frozen?.type === 'forecast' ? (frozen.forecast as unknown as Forecast) : null;
    if (made === null && options.experiment) {
      const preFault = preFaultStateOfJournal(observations, options.workloads);
      if (preFault) made = forecast({ experiment: options.experiment, settings: options.settings, kubernetesVersion: options.kubernetesVersion ?? options.experiment.cluster.kubernetesVersion, preFault });
    }
    if (made === null) return {};
    const run = { nodes: part(earlier, 'nodes'), pods: part(earlier, 'pods'), workloads: part(earlier, 'workloads'), endAfterSeconds: Math.round(ctx.endMs - ctx.faultMs) / 1000, ...(earlier.probes ? { probes: earlier.probes } : {}), ...(earlier.jobs ? { jobs: earlier.jobs } : {}) };
    // A script's forecast knows its first fault only: judged as the run stood at the script's next action.
    const horizon = made.horizon ? observations.find((o) => o.type === 'phase' && o.phase === FORECAST_HORIZON_PHASE && o.seq > ctx.faultSeq) : undefined;
    const until = horizon?.type === 'phase' ? { afterSeconds: Math.round(horizon.receivedAtMs - ctx.faultMs) / 1000, action: String(horizon.detail?.action ?? 'a script action') } : null;
    return { forecast: judgeForecast(made, run, frozen ? 'journal' : 'recomputed', until) };
  },
  tables: (view) => (view.forecast ? [forecastTable(view.forecast, view.predictions.items)] : []),
  expectations: {
    scope: 'forecast',
    values(analysis, s) {
      if (s.scope !== 'forecast') return 'not a forecast subject';
      if (!analysis.forecast) return 'this run has no forecast (a script whose first fault was a lab.act, or a run directory older than forecasts)';
      return FORECAST_LISTS[s.field](analysis.forecast.items).map((i) => ({ label: `forecast ${i.event} of ${i.pod ?? i.workload ?? i.node}`, value: true }));
    },
  },
};
