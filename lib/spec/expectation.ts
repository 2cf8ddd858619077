// The `expect:` assertion language of experiment files: grammar, field vocabulary and parser.

/** Pod outcomes an expectation may name; see PodOutcome for each definition. */
export const POD_OUTCOMES = [
  'restarted-in-place',
  'evicted-replaced',
  'evicted-lost',
  'stuck-terminating',
  'not-evicted',
  'pending-unschedulable',
  'unaffected',
] as const;
/**
 * What happened to one pod that existed when the fault was injected. Exactly one per pod, decided by the analyzer
 * (lib/analyze/outcome.ts) at the end of the journal in this order:
 * - `evicted-replaced`: the pod got a deletionTimestamp or was deleted after the fault, and a replacement
 *   pod of the same workload (created after the fault) became Ready.
 * - `pending-unschedulable`: the pod was evicted/deleted and its replacement exists but never became Ready
 *   and is still phase Pending at the end (e.g. FailedScheduling on volume node affinity, case C7); also a
 *   pod that was itself still Pending at the end and never Ready after the fault.
 * - `stuck-terminating`: the pod has a deletionTimestamp, is still listed at the end, has no replacement and
 *   has a controller owner that waits for the deletion to finish (a StatefulSet pod on a node that stays
 *   down, case C2).
 * - `evicted-lost`: the pod was evicted and nothing replaced it, and nothing will: it was deleted, or it has no
 *   controller owner (a standalone Pod, gone for good even while still listed as Terminating).
 * - `restarted-in-place`: same UID at the end, never given a deletionTimestamp, its containers' total
 *   restartCount went up (kubelet restarted it on the same node after a reboot).
 * - `not-evicted`: same UID, no deletionTimestamp, no restart, but at the end the pod is not Ready or its node
 *   is not Ready (a DaemonSet pod on a down node, which tolerates unreachable forever, case C3).
 * - `unaffected`: same UID, no deletionTimestamp, no restart, pod and node Ready at the end (it may have been
 *   marked NotReady meanwhile: see `notReadyAfterSeconds`).
 */
export type PodOutcome = (typeof POD_OUTCOMES)[number];

/** Value type of an assertable field; `list` fields are only counted (`count(predictions.missed) == 0`). */
export type FieldType = 'number' | 'boolean' | 'outcome' | 'string' | 'list';

/**
 * Fields of `pods[...]`; `...Seconds` are seconds since time zero (the start of the first fault command). The
 * `endpoint...` fields follow the pod's endpoint in its workload's Service (EndpointSlices) and are null when the
 * workload has no Service.
 */
export const POD_FIELDS = {
  outcome: 'outcome',
  restartCountBefore: 'number',
  restartCountAfter: 'number',
  restartCountDelta: 'number',
  notReadyAfterSeconds: 'number',
  readyAgainAfterSeconds: 'number',
  evictedAfterSeconds: 'number',
  deletedAfterSeconds: 'number',
  replacementCreatedAfterSeconds: 'number',
  replacementScheduledAfterSeconds: 'number',
  replacementReadyAfterSeconds: 'number',
  unreachableTolerationSeconds: 'number',
  notReadyTolerationSeconds: 'number',
  nodeChanged: 'boolean',
  podIPChanged: 'boolean',
  readyAtEnd: 'boolean',
  phaseWhenNotReady: 'string',
  endpointReadyAtFault: 'boolean',
  endpointNotReadyAfterSeconds: 'number',
  endpointTerminatingAfterSeconds: 'number',
  endpointRemovedAfterSeconds: 'number',
  endpointReadyAgainAfterSeconds: 'number',
} as const satisfies Record<string, FieldType>;

/** Fields of `node` (the fault target) and `nodes[name=x]`; `...Seconds` are seconds since time zero (the start of the first fault command). */
export const NODE_FIELDS = {
  notReadyAfterSeconds: 'number',
  notReadyReceivedAfterSeconds: 'number',
  readyAgainAfterSeconds: 'number',
  noExecuteTaintAfterSeconds: 'number',
  outOfServiceTaintAfterSeconds: 'number',
  noScheduleTaintAfterSeconds: 'number',
  lastLeaseRenewAfterSeconds: 'number',
  deletedAfterSeconds: 'number',
  recreatedAfterSeconds: 'number',
  notReadyStatus: 'string',
  internalIPChanged: 'boolean',
  readyAtEnd: 'boolean',
} as const satisfies Record<string, FieldType>;

