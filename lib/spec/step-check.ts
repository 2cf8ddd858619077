// Checks of `steps:` the schema cannot express: timing against the observation and the fault, undo steps after
// their step, node names, and each action's own fields (labels, pod selection, retry time) and providers.
import { parseDurationMs } from '../common/units.js';
import { clusterNodeNames } from './node-names.js';
import { labelKeyProblem, labelValueProblem, PROTECTED_NODE_LABELS } from './label-syntax.js';
import type { FieldPath } from './source.js';
import { FAULTS, FAULT_TYPES, faultRecord } from './faults.js';
import { orList, providerActions, PROVIDERS, type BackendName, type ProviderName } from './providers.js';
import { actionsTaking, STEP_ARG_FIELDS, stepArgsRule, stepRecord, type StepRecord } from './steps.js';

type Obj = Record<string, unknown>;
/** Reports one issue; `reads`: other fields a combining rule read (dropped when one is refused: semantic-check.ts). */
type Report = (path: FieldPath, message: string, atKey?: boolean, reads?: readonly FieldPath[]) => void;

/** One part of an equality-based label selector: `key=value` or `key==value` (value may be empty). */
const SELECTOR_PART = /^\s*([A-Za-z0-9._/-]+)\s*(=|==)\s*([A-Za-z0-9._-]*)\s*$/;

const durationMs = (value: unknown): number | null => (typeof value === 'string' ? parseDurationMs(value) : null);
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The label of a `label-node` (`key=value`) or `unlabel-node` (`key`) step: every problem, one line each. */
function checkLabel(step: Obj, set: boolean, at: (field: string) => FieldPath, report: Report): void {
  if (step.label === undefined) {
    report(at('action'), set ? 'label-node needs label: key=value, e.g. label: rebootlab.dev/pool=blue' : 'unlabel-node needs label: the key to remove, e.g. label: rebootlab.dev/pool');
    return;
  }
  if (typeof step.label !== 'string') return; // the schema check names the type
  const eq = step.label.indexOf('=');
  if (set && eq < 0) return report(at('label'), `"${step.label}" has no value; write key=value (an empty value is key=)`);
  if (!set && eq >= 0) return report(at('label'), `"${step.label}": ${String(step.action)} removes a key; write the key alone (${step.label.slice(0, eq)})`);
  const key = eq < 0 ? step.label : step.label.slice(0, eq);
  const problem = labelKeyProblem(key) ?? (eq < 0 ? null : labelValueProblem(step.label.slice(eq + 1)));
  if (problem) return report(at('label'), problem);
  if (PROTECTED_NODE_LABELS.includes(key)) report(at('label'), `${key} is read by the scheduler or by rebootlab itself; a step may not change it`);
}

/** The pods of an `evict-pods` / `drain` step: the selector's parts and a retry time that is a duration. */
function checkEviction(step: Obj, at: (field: string) => FieldPath, report: Report): void {
  if (typeof step.selector === 'string') {
    const bad = step.selector.split(',').find((part) => {
      const m = SELECTOR_PART.exec(part);
      return !m || labelKeyProblem(m[1]!) !== null || labelValueProblem(m[3]!) !== null;
    });
    if (bad !== undefined) report(at('selector'), `"${bad}" is not key=value; write e.g. "app=web" or "app=web,tier=front"`);
  }
}

/** The fault backend an experiment's `fault.backend` names (`agent`, `command`), or `provider`. */
function backendOf(backend: unknown): BackendName | 'provider' {
  if (backend === 'agent' || (isObj(backend) && 'agent' in backend)) return 'agent';
  if (isObj(backend) && 'command' in backend) return 'command';
  return 'provider';
}

/**
 * Steps: every one must run while the cluster is observed (before observe.duration with until: duration,
 * before observe.timeout otherwise), `restore` needs a fault that lasts, an undo step (`uncordon`,
 * `untaint-out-of-service`) needs an earlier step of the action it undoes on the same node, and a named node must be
 * one of the cluster's (lib/spec/node-names.ts). Each action's record (lib/spec/steps.ts) says which fields it takes:
 * `label` (required, a valid label, never one the scheduler or rebootlab reads), or `selector`, `namespace`,
 * `timeout`; and the node action it applies must be one the cluster's provider (with `fault.backend`) can do
 * (lib/spec/providers.ts): `restart-kubelet` not on kwok, on provider existing through the agent. The schema checks
 * action names and durations.
 */
