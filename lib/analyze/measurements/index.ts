// The measurement registry: every part of the analysis, in the order they are computed (a measurement reads only
// parts provided before it). Reports show their tables in this order. To add a metric: a module here, registered
// below, plus its fields in lib/spec/expectation.ts if expectations should read it.
import type { Measurement, MeasurementTable, MeasuredView } from '../measurement.js';
import { answersMeasurement } from './answers.js';
import { controlPlaneSignalsMeasurement } from './control-plane-signals.js';
import { eventsMeasurement } from './events.js';
import { forecastMeasurement } from './forecast.js';
import { evictionsMeasurement } from './evictions.js';
import { faultInstantsMeasurement } from './fault-instants.js';
import { jobsMeasurement } from './jobs.js';
import { marksMeasurement } from './marks.js';
import { nodesMeasurement } from './nodes.js';
import { podsMeasurement } from './pods.js';
import { predictionsMeasurement } from './predictions.js';
import { probesMeasurement } from './probes.js';
import { volumesMeasurement } from './volumes.js';
import { workloadsMeasurement } from './workloads.js';

/** Every measurement, in computation order. */
export const MEASUREMENTS: readonly Measurement[] = [
  nodesMeasurement,
  faultInstantsMeasurement,
  evictionsMeasurement,
  podsMeasurement,
  workloadsMeasurement,
  jobsMeasurement,
  controlPlaneSignalsMeasurement,
  volumesMeasurement,
  predictionsMeasurement,
  probesMeasurement,
  forecastMeasurement,
  eventsMeasurement,
  marksMeasurement,
  answersMeasurement,
];

/**
 * Every measurement's tables for a run, in registry order: the rows summary.md and report.html draw. Read from a
 * result (result.json, or the analysis), so a report can be drawn from result.json alone.
 */
export function measurementTables(view: MeasuredView): MeasurementTable[] {
  return MEASUREMENTS.flatMap((m) => m.tables?.(view) ?? []);
}

/** The measurement answering expectations of `scope` (`pods`, `node`, …), or undefined for the run's own fields. */
export function measurementForScope(scope: string): Measurement | undefined {
  return MEASUREMENTS.find((m) => m.expectations?.scope === scope);
}
