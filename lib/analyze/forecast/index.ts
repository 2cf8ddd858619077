// Public face of the forecast (lib/analyze/forecast): compute, judge, and the pre-fault state from a journal.
export { forecast, type ForecastInput } from './forecast.js';
export { FORECAST_HORIZON_PHASE, judgeForecast, judgeForecastItem, observedFor } from './judge.js';
export { FORECAST_LEAD_SECONDS, PreFaultRecorder, preFaultStateOfJournal } from './prefault.js';
export { admittedTolerations, tolerationSecondsOf, toleratesTaint } from './tolerations.js';
export { MECHANISMS, type MechanismId } from './mechanisms.js';
export { faultEffect, type FaultEffect } from './fault-effects.js';
export type * from './types.js';