export function checkSteps(steps: unknown, fault: Obj, observe: Obj, cluster: Obj, report: Report): void {
  if (!Array.isArray(steps)) return;
  const until = observe.until ?? 'recovered';
  const endMs = until === 'duration' ? durationMs(observe.duration) : (durationMs(observe.timeout) ?? 600_000);
  const nodes = clusterNodeNames(cluster);
  const provider = (typeof cluster.provider === 'string' && Object.hasOwn(PROVIDERS, cluster.provider) ? cluster.provider : 'kind') as ProviderName;
  const actions = providerActions(provider, backendOf(fault.backend));
  const timed = steps
    .map((step, index) => ({ step, index, afterMs: isObj(step) ? durationMs(step.after) : null }))
    .filter((s): s is { step: Obj; index: number; afterMs: number } => isObj(s.step) && s.afterMs !== null)
    .sort((a, b) => a.afterMs - b.afterMs || a.index - b.index);
  const done = new Set<string>();
  for (const { step, index, afterMs } of timed) {
    const at = (field: string): FieldPath => ['steps', index, field];
    const node = typeof step.node === 'string' ? step.node : 'the fault targets';
    const action = typeof step.action === 'string' ? step.action : '';
    if (endMs !== null && afterMs >= endMs) {
      report(at('after'), `${afterMs / 1000}s is not before the end of the observation (${until === 'duration' ? 'observe.duration' : 'observe.timeout'} ${endMs / 1000}s); the step would never run`, false, [['observe', until === 'duration' ? 'duration' : 'timeout']]);
    }
    const record: StepRecord | undefined = stepRecord(action);
    if (record !== undefined && 'endsFault' in record) {
      if (faultRecord(String(fault.type))?.duration === 'none') report(at('action'), `a ${String(fault.type)} is over at once; ${action} needs a fault that lasts (${FAULT_TYPES.filter((t) => FAULTS[t].duration !== 'none').join(', ')})`);
      const faultMs = durationMs(fault.duration);
      if (faultMs !== null && afterMs >= faultMs) report(at('after'), `${afterMs / 1000}s is not before the end of fault.duration (${faultMs / 1000}s); the fault is restored by then`, false, [['fault', 'duration']]);
    }
    const needs = record !== undefined && 'undoes' in record ? record.undoes : undefined;
    if (needs && !done.has(`${needs} ${node}`)) {
      // A step of that action whose `after` is refused is not in `timed`: it may well be the earlier one.
      const candidates = steps.flatMap((s, i) => (isObj(s) && s.action === needs ? [['steps', i, 'after']] : []));
      report(at('action'), `${action} needs an earlier ${needs} step on ${node}`, false, candidates);
    }
    if (action) done.add(`${action} ${node}`);
    if (typeof step.node === 'string' && step.node.includes('control-plane') && fault.allowControlPlane !== true) {
      report(at('node'), `"${step.node}" is a control-plane node; set fault.allowControlPlane: true to act on it`);
    } else if (typeof step.node === 'string' && nodes && !nodes.has(step.node)) {
      report(at('node'), `no node "${step.node}" in ${nodes.provider} cluster "${nodes.cluster}" (${nodes.workers} workers); its nodes are ${nodes.describe()}`);
    }
    for (const field of Object.keys(STEP_ARG_FIELDS) as (keyof typeof STEP_ARG_FIELDS)[]) {
      const taking = actionsTaking(field);
      if (step[field] !== undefined && record !== undefined && !taking.includes(action as never)) report(at(field), `is for ${orList(taking).replace(/ or (?=[^ ]+$)/, ' and ')} steps, not ${action}`, true);
    }
    const rule = stepArgsRule(action);
    if (rule !== undefined && 'label' in rule) checkLabel(step, rule.label === 'set', at, report);
    if (rule !== undefined && 'pods' in rule) checkEviction(step, at, report);
    if (record !== undefined && 'nodeAction' in record && !actions.includes(record.nodeAction)) {
      const agentDoes = provider === 'existing' && providerActions(provider, 'agent').includes(record.nodeAction);
      report(at('action'), agentDoes
        ? `${action} on provider existing runs through the agent; set fault.backend: agent`
        : `${action} cannot run on provider ${provider}${provider === 'kwok' ? ' (simulated nodes: no machine, kubelet or runtime)' : ''}; use provider kind`);
    }
  }
}