/**
 * Fields of `workloads.<name>`; counts of pods, spans in seconds, instants in seconds since the fault. The
 * `...Endpoint...` fields come from the workload Service's EndpointSlices and are null without a Service.
 */
export const WORKLOAD_FIELDS = {
  desired: 'number',
  readyAtFault: 'number',
  minimumReady: 'number',
  readyAtEnd: 'number',
  unavailableSeconds: 'number',
  apiUnavailableSeconds: 'number',
  unavailableAfterSeconds: 'number',
  recoveredAfterSeconds: 'number',
  recovered: 'boolean',
  dataProbe: 'string',
  readyEndpointsAtFault: 'number',
  minimumReadyEndpoints: 'number',
  noReadyEndpointSeconds: 'number',
  noReadyEndpointAfterSeconds: 'number',
} as const satisfies Record<string, FieldType>;

/**
 * Fields of `probes.<name>` (a traffic prober, lib/analyze/probe-timeline.ts): request counts, `errorRatio` (0…1),
 * `errorRatioWhileFailing` (0…1, among requests sent between the first and the last failure), the blackhole (requests
 * failed because an endpoint stayed ready for a pod on a down node: first/last such failure in seconds since time zero,
 * and its error ratio 0…1),
 * `errorSeconds` (whole seconds with a failed request), first/last failed request in seconds since time zero,
 * latency percentiles of answered requests in milliseconds during the fault.
 */
export const PROBE_FIELDS = {
  sent: 'number',
  answered: 'number',
  errors: 'number',
  errorRatio: 'number',
  errorRatioWhileFailing: 'number',
  blackholeFromSeconds: 'number',
  blackholeToSeconds: 'number',
  blackholeErrorRatio: 'number',
  errorSeconds: 'number',
  firstErrorAfterSeconds: 'number',
  lastErrorAfterSeconds: 'number',
  latencyP50MsDuring: 'number',
  latencyP99MsDuring: 'number',
  backends: 'number',
} as const satisfies Record<string, FieldType>;

/** Fields of `run`. */
export const RUN_FIELDS = {
  recovered: 'boolean',
  faultRestoredAfterSeconds: 'number',
  endAfterSeconds: 'number',
} as const satisfies Record<string, FieldType>;

/**
 * Lists of `predictions` (the causal model's items, lib/analyze/predict.ts), usable only inside count():
 * `missed` (outside its window, happened though predicted not to, or not observed although its window closed),
 * `held`, `open` (window still open at the end of the journal), `notModelled`, `items` (all).
 */
export const PREDICTION_FIELDS = {
  missed: 'list',
  held: 'list',
  open: 'list',
  notModelled: 'list',
  items: 'list',
} as const satisfies Record<string, FieldType>;

/** A field name of `predictions`. */
export type PredictionField = keyof typeof PREDICTION_FIELDS;

/**
 * Lists of `forecast` (the forecast frozen before the fault, lib/analyze/forecast), usable only inside count():
 * `missed` (observed outside every outcome's window, or not observed though it always happens and its windows
 * closed), `held`, `open` (undecided: a window still open, or not observable in the run), `items` (all).
 */
export const FORECAST_FIELDS = {
  missed: 'list',
  held: 'list',
  open: 'list',
  items: 'list',
} as const satisfies Record<string, FieldType>;

/** A field name of `forecast`. */
export type ForecastField = keyof typeof FORECAST_FIELDS;

/** A field name of `pods[...]`. */
export type PodField = keyof typeof POD_FIELDS;
/** A field name of `node` / `nodes[name=x]`. */
export type NodeField = keyof typeof NODE_FIELDS;
/** A field name of `workloads.<name>`. */
export type WorkloadField = keyof typeof WORKLOAD_FIELDS;
/** A field name of `run`. */
export type RunField = keyof typeof RUN_FIELDS;
/** A field name of `probes.<name>`. */
export type ProbeField = keyof typeof PROBE_FIELDS;

