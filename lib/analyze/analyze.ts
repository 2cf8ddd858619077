// Entry point of the analyzer: journal records → node, pod and workload timelines, predictions, warnings.
import { CONTROLLER_MANAGER_LEASE, type Observation, type PhaseObservation } from '../observe/types.js';
import type { TimeoutSettings } from '../spec/settings.js';
import { msToSeconds, secondsSince, serverSecondsSince } from './clock.js';
import { buildContext, groupBy, type RunContext } from './context.js';
import { buildEndpointTimelines, NO_SERVICE } from './endpoint-timeline.js';
import { buildEvents } from './events.js';
import { buildNodeTimelines, lastRenewBefore, nodeLeases } from './node-timeline.js';
import { buildProbeSummaries } from './probe-timeline.js';
import { renewTime } from './objects.js';
import { buildPodTimelines } from './outcome.js';
import { label } from './objects.js';
import { buildPodFacts, WORKLOAD_LABEL } from './pod-timeline.js';
import { predict } from './predict.js';
import type { FaultInstant, RunAnalysis, ScriptMark, StepInstant } from './types.js';
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
 * Times are seconds since time zero, the first `fault-injecting` marker (the first fault command started; the first
 * `fault-injected` marker in journals without one), millisecond precision. The markers' `nodes` are the targets.
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
  // Every workload lives in one namespace: its EndpointSlices are the ones the probers' Services have.
  const namespace = pods.find((p) => p.workload !== null)?.namespace;
  const probes = buildProbeSummaries(observations, ctx.faultMs, ctx.restoreMs, { endMs: ctx.endMs, faults: ctx.faults, nodes, ...(namespace ? { namespace } : {}) });
  for (const p of probes) {
    if (p.lostRecords !== null && p.lostRecords !== 0) warnings.push(`probe ${p.name}: ${p.lostRecords} requests sent have no record in the journal`);
    for (const g of p.gaps) warnings.push(`probe ${p.name} sent nothing from ${g.fromSeconds} s to ${g.toSeconds} s: ${g.reason}`);
  }
  const restoredAfterSeconds = ctx.restoreMs === null ? null : secondsSince(ctx.faultMs, ctx.restoreMs);
  const endSeconds = secondsSince(ctx.faultMs, ctx.endMs);
  const steps = ctx.steps.map((p) => stepInstant(p, ctx.faultMs));
  const faults = faultInstants(ctx);
  const leaderChanges = controllerManagerLeaderChanges(ctx);
  if (leaderChanges.length > 0) warnings.push(`kube-controller-manager leader changed at ${leaderChanges.map((s) => `${s} s`).join(', ')}: predictions counting across it are not modelled`);
  return {
    faultInjectedAtMs: ctx.faultMs,
    timeZero: ctx.timeZero,
    faults,
    faultRestoredAfterSeconds: restoredAfterSeconds,
    endAfterSeconds: endSeconds,
    endAtMs: ctx.endMs,
    steps,
    targets: ctx.targets,
    nodes,
    pods,
    workloads,
    predictions: predict(options.settings, { nodes, pods, faults, steps, leaseRenewals: leaseRenewals(ctx), leaderChanges, endSeconds }),
    gaps: ctx.gaps,
    recovered: workloads.every((w) => w.recovered),
    events: buildEvents(ctx, observations),
    warnings,
    ...(marks.length > 0 ? { marks } : {}),
    ...(probes.length > 0 ? { probes } : {}),
  };
}

/** A `step` marker as a StepInstant; its start is the marker minus the action's duration the runner journaled. */
function stepInstant(p: PhaseObservation, faultMs: number): StepInstant {
  const afterSeconds = secondsSince(faultMs, p.receivedAtMs);
  const planned = p.detail?.afterSeconds;
  const acted = p.detail?.actedAfterSeconds;
  const duration = typeof planned === 'number' && typeof acted === 'number' && acted >= planned ? acted - planned : 0;
  return {
    index: typeof p.detail?.index === 'number' ? p.detail.index : -1,
    action: typeof p.detail?.action === 'string' ? p.detail.action : 'unknown',
    node: p.nodes?.[0] ?? null,
    afterSeconds,
    startedAfterSeconds: Math.round((afterSeconds - duration) * 1000) / 1000,
  };
}

/** The fault markers of each target as FaultInstants, with the node's last Lease renewal before the command returned. */
function faultInstants(ctx: RunContext): FaultInstant[] {
  const leases = groupBy(nodeLeases(ctx), (r) => r.name);
  return ctx.faults.map((f) => {
    const limitMs = f.effectiveAtMs ?? f.issuedAtMs;
    return {
      node: f.node,
      type: f.type,
      issuedAtMs: f.issuedAtMs,
      issuedAfterSeconds: secondsSince(ctx.faultMs, f.issuedAtMs),
      effectiveAtMs: f.effectiveAtMs,
      effectiveAfterSeconds: f.effectiveAtMs === null ? null : secondsSince(ctx.faultMs, f.effectiveAtMs),
      commandSeconds: f.effectiveAtMs === null ? null : msToSeconds(f.effectiveAtMs - f.issuedAtMs),
      restoredAfterSeconds: f.restoredAtMs === null ? null : secondsSince(ctx.faultMs, f.restoredAtMs),
      lastLeaseRenewBeforeFault: lastRenewBefore(ctx, leases.get(f.node) ?? [], limitMs),
    };
  });
}

/** Per node, its journaled Lease renewTimes (server clock), seconds since time zero, ascending and distinct. */
function leaseRenewals(ctx: RunContext): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  for (const rec of nodeLeases(ctx)) {
    const at = serverSecondsSince(ctx.faultMs, renewTime(rec.object));
    if (at === null) continue;
    const list = byNode.get(rec.name) ?? [];
    list.push(at);
    byNode.set(rec.name, list);
  }
  for (const [name, list] of byNode) byNode.set(name, [...new Set(list)].sort((a, b) => a - b));
  return byNode;
}


/**
 * Instants after time zero at which the kube-controller-manager leader Lease (kube-system) changed holderIdentity,
 * client receive time in seconds since time zero. Empty when that Lease is not journaled.
 */
function controllerManagerLeaderChanges(ctx: RunContext): number[] {
  const changes: number[] = [];
  let holder: string | null = null;
  for (const rec of ctx.leases) {
    if (rec.namespace !== CONTROLLER_MANAGER_LEASE.namespace || rec.name !== CONTROLLER_MANAGER_LEASE.name || rec.verb === 'DELETED') continue;
    const spec = (rec.object as { spec?: { holderIdentity?: unknown } }).spec;
    const current = typeof spec?.holderIdentity === 'string' ? spec.holderIdentity : null;
    if (holder !== null && current !== null && current !== holder && rec.seq > ctx.faultSeq) changes.push(secondsSince(ctx.faultMs, rec.receivedAtMs));
    if (current !== null) holder = current;
  }
  return changes;
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
