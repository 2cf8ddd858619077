// The `expect:` assertion language of experiment files: grammar, field vocabulary and parser.

/** Pod outcomes an expectation may name; see PodOutcome for each definition. */
export const POD_OUTCOMES = [
  'restarted-in-place',
  'evicted-replaced',
  'evicted-lost',
  'stuck-terminating',
  'not-evicted',
  'terminated-replaced',
  'terminated-lost',
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
 * - `terminated-replaced`: never given a deletionTimestamp, but its kubelet ended it after the fault: its phase turned
 *   Failed, or Succeeded for a pod its controller would have restarted (not a Job's), e.g. rejected at admission by a
 *   restarted kubelet (Event NodeAffinity, case C17: on v1.34 its container, stopped with SIGTERM, exits 0 and the
 *   pod ends Succeeded); also a pod its kubelet ended with DisruptionTarget reason TerminationByKubelet (a graceful
 *   node shutdown) before any deletionTimestamp, whoever deleted the ended object later (its DaemonSet controller, the
 *   taint eviction controller); and a replacement of its controller became Ready. `terminated-lost`: the same without a
 *   Ready replacement.
 * - `restarted-in-place`: same UID at the end, never given a deletionTimestamp, its containers' total
 *   restartCount went up (kubelet restarted it on the same node after a reboot).
 * - `not-evicted`: same UID, no deletionTimestamp, no restart, but at the end the pod is not Ready or its node
 *   is not Ready (a DaemonSet pod on a down node, which tolerates unreachable forever, case C3).
 * - `unaffected`: same UID, no deletionTimestamp, no restart, pod and node Ready at the end (it may have been
 *   marked NotReady meanwhile: see `notReadyAfterSeconds`).
 */
export type PodOutcome = (typeof POD_OUTCOMES)[number];

/**
 * Value type of an assertable field: `instant` is seconds since time zero (a point on the run's time axis: where it
 * happened), `number` any other number (a span in seconds, a count, a ratio, milliseconds); `list` fields are only
 * counted (`count(predictions.missed) == 0`).
 */
export type FieldType = 'instant' | 'number' | 'boolean' | 'outcome' | 'string' | 'list';

/** Whether values of `type` are numbers (`instant` included): what ordering operators, `in` and aggregates need. */
export function isNumberField(type: FieldType): boolean {
  return type === 'number' || type === 'instant';
}

/**
 * Fields of `pods[...]`; instants are seconds since time zero (the start of the first fault command). The
 * `endpoint...` fields follow the pod's endpoint in its workload's Service (EndpointSlices) and are null when the
 * workload has no Service.
 */
export const POD_FIELDS = {
  outcome: 'outcome',
  restartCountBefore: 'number',
  restartCountAfter: 'number',
  restartCountDelta: 'number',
  notReadyAfterSeconds: 'instant',
  readyAgainAfterSeconds: 'instant',
  evictedAfterSeconds: 'instant',
  deletedAfterSeconds: 'instant',
  terminatedAfterSeconds: 'instant',
  terminatedPhase: 'string',
  terminatedReason: 'string',
  replacementCreatedAfterSeconds: 'instant',
  replacementScheduledAfterSeconds: 'instant',
  replacementReadyAfterSeconds: 'instant',
  unreachableTolerationSeconds: 'number',
  notReadyTolerationSeconds: 'number',
  nodeChanged: 'boolean',
  podIPChanged: 'boolean',
  uidChanged: 'boolean',
  containersChanged: 'boolean',
  readyAtEnd: 'boolean',
  phaseWhenNotReady: 'string',
  evictionApiOutcome: 'string',
  evictionApiRefusals: 'number',
  endpointReadyAtFault: 'boolean',
  endpointNotReadyAfterSeconds: 'instant',
  endpointTerminatingAfterSeconds: 'instant',
  endpointRemovedAfterSeconds: 'instant',
  endpointReadyAgainAfterSeconds: 'instant',
} as const satisfies Record<string, FieldType>;

/** Fields of `node` (the fault target) and `nodes[name=x]`; instants are seconds since time zero (the start of the first fault command). */
export const NODE_FIELDS = {
  notReadyAfterSeconds: 'instant',
  notReadyReceivedAfterSeconds: 'instant',
  readyAgainAfterSeconds: 'instant',
  noExecuteTaintAfterSeconds: 'instant',
  outOfServiceTaintAfterSeconds: 'instant',
  noScheduleTaintAfterSeconds: 'instant',
  lastLeaseRenewAfterSeconds: 'instant',
  deletedAfterSeconds: 'instant',
  recreatedAfterSeconds: 'instant',
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
  unavailableAfterSeconds: 'instant',
  recoveredAfterSeconds: 'instant',
  recovered: 'boolean',
  dataProbe: 'string',
  readyEndpointsAtFault: 'number',
  minimumReadyEndpoints: 'number',
  noReadyEndpointSeconds: 'number',
  noReadyEndpointAfterSeconds: 'instant',
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
  blackholeFromSeconds: 'instant',
  blackholeToSeconds: 'instant',
  blackholeErrorRatio: 'number',
  errorSeconds: 'number',
  firstErrorAfterSeconds: 'instant',
  lastErrorAfterSeconds: 'instant',
  latencyP50MsDuring: 'number',
  latencyP99MsDuring: 'number',
  backends: 'number',
} as const satisfies Record<string, FieldType>;

/**
 * Fields of `jobs.<name>` (a Job workload, lib/analyze/jobs.ts): its status counts at the end (batch/v1 JobStatus:
 * active, ready, failed, succeeded, terminating), its conditions (`complete`: Complete=True; `jobFailed`:
 * Failed=True, with `failedReason`, e.g. BackoffLimitExceeded), and `backoffSeconds`: the longest wait of a
 * replacement after its pod could be replaced (mostly the Job controller's pod failure backoff), seconds.
 */
export const JOB_FIELDS = {
  active: 'number',
  ready: 'number',
  failed: 'number',
  succeeded: 'number',
  terminating: 'number',
  backoffSeconds: 'number',
  complete: 'boolean',
  jobFailed: 'boolean',
  failedReason: 'string',
} as const satisfies Record<string, FieldType>;

/** Fields of `run`. */
export const RUN_FIELDS = {
  recovered: 'boolean',
  faultRestoredAfterSeconds: 'instant',
  endAfterSeconds: 'instant',
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

/**
 * Every scope an expectation can be about and its fields with their types: the one declaration of each measured
 * field. The parser below reads it, and each measurement's value map is typed by it (`Record<FieldOf<'pods'>, …>` in
 * lib/analyze/measurements/), so a field declared here without a value is a compile error there.
 */
export const EXPECTATION_FIELDS = {
  pods: POD_FIELDS,
  node: NODE_FIELDS,
  workload: WORKLOAD_FIELDS,
  probe: PROBE_FIELDS,
  job: JOB_FIELDS,
  run: RUN_FIELDS,
  predictions: PREDICTION_FIELDS,
  forecast: FORECAST_FIELDS,
} as const satisfies Record<string, Record<string, FieldType>>;

/** A scope of expectations: `pods`, `node`, `workload`, `probe`, `job`, `run`, `predictions`, `forecast`. */
export type ExpectationScope = keyof typeof EXPECTATION_FIELDS;
/** A field name of scope `S`. */
export type FieldOf<S extends ExpectationScope> = keyof (typeof EXPECTATION_FIELDS)[S] & string;

/** A field name of `predictions`. */
export type PredictionField = FieldOf<'predictions'>;
/** A field name of `forecast`. */
export type ForecastField = FieldOf<'forecast'>;
/** A field name of `pods[...]`. */
export type PodField = FieldOf<'pods'>;
/** A field name of `node` / `nodes[name=x]`. */
export type NodeField = FieldOf<'node'>;
/** A field name of `workloads.<name>`. */
export type WorkloadField = FieldOf<'workload'>;
/** A field name of `run`. */
export type RunField = FieldOf<'run'>;
/** A field name of `probes.<name>`. */
export type ProbeField = FieldOf<'probe'>;
/** A field name of `jobs.<name>`. */
export type JobField = FieldOf<'job'>;

/** The type of `field` in `scope`, or undefined when the scope has no such own field (`toString` is no field). */
export function fieldTypeOf(scope: ExpectationScope, field: string): FieldType | undefined {
  const fields: Readonly<Record<string, FieldType>> = EXPECTATION_FIELDS[scope];
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

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
  | { scope: 'job'; name: string; field: JobField }
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

/** How an object of a subject form is named: not at all (`node.`), by `[key=value,…]`, or by `.<name>.`. */
type Address = { by: 'none' } | { by: 'selector'; keys: readonly string[] } | { by: 'name' };

/** One way to write a subject: its head word, how it names an object, the scope it reads, and how errors call it. */
interface SubjectForm {
  head: string;
  scope: ExpectationScope;
  address: Address;
  /** How it is written, for the "unknown subject" message. */
  syntax: string;
  /** How an unknown-field message names the subject (`pods[...]`, `workloads.web`), from the object's name. */
  label(name: string): string;
  /** Said after the allowed fields when the field is unknown. */
  hint?: string;
  /** The subject for an own field of the scope, from the selector's pairs (validated) or the object's name. */
  subject(address: { selector: Record<string, string>; name: string }, field: string): ExpectationSubject;
}

/** The subject forms, in the order the parser tries them (each head is distinct). */
const SUBJECT_FORMS: readonly SubjectForm[] = [
  {
    head: 'pods', scope: 'pods', address: { by: 'selector', keys: POD_SELECTOR_KEYS }, syntax: 'pods[key=value].<field>', label: () => 'pods[...]',
    subject: ({ selector }, field) => ({ scope: 'pods', selector: selector as PodSelector, field: field as PodField }),
  },
  {
    head: 'node', scope: 'node', address: { by: 'none' }, syntax: 'node.<field>', label: () => 'node',
    subject: (_, field) => ({ scope: 'node', name: null, field: field as NodeField }),
  },
  {
    head: 'nodes', scope: 'node', address: { by: 'selector', keys: NODE_SELECTOR_KEYS }, syntax: 'nodes[name=x|target=true].<field>', label: () => 'node',
    subject: ({ selector }, field) => {
      const name = Object.hasOwn(selector, 'name') ? selector.name! : null;
      return Object.hasOwn(selector, 'target')
        ? { scope: 'node', name, target: selector.target === 'true', field: field as NodeField }
        : { scope: 'node', name, field: field as NodeField };
    },
  },
  {
    head: 'workloads', scope: 'workload', address: { by: 'name' }, syntax: 'workloads.<name>.<field>', label: (name) => `workloads.${name}`,
    subject: ({ name }, field) => ({ scope: 'workload', name, field: field as WorkloadField }),
  },
  {
    head: 'probes', scope: 'probe', address: { by: 'name' }, syntax: 'probes.<name>.<field>', label: (name) => `probes.${name}`,
    subject: ({ name }, field) => ({ scope: 'probe', name, field: field as ProbeField }),
  },
  {
    head: 'jobs', scope: 'job', address: { by: 'name' }, syntax: 'jobs.<name>.<field>', label: (name) => `jobs.${name}`,
    subject: ({ name }, field) => ({ scope: 'job', name, field: field as JobField }),
  },
  {
    head: 'run', scope: 'run', address: { by: 'none' }, syntax: 'run.<field>', label: () => 'run',
    subject: (_, field) => ({ scope: 'run', field: field as RunField }),
  },
  {
    head: 'predictions', scope: 'predictions', address: { by: 'none' }, syntax: 'count(predictions.<list>)', label: () => 'predictions',
    hint: ' (inside count(), e.g. count(predictions.missed) == 0)',
    subject: (_, field) => ({ scope: 'predictions', field: field as PredictionField }),
  },
  {
    head: 'forecast', scope: 'forecast', address: { by: 'none' }, syntax: 'count(forecast.<list>)', label: () => 'forecast',
    hint: ' (inside count(), e.g. count(forecast.missed) == 0)',
    subject: (_, field) => ({ scope: 'forecast', field: field as ForecastField }),
  },
];

/** The pattern of a form: head, then its address (group 1: the selector's inside, or the name), then `.<field>` (group 2). */
function formPattern(form: SubjectForm): RegExp {
  switch (form.address.by) {
    case 'none':
      return new RegExp(`^${form.head}\\.()(\\w+)$`);
    case 'selector':
      return new RegExp(`^${form.head}\\[([^\\]]*)\\]\\.(\\w+)$`);
    case 'name':
      return new RegExp(`^${form.head}\\.(${NAME}?)\\.(\\w+)$`);
  }
}
const FORM_PATTERNS = new Map(SUBJECT_FORMS.map((form) => [form, formPattern(form)]));

/** The key=value pairs of a selector's inside (`workload=web, target=true`), or a one-line message. */
function parseSelector(head: string, inside: string, keys: readonly string[]): Record<string, string> | string {
  const selector: Record<string, string> = {};
  for (const part of inside.split(',').map((s) => s.trim())) {
    const kv = new RegExp(`^(\\w+)\\s*=\\s*(${NAME})$`).exec(part);
    if (!kv) return `${head}[${inside}]: write ${head}[key=value], keys: ${keys.join(', ')}`;
    const [, key, value] = kv as unknown as [string, string, string];
    if (!keys.includes(key)) return `${head}[...]: unknown key "${key}"; allowed: ${keys.join(', ')}`;
    if (key === 'target' && value !== 'true' && value !== 'false') return `${head}[...]: target is true or false, got "${value}"`;
    selector[key] = value;
  }
  return selector;
}

function parseSubject(path: string): ExpectationSubject | string {
  for (const form of SUBJECT_FORMS) {
    const m = FORM_PATTERNS.get(form)!.exec(path);
    if (!m) continue;
    const [, address, field] = m as unknown as [string, string, string];
    const selector = form.address.by === 'selector' ? parseSelector(form.head, address, form.address.keys) : {};
    if (typeof selector === 'string') return selector;
    if (fieldTypeOf(form.scope, field) === undefined) {
      return `${form.label(address)}: unknown field "${field}"; allowed: ${Object.keys(EXPECTATION_FIELDS[form.scope]).join(', ')}${form.hint ?? ''}`;
    }
    return form.subject({ selector, name: address }, field);
  }
  const head = path.split(/[.[]/)[0];
  return `unknown subject "${head}" in "${path}"; allowed: ${SUBJECT_FORMS.map((f) => f.syntax).join(', ')}`;
}

/** The declared type of a parsed subject's field. */
export function subjectFieldType(subject: ExpectationSubject): FieldType {
  return fieldTypeOf(subject.scope, subject.field)!;
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
  const type = subjectFieldType(subject);
  if (type === 'list' && aggregate?.fn !== 'count') return fail(`${path} is a list of ${subject.scope === 'forecast' ? 'forecast items' : 'predictions'}; count it, e.g. count(${path}) == 0`);
  if (aggregate && aggregate.fn !== 'count' && !isNumberField(type)) return fail(`${path}: ${aggregate.fn === 'percentile' ? `p${aggregate.percentile}` : aggregate.fn}() needs a number field`);
  const numeric = isNumberField(type) || aggregate?.fn === 'count';
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
      if (isNumberField(type) && typeof value !== 'number') return fail(`${path} is a number (seconds or a count); got ${rhs}`);
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
  return { number: 'a number', instant: 'a number', boolean: 'true or false', outcome: 'an outcome', string: 'a string', list: 'a list' }[type];
}
