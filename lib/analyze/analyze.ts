// Entry point of the analyzer: journal records → node, pod and workload timelines, predictions, warnings.
import type { Observation, PhaseObservation } from '../observe/types.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { secondsSince } from './clock.js';
import { buildContext } from './context.js';
import { buildEndpointTimelines, NO_SERVICE } from './endpoint-timeline.js';
import { buildEvents } from './events.js';
import { buildNodeTimelines } from './node-timeline.js';
import { buildPodTimelines } from './outcome.js';
import { label } from './objects.js';
import { buildPodFacts, WORKLOAD_LABEL } from './pod-timeline.js';
import { predict } from './predict.js';
import type { RunAnalysis, ScriptMark } from './types.js';
import { buildWorkloadTimelines, type WorkloadRef } from './workload-timeline.js';

/** What `analyze` needs besides the journal. */
export interface AnalyzeOptions {
  /** Effective timeout settings of the cluster (durations in milliseconds), for the predicted windows. */
  settings: TimeoutSettings;
  /** The experiment's workloads; pods join them by label rebootlab.dev/workload=<name>. */
  workloads: readonly WorkloadRef[];
}

/**
 * Analyze one run's journal. Pure: no cluster, no network, no clock; the same records give the same result.
 * Times are seconds since the `fault-injected` marker (millisecond precision); its `nodes` are the targets.
 * @throws InputError if the journal has no fault-injected marker.
 */
export function analyze(observations: readonly Observation[], options: AnalyzeOptions): RunAnalysis {
  const ctx = buildContext(observations);
  const nodes = buildNodeTimelines(ctx);
  const nodeReady = new Map(nodes.map((n) => [n.name, n.readyAtEnd]));
  const podTimelines = buildPodTimelines(ctx, buildPodFacts(ctx), nodeReady);
  const endpoints = buildEndpointTimelines(ctx, observations, options.workloads, podTimelines);
  const pods = podTimelines.map((p) => ({ ...p, ...(endpoints.pods.get(p.uid) ?? NO_SERVICE) }));
  const workloads = buildWorkloadTimelines(ctx, options.workloads).map((w) => ({ ...w, endpoints: endpoints.workloads.get(w.name) ?? null }));
  const warnings = [...ctx.warnings];
  for (const t of ctx.targets) if (!nodes.some((n) => n.name === t)) warnings.push(`fault target ${t} never appeared as a Node`);
  if (ctx.restoreMs === null) warnings.push('no fault-restored marker: the fault was not undone during observation');
  for (const w of workloads) {
    if (!ctx.pods.some((p) => label(p.object, WORKLOAD_LABEL) === w.name)) warnings.push(`workload ${w.name} has no pods in the journal`);
  }
  const marks = scriptMarks(observations, ctx.faultMs);
  const restoredAfterSeconds = ctx.restoreMs === null ? null : secondsSince(ctx.faultMs, ctx.restoreMs);
  return {
    faultInjectedAtMs: ctx.faultMs,
    faultRestoredAfterSeconds: restoredAfterSeconds,
    endAfterSeconds: secondsSince(ctx.faultMs, ctx.endMs),
    endAtMs: ctx.endMs,
    steps: ctx.steps.map((p) => ({
      index: typeof p.detail?.index === 'number' ? p.detail.index : -1,
      action: typeof p.detail?.action === 'string' ? p.detail.action : 'unknown',
      node: p.nodes?.[0] ?? null,
      afterSeconds: secondsSince(ctx.faultMs, p.receivedAtMs),
    })),
    targets: ctx.targets,
    nodes,
    pods,
    workloads,
    predictions: predict(options.settings, { targets: ctx.targets, targetOffsetSeconds: ctx.targetOffsetSeconds, clusterNodes: nodes.length, restoredAfterSeconds, pods }),
    gaps: ctx.gaps,
    recovered: workloads.every((w) => w.recovered),
    events: buildEvents(ctx, observations),
    warnings,
    ...(marks.length > 0 ? { marks } : {}),
  };
}

/** Phase records a script marked (`detail.mark === true`), in seq order, timed from the fault (`faultMs`, Unix epoch milliseconds). */
function scriptMarks(observations: readonly Observation[], faultMs: number): ScriptMark[] {
  return observations
    .filter((o): o is PhaseObservation => o.type === 'phase' && o.detail?.['mark'] === true)
    .sort((a, b) => a.seq - b.seq)
    .map((o) => {
      const { mark: _mark, ...detail } = o.detail ?? {};
      return { name: o.phase, afterSeconds: secondsSince(faultMs, o.receivedAtMs), nodes: o.nodes ?? [], detail };
    });
}