/**
 * Keys allowed inside `pods[...]`: `workload`, `name`, `namespace`, `node` (the node before the fault), and
 * `target` (`true`: the pod ran on a fault target when the fault was injected; `false`: it did not).
 */
export const POD_SELECTOR_KEYS = ['workload', 'name', 'namespace', 'node', 'target'] as const;
/** The key=value pairs inside `pods[...]`; every given key must match (`target` is `true` or `false`). */
export type PodSelector = Partial<Record<(typeof POD_SELECTOR_KEYS)[number], string>>;
/** Keys allowed inside `nodes[...]`: `name`, and `target` (`true`/`false`: a fault target or not). */
export const NODE_SELECTOR_KEYS = ['name', 'target'] as const;

/** What an expectation is about. `node` with `name: null` is the (first) fault target. */
export type ExpectationSubject =
  | { scope: 'pods'; selector: PodSelector; field: PodField }
  /**
   * `node.<field>`: `name` null, `target` absent (the first fault target). `nodes[name=x]`: that node.
   * `nodes[target=true]` (optionally with `name`): every node whose fault-target flag equals `target`.
   */
  | { scope: 'node'; name: string | null; target?: boolean; field: NodeField }
  | { scope: 'workload'; name: string; field: WorkloadField }
  | { scope: 'probe'; name: string; field: ProbeField }
  | { scope: 'run'; field: RunField }
  /** `count(predictions.<list>)`: the number of prediction items in that list. */
  | { scope: 'predictions'; field: PredictionField }
  /** `count(forecast.<list>)`: the number of forecast items in that list. */
  | { scope: 'forecast'; field: ForecastField };

/** A literal on the right-hand side; `null` asserts "did not happen". */
export type ExpectedValue = number | string | boolean | null;
/** Comparison operators; ordering operators need numbers. */
export type ComparisonOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** `op value`, or `in [from, to]` (closed interval, same unit as the field). */
export type Comparison = { op: ComparisonOp; value: ExpectedValue } | { op: 'in'; from: number; to: number };

/**
 * Aggregate over the selected values, e.g. `p95(...)`: across repeats of a matrix (issue 4); within one run,
 * across the values the subject selects (several pods or nodes, or the single value). `count(...)` is the
 * number of selected values that happened: neither null nor false (e.g. how many target nodes got a
 * NoExecute taint: `count(nodes[target=true].noExecuteTaintAfterSeconds) <= 1`); it takes any field type.
 */
export type Aggregate = { fn: 'percentile'; percentile: number } | { fn: 'min' | 'max' | 'mean' | 'median' | 'count' };

/** One parsed assertion. */
export interface Expectation {
  /** The source text, trimmed. */
  text: string;
  subject: ExpectationSubject;
  aggregate: Aggregate | null;
  comparison: Comparison;
}

/** Result of `parseExpectation`: the expectation, or a one-line message naming what is wrong and what is allowed. */
export type ParseExpectationResult = { ok: true; expectation: Expectation } | { ok: false; message: string };

const AGGREGATE_RE = /^(p(\d+(?:\.\d+)?)|min|max|mean|median|count)\((.*)\)$/;
const RANGE_RE = /^\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]$/;
const NAME = '[A-Za-z0-9][A-Za-z0-9._-]*';

const fail = (message: string): ParseExpectationResult => ({ ok: false, message });
const allowed = (fields: object): string => Object.keys(fields).join(', ');
/** Whether `name` is a field of `fields` itself: `__proto__`, `constructor` or `hasOwnProperty` are no field. */
const isField = (fields: object, name: string): boolean => Object.hasOwn(fields, name);

/**
 * Longest expectation text, characters. The longest shipped one is under 100; a bound keeps every step of parsing
 * and every message short whatever a file holds.
 */
export const MAX_EXPECTATION_CHARS = 500;

/**
 * The values a string field can take, so that a comparison with any other value (`dataProbe == keptt`) is an
 * input error instead of an expectation that can never hold. Pod phases are core/v1 PodPhase; a node's NotReady
 * status is its Ready condition's status (lib/analyze/node-timeline.ts); the data probe's verdicts are
 * lib/analyze/types.ts WorkloadTimeline.dataProbe.
 */
