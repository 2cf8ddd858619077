// Measurement: each fault command (started, returned, the target's last Lease renewal before it) and each timed step.
import type { PhaseObservation } from '../../observe/types.js';
import { msToSeconds, secondsSince } from '../clock.js';
import { groupBy, type RunContext } from '../context.js';
import type { Measurement } from '../measurement.js';
import { lastRenewBefore, nodeLeases } from '../node-timeline.js';
import type { FaultInstant, StepInstant } from '../types.js';

/** The fault markers of each target as FaultInstants, with the node's last Lease renewal before the command returned. */
function faultInstants(ctx: RunContext): FaultInstant[] {
  const leases = groupBy(nodeLeases(ctx), (r) => r.name);
  return ctx.faults.map((f) => {
    const limitMs = f.effectiveAtMs ?? f.issuedAtMs;
    return {
      node: f.node,
      type: f.type,
      ...(f.scope ? { scope: f.scope } : {}),
      ...(f.trafficDropped ? { trafficDropped: true } : {}),
      issuedAtMs: f.issuedAtMs,
      issuedAfterSeconds: secondsSince(ctx.faultMs, f.issuedAtMs),
      effectiveAtMs: f.effectiveAtMs,
      effectiveAfterSeconds: f.effectiveAtMs === null ? null : secondsSince(ctx.faultMs, f.effectiveAtMs),
      commandSeconds: f.effectiveAtMs === null ? null : msToSeconds(f.effectiveAtMs - f.issuedAtMs),
      restoredAfterSeconds: f.restoredAtMs === null ? null : secondsSince(ctx.faultMs, f.restoredAtMs),
      ...(f.restoringAtMs === null ? {} : { restoringAfterSeconds: secondsSince(ctx.faultMs, f.restoringAtMs) }),
      lastLeaseRenewBeforeFault: lastRenewBefore(ctx, leases.get(f.node) ?? [], limitMs),
    };
  });
}

/** A `step` marker as a StepInstant; its start is the marker minus the action's duration the runner journaled (started → returned). */
function stepInstant(p: PhaseObservation, faultMs: number): StepInstant {
  const afterSeconds = secondsSince(faultMs, p.receivedAtMs);
  // The action's duration as the runner timed it: from its recorded start (journals since session 4), else from the
  // planned instant (older journals).
  const started = typeof p.detail?.startedAfterSeconds === 'number' ? p.detail.startedAfterSeconds : p.detail?.afterSeconds;
  const acted = p.detail?.actedAfterSeconds;
  const duration = typeof started === 'number' && typeof acted === 'number' && acted >= started ? acted - started : 0;
  return {
    index: typeof p.detail?.index === 'number' ? p.detail.index : -1,
    action: typeof p.detail?.action === 'string' ? p.detail.action : 'unknown',
    node: p.nodes?.[0] ?? null,
    afterSeconds,
    startedAfterSeconds: Math.round((afterSeconds - duration) * 1000) / 1000,
  };
}

/** Fault commands and steps from the runner's `fault-injecting`/`fault-injected`/`fault-restored`/`step` markers. */
export const faultInstantsMeasurement: Measurement = {
  name: 'fault-instants',
  describes: 'each fault command (started, returned, duration in seconds) with the target\'s last Lease renewal before it, and each timed step',
  needs: [],
  provides: ['faults', 'steps'],
  measure: ({ ctx, warn }) => {
    if (ctx.restoreMs === null) warn('no fault-restored marker: the fault was not undone during observation');
    return { faults: faultInstants(ctx), steps: ctx.steps.map((p) => stepInstant(p, ctx.faultMs)) };
  },
};
