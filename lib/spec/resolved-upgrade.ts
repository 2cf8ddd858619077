// A resolved experiment read back from an older run.json (`resolved`, lib/report/result-types.ts RunInfo), given the
// fields added since with the values the older rebootlab used, so old run directories still rebuild.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Fills, in place, what a resolved experiment written before issue 28 lacks: `cluster.workerLabels` ({}), `fault.scope`
 * (`node`), each step's `args` ({}), each workload's `requiredNodeLabels` ({}), `failReadiness` / `failLiveness`
 * (null) and its probes' `handler` (`httpGet`): what that rebootlab did. Leaves anything that is not an object alone
 * (the schema check names it). Returns `value`.
 */
export function upgradeResolvedExperiment(value: unknown): unknown {
  if (!isObj(value)) return value;
  if (isObj(value.cluster)) value.cluster.workerLabels ??= {};
  if (isObj(value.fault)) value.fault.scope ??= 'node';
  if (Array.isArray(value.steps)) for (const step of value.steps) if (isObj(step)) step.args ??= {};
  if (Array.isArray(value.workloads)) {
    for (const w of value.workloads) {
      if (!isObj(w)) continue;
      w.requiredNodeLabels ??= {};
      w.failReadiness ??= null;
      w.failLiveness ??= null;
      for (const probe of [w.readinessProbe, w.livenessProbe]) if (isObj(probe)) probe.handler ??= 'httpGet';
    }
  }
  return value;
}