export const STRING_FIELD_VALUES: { readonly [scope: string]: { readonly [field: string]: readonly string[] } } = {
  pods: { phaseWhenNotReady: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] },
  node: { notReadyStatus: ['Unknown', 'False'] },
  workload: { dataProbe: ['kept', 'lost', 'unreadable'] },
};

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>'] as const;
const OPERATOR_CHARS = new Set(['=', '!', '<', '>']);
const WORD = /[A-Za-z0-9_]/;

/**
 * Splits `subject op value` in one left-to-right pass (a regular expression with `.*?\s*` backtracked for seconds
 * on long runs of spaces): the operator is the first run of `=!<>` characters outside `[...]` (selectors use a single
 * `=`), or the word `in` between spaces or before `[`. A run that is no operator (`=>`, `=`) is named as such.
 */
function splitComparison(text: string): { path: string; op: ComparisonOp | 'in'; rhs: string } | { error: string } {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    if (depth > 0) continue;
    if (OPERATOR_CHARS.has(c)) {
      let end = i;
      while (end < text.length && OPERATOR_CHARS.has(text[end]!)) end++;
      const token = text.slice(i, end);
      if (!(OPERATORS as readonly string[]).includes(token)) return { error: `"${token}" is not an operator` };
      return { path: text.slice(0, i).trim(), op: token as ComparisonOp, rhs: text.slice(end).trim() };
    }
    if (c === 'i' && text[i + 1] === 'n' && i > 0 && /\s|\)/.test(text[i - 1]!) && (i + 2 === text.length || /\s|\[/.test(text[i + 2]!)) && !WORD.test(text[i + 2] ?? '')) {
      return { path: text.slice(0, i).trim(), op: 'in', rhs: text.slice(i + 2).trim() };
    }
  }
  return { error: 'no operator' };
}

function parseValue(text: string): ExpectedValue | undefined {
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(text);
  if (quoted) return quoted[1] ?? quoted[2] ?? '';
  if (/^[A-Za-z][A-Za-z0-9-]*$/.test(text)) return text;
  return undefined;
}

function parseSubject(path: string): ExpectationSubject | string {
  let m: RegExpExecArray | null;
  if ((m = /^pods\[([^\]]*)\]\.(\w+)$/.exec(path))) {
    const selector: PodSelector = {};
    for (const part of m[1].split(',').map((s) => s.trim())) {
      const kv = new RegExp(`^(\\w+)\\s*=\\s*(${NAME})$`).exec(part);
      if (!kv) return `pods[${m[1]}]: write pods[key=value], keys: ${POD_SELECTOR_KEYS.join(', ')}`;
      if (!(POD_SELECTOR_KEYS as readonly string[]).includes(kv[1])) return `pods[...]: unknown key "${kv[1]}"; allowed: ${POD_SELECTOR_KEYS.join(', ')}`;
      if (kv[1] === 'target' && kv[2] !== 'true' && kv[2] !== 'false') return `pods[...]: target is true or false, got "${kv[2]}"`;
      selector[kv[1] as keyof PodSelector] = kv[2];
    }
    if (!isField(POD_FIELDS, m[2])) return `pods[...]: unknown field "${m[2]}"; allowed: ${allowed(POD_FIELDS)}`;
    return { scope: 'pods', selector, field: m[2] as PodField };
  }
  if ((m = /^node\.(\w+)$/.exec(path))) {
    if (!isField(NODE_FIELDS, m[1])) return `node: unknown field "${m[1]}"; allowed: ${allowed(NODE_FIELDS)}`;
    return { scope: 'node', name: null, field: m[1] as NodeField };
  }
  if ((m = /^nodes\[([^\]]*)\]\.(\w+)$/.exec(path))) {
    let name: string | null = null;
    let target: boolean | undefined;
    for (const part of m[1].split(',').map((s) => s.trim())) {
      const kv = new RegExp(`^(\\w+)\\s*=\\s*(${NAME})$`).exec(part);
      if (!kv) return `nodes[${m[1]}]: write nodes[key=value], keys: ${NODE_SELECTOR_KEYS.join(', ')}`;
      if (kv[1] === 'name') name = kv[2];
      else if (kv[1] === 'target') {
        if (kv[2] !== 'true' && kv[2] !== 'false') return `nodes[...]: target is true or false, got "${kv[2]}"`;
        target = kv[2] === 'true';
      } else return `nodes[...]: unknown key "${kv[1]}"; allowed: ${NODE_SELECTOR_KEYS.join(', ')}`;
    }
    if (!isField(NODE_FIELDS, m[2])) return `node: unknown field "${m[2]}"; allowed: ${allowed(NODE_FIELDS)}`;
    return target === undefined ? { scope: 'node', name, field: m[2] as NodeField } : { scope: 'node', name, target, field: m[2] as NodeField };
  }
  if ((m = new RegExp(`^workloads\\.(${NAME}?)\\.(\\w+)$`).exec(path))) {
    if (!isField(WORKLOAD_FIELDS, m[2])) return `workloads.${m[1]}: unknown field "${m[2]}"; allowed: ${allowed(WORKLOAD_FIELDS)}`;
    return { scope: 'workload', name: m[1], field: m[2] as WorkloadField };
  }
  if ((m = new RegExp(`^probes\\.(${NAME}?)\\.(\\w+)$`).exec(path))) {
    if (!isField(PROBE_FIELDS, m[2])) return `probes.${m[1]}: unknown field "${m[2]}"; allowed: ${allowed(PROBE_FIELDS)}`;
    return { scope: 'probe', name: m[1], field: m[2] as ProbeField };
  }
  if ((m = /^run\.(\w+)$/.exec(path))) {
    if (!isField(RUN_FIELDS, m[1])) return `run: unknown field "${m[1]}"; allowed: ${allowed(RUN_FIELDS)}`;
    return { scope: 'run', field: m[1] as RunField };
  }
  if ((m = /^predictions\.(\w+)$/.exec(path))) {
    if (!isField(PREDICTION_FIELDS, m[1])) return `predictions: unknown field "${m[1]}"; allowed: ${allowed(PREDICTION_FIELDS)} (inside count(), e.g. count(predictions.missed) == 0)`;
    return { scope: 'predictions', field: m[1] as PredictionField };
  }
  if ((m = /^forecast\.(\w+)$/.exec(path))) {
    if (!(m[1] in FORECAST_FIELDS)) return `forecast: unknown field "${m[1]}"; allowed: ${allowed(FORECAST_FIELDS)} (inside count(), e.g. count(forecast.missed) == 0)`;
    return { scope: 'forecast', field: m[1] as ForecastField };
  }
  const head = path.split(/[.[]/)[0];
  return `unknown subject "${head}" in "${path}"; allowed: pods[key=value].<field>, node.<field>, nodes[name=x|target=true].<field>, workloads.<name>.<field>, probes.<name>.<field>, run.<field>, count(predictions.<list>), count(forecast.<list>)`;
}

function fieldType(subject: ExpectationSubject): FieldType {
  switch (subject.scope) {
    case 'pods':
      return POD_FIELDS[subject.field];
    case 'node':
      return NODE_FIELDS[subject.field];
    case 'workload':
      return WORKLOAD_FIELDS[subject.field];
    case 'probe':
      return PROBE_FIELDS[subject.field];
    case 'run':
      return RUN_FIELDS[subject.field];
    case 'predictions':
      return PREDICTION_FIELDS[subject.field];
    case 'forecast':
      return FORECAST_FIELDS[subject.field];
  }
}

/**
 * Parse one assertion, e.g. `pods[workload=web].outcome == restarted-in-place`,
 * `node.notReadyAfterSeconds in [15, 25]`, `workloads.web.unavailableSeconds < 60`,
 * `p95(workloads.web.unavailableSeconds) < 70`, `count(nodes[target=true].noExecuteTaintAfterSeconds) <= 1`,
 * `pods[target=true,workload=agent].outcome == restarted-in-place`, `count(predictions.missed) == 0`. Operators: == != < <= > >= and `in [a, b]` (closed, numbers
 * only). Values: numbers (in the field's unit, seconds for `...Seconds`), true/false, null ("did not happen"),
 * outcome names, or quoted strings. Never throws: a bad text gives `{ ok: false, message }`, one line naming
 * the unknown part and what is allowed.
 */
export function parseExpectation(text: string): ParseExpectationResult {
  const trimmed = text.trim();
  if (trimmed.length > MAX_EXPECTATION_CHARS) return fail(`is ${trimmed.length} characters; an expectation is at most ${MAX_EXPECTATION_CHARS}`);
  const example = 'write <subject>.<field> <op> <value>, e.g. "node.notReadyAfterSeconds in [15, 25]"';
  const cmp = splitComparison(trimmed);
  if ('error' in cmp) return fail(cmp.error === 'no operator' ? `cannot parse "${trimmed}"; ${example}` : `${cmp.error} in "${trimmed}"; write ==, !=, <, <=, >, >= or in`);
  let path = cmp.path;
  const { op, rhs } = cmp;
  if (path === '') return fail(`nothing before ${op} in "${trimmed}"; ${example}`);
  if (rhs === '') return fail(`nothing after ${op} in "${trimmed}"; ${example}`);
  let aggregate: Aggregate | null = null;
  const agg = AGGREGATE_RE.exec(path);
  if (agg) {
    if (agg[2] !== undefined) {
      const percentile = Number(agg[2]);
      if (percentile <= 0 || percentile >= 100) return fail(`${agg[1]}: percentile must be between 0 and 100`);
      aggregate = { fn: 'percentile', percentile };
    } else aggregate = { fn: agg[1] as 'min' | 'max' | 'mean' | 'median' | 'count' };
    path = agg[3].trim();
  } else if (/^\w+\(/.test(path)) {
    return fail(`unknown aggregate "${path.split('(')[0]}"; allowed: pNN (e.g. p95), min, max, mean, median, count`);
  }
  const subject = parseSubject(path);
  if (typeof subject === 'string') return fail(subject);
  const type = fieldType(subject);
  if (type === 'list' && aggregate?.fn !== 'count') return fail(`${path} is a list of ${subject.scope === 'forecast' ? 'forecast items' : 'predictions'}; count it, e.g. count(${path}) == 0`);
  if (aggregate && aggregate.fn !== 'count' && type !== 'number') return fail(`${path}: ${aggregate.fn === 'percentile' ? `p${aggregate.percentile}` : aggregate.fn}() needs a number field`);
  const numeric = type === 'number' || aggregate?.fn === 'count';
  let comparison: Comparison;
  if (op === 'in') {
    if (!numeric) return fail(`${path} is ${describeFieldType(type)}; "in [from, to]" needs a number field`);
    const range = RANGE_RE.exec(rhs);
    if (!range) return fail(`"in" needs a range [from, to], got ${rhs}`);
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (from > to) return fail(`range [${from}, ${to}] is empty; write [low, high]`);
    comparison = { op: 'in', from, to };
  } else {
    if (op !== '==' && op !== '!=' && !numeric) return fail(`${op} compares numbers, and ${path} is ${describeFieldType(type)}; use == or !=`);
    const value = parseValue(rhs);
    if (value === undefined) return fail(`cannot read value ${rhs}; write a number, true, false, null, a name or a quoted string`);
    if (aggregate?.fn === 'count') {
      if (typeof value !== 'number') return fail(`count(${path}) is a number; got ${rhs}`);
    } else if (value !== null) {
      if (type === 'outcome' && !(POD_OUTCOMES as readonly unknown[]).includes(value)) return fail(`unknown outcome "${String(value)}"; allowed: ${POD_OUTCOMES.join(', ')}`);
      if (type === 'number' && typeof value !== 'number') return fail(`${path} is a number (seconds or a count); got ${rhs}`);
      if (type === 'boolean' && typeof value !== 'boolean') return fail(`${path} is true or false; got ${rhs}`);
      const values = STRING_FIELD_VALUES[subject.scope]?.[subject.field];
      if (type === 'string' && values && !values.includes(String(value))) return fail(`${path} is never ${JSON.stringify(value)}; its values: ${values.join(', ')} (or null)`);
    }
    if ((op !== '==' && op !== '!=') && typeof value !== 'number') return fail(`${op} needs a number; got ${rhs}`);
    comparison = { op, value };
  }
  return { ok: true, expectation: { text: trimmed, subject, aggregate, comparison } };
}

function describeFieldType(type: FieldType): string {
  return { number: 'a number', boolean: 'true or false', outcome: 'an outcome', string: 'a string', list: 'a list' }[type];
}
