// Evaluates parsed expectations against one run's analysis.
import type { Aggregate, Comparison, Expectation, ExpectedValue, NodeField, PodField, PodSelector, PredictionField, ProbeField, RunField, WorkloadField } from '../spec/expectation.js';
import type { NodeTimeline, PodTimeline, PredictionItem, RunAnalysis, WorkloadTimeline } from './types.js';
import type { ProbeSummary } from './probe-timeline.js';

/** Outcome of one expectation. `actual` is the value compared (an array when several pods were selected). */
export interface ExpectationResult {
  text: string;
  passed: boolean;
  actual: ExpectedValue | ExpectedValue[];
  /** One line: what was compared and, on failure, which object broke it. */
  message: string;
}

const POD_VALUES: Record<PodField, (p: PodTimeline) => ExpectedValue> = {
  outcome: (p) => p.outcome,
  restartCountBefore: (p) => p.restartCountBefore,
  restartCountAfter: (p) => p.restartCountAfter,
  restartCountDelta: (p) => p.restartCountDelta,
  notReadyAfterSeconds: (p) => p.notReadyAfterSeconds,
  readyAgainAfterSeconds: (p) => p.readyAgainAfterSeconds,
  evictedAfterSeconds: (p) => p.evictedAfterSeconds,
  deletedAfterSeconds: (p) => p.deletedAfterSeconds,
  replacementCreatedAfterSeconds: (p) => p.replacement?.createdAfterSeconds ?? null,
  replacementScheduledAfterSeconds: (p) => p.replacement?.scheduledAfterSeconds ?? null,
  replacementReadyAfterSeconds: (p) => p.replacement?.readyAfterSeconds ?? null,
  unreachableTolerationSeconds: (p) => p.tolerations.unreachableTolerationSeconds,
  notReadyTolerationSeconds: (p) => p.tolerations.notReadyTolerationSeconds,
  nodeChanged: (p) => (p.replacement?.node ?? p.nodeAfter) !== p.nodeBefore,
  podIPChanged: (p) => (p.replacement?.podIP ?? p.podIPAfter) !== p.podIPBefore,
  readyAtEnd: (p) => p.readyAtEnd || p.replacement?.readyAfterSeconds != null,
  phaseWhenNotReady: (p) => p.phaseWhenNotReady,
  endpointReadyAtFault: (p) => p.endpointReadyAtFault ?? null,
  endpointNotReadyAfterSeconds: (p) => p.endpointNotReadyAfterSeconds ?? null,
  endpointTerminatingAfterSeconds: (p) => p.endpointTerminatingAfterSeconds ?? null,
  endpointRemovedAfterSeconds: (p) => p.endpointRemovedAfterSeconds ?? null,
  endpointReadyAgainAfterSeconds: (p) => p.endpointReadyAgainAfterSeconds ?? null,
};

const NODE_VALUES: Record<NodeField, (n: NodeTimeline) => ExpectedValue> = {
  notReadyAfterSeconds: (n) => n.notReadyAfterSeconds,
  notReadyReceivedAfterSeconds: (n) => n.notReadyReceivedAfterSeconds,
  readyAgainAfterSeconds: (n) => n.readyAgainAfterSeconds,
  noExecuteTaintAfterSeconds: (n) => n.noExecuteTaintAfterSeconds,
  outOfServiceTaintAfterSeconds: (n) => n.outOfServiceTaintAfterSeconds,
  noScheduleTaintAfterSeconds: (n) => n.noScheduleTaintAfterSeconds,
  lastLeaseRenewAfterSeconds: (n) => n.lastLeaseRenewBeforeDetection?.afterSeconds ?? null,
  deletedAfterSeconds: (n) => n.deletedAfterSeconds,
  recreatedAfterSeconds: (n) => n.recreatedAfterSeconds,
  notReadyStatus: (n) => n.notReadyStatus,
  internalIPChanged: (n) => n.internalIPChanged,
  readyAtEnd: (n) => n.readyAtEnd,
};

const WORKLOAD_VALUES: Record<WorkloadField, (w: WorkloadTimeline) => ExpectedValue> = {
  desired: (w) => w.desired,
  readyAtFault: (w) => w.readyAtFault,
  minimumReady: (w) => w.minimumReady,
  readyAtEnd: (w) => w.readyAtEnd,
  unavailableSeconds: (w) => w.unavailableSeconds,
  apiUnavailableSeconds: (w) => w.apiUnavailableSeconds,
  unavailableAfterSeconds: (w) => w.unavailableAfterSeconds,
  recoveredAfterSeconds: (w) => w.recoveredAfterSeconds,
  recovered: (w) => w.recovered,
  dataProbe: (w) => w.dataProbe,
  readyEndpointsAtFault: (w) => w.endpoints?.readyAtFault ?? null,
  minimumReadyEndpoints: (w) => w.endpoints?.minimumReady ?? null,
  noReadyEndpointSeconds: (w) => w.endpoints?.noReadyEndpointSeconds ?? null,
  noReadyEndpointAfterSeconds: (w) => w.endpoints?.noReadyEndpointAfterSeconds ?? null,
};

const PREDICTION_LISTS: Record<PredictionField, (items: PredictionItem[]) => PredictionItem[]> = {
  missed: (items) => items.filter((i) => i.held === false),
  held: (items) => items.filter((i) => i.held === true),
  open: (items) => items.filter((i) => i.held === null && i.notModelled === undefined),
  notModelled: (items) => items.filter((i) => i.notModelled !== undefined),
  items: (items) => items,
};

const PROBE_VALUES: Record<ProbeField, (p: ProbeSummary) => ExpectedValue> = {
  sent: (p) => p.sent,
  answered: (p) => p.answered,
  errors: (p) => p.errors,
  errorRatio: (p) => p.errorRatio,
  errorSeconds: (p) => p.errorSeconds,
  firstErrorAfterSeconds: (p) => p.firstErrorAfterSeconds,
  lastErrorAfterSeconds: (p) => p.lastErrorAfterSeconds,
  latencyP50MsDuring: (p) => p.latency.during.p50Ms,
  latencyP99MsDuring: (p) => p.latency.during.p99Ms,
  backends: (p) => p.backends.length,
};

const RUN_VALUES: Record<RunField, (a: RunAnalysis) => ExpectedValue> = {
  recovered: (a) => a.recovered,
  faultRestoredAfterSeconds: (a) => a.faultRestoredAfterSeconds,
  endAfterSeconds: (a) => a.endAfterSeconds,
};

/** True when `actual` satisfies `comparison`; a null actual satisfies only `== null` and `!= <non-null>`. */
export function compare(actual: ExpectedValue, comparison: Comparison): boolean {
  if (comparison.op === 'in') return typeof actual === 'number' && actual >= comparison.from && actual <= comparison.to;
  const expected = comparison.value;
  switch (comparison.op) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
  if (typeof actual !== 'number' || typeof expected !== 'number') return false;
  switch (comparison.op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
}

/** Aggregate numbers: nearest-rank percentile, min, max, mean, median, count; null for no values (count: 0). */
export function aggregate(values: number[], agg: Aggregate): number | null {
  if (agg.fn === 'count') return values.length;
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  switch (agg.fn) {
    case 'percentile':
      return rank(agg.percentile);
    case 'median':
      return rank(50);
    case 'min':
      return sorted[0];
    case 'max':
      return sorted[sorted.length - 1];
    case 'mean':
      return Math.round((sorted.reduce((s, v) => s + v, 0) / sorted.length) * 1000) / 1000;
  }
}

function selectPods(pods: PodTimeline[], selector: PodSelector, targets: readonly string[]): PodTimeline[] {
  return pods.filter(
    (p) =>
      (selector.target === undefined || (p.nodeBefore !== null && targets.includes(p.nodeBefore)) === (selector.target === 'true')) &&
      (selector.workload === undefined || p.workload === selector.workload) &&
      (selector.name === undefined || p.name === selector.name) &&
      (selector.namespace === undefined || p.namespace === selector.namespace) &&
      (selector.node === undefined || p.nodeBefore === selector.node),
  );
}

/** Labeled values the subject selects, or a message when it selects nothing. */
function subjectValues(analysis: RunAnalysis, e: Expectation): { label: string; value: ExpectedValue }[] | string {
  const s = e.subject;
  switch (s.scope) {
    case 'pods': {
      const pods = selectPods(analysis.pods, s.selector, analysis.targets);
      return pods.length > 0 ? pods.map((p) => ({ label: p.name, value: POD_VALUES[s.field](p) })) : 'no pod matches the selector';
    }
    case 'node': {
      if (s.target !== undefined) {
        const nodes = analysis.nodes.filter((n) => n.faultTarget === s.target && (s.name === null || n.name === s.name));
        return nodes.length > 0 ? nodes.map((n) => ({ label: n.name, value: NODE_VALUES[s.field](n) })) : 'no node matches the selector';
      }
      const name = s.name ?? analysis.targets[0];
      const node = analysis.nodes.find((n) => n.name === name);
      return node ? [{ label: node.name, value: NODE_VALUES[s.field](node) }] : `no node ${name ?? '(no fault target)'} in the journal`;
    }
    case 'workload': {
      const w = analysis.workloads.find((x) => x.name === s.name);
      return w ? [{ label: w.name, value: WORKLOAD_VALUES[s.field](w) }] : `no workload ${s.name} in the experiment`;
    }
    case 'probe': {
      const p = analysis.probes?.find((x) => x.name === s.name);
      return p ? [{ label: p.name, value: PROBE_VALUES[s.field](p) }] : `no probe ${s.name} in the journal`;
    }
    case 'run':
      return [{ label: 'run', value: RUN_VALUES[s.field](analysis) }];
    case 'predictions':
      return PREDICTION_LISTS[s.field](analysis.predictions.items).map((i) => ({ label: `${i.taintKey ? `${i.event} (${i.taintKey})` : i.event} of ${i.pod ?? i.node}`, value: true }));
  }
}

const show = (c: Comparison): string => (c.op === 'in' ? `in [${c.from}, ${c.to}]` : `${c.op} ${String(c.value)}`);

/**
 * Evaluate each expectation on one run. A `pods[...]` subject passes only if every selected pod matches;
 * an aggregate (`p95(...)`) is computed over the selected values of this run (across repeats: issue 4).
 * A subject that selects nothing fails. Results keep the order of `expectations`.
 */
export function evaluateExpectations(analysis: RunAnalysis, expectations: readonly Expectation[]): ExpectationResult[] {
  return expectations.map((e) => {
    const values = subjectValues(analysis, e);
    if (typeof values === 'string') return { text: e.text, passed: false, actual: null, message: values };
    if (e.aggregate?.fn === 'count') {
      const happened = values.filter((v) => v.value !== null && v.value !== false);
      const actual = happened.length;
      const passed = compare(actual, e.comparison);
      return { text: e.text, passed, actual, message: `${actual} of ${values.length} (${happened.map((v) => v.label).join(', ') || 'none'}) ${passed ? 'is' : 'is not'} ${show(e.comparison)}` };
    }
    if (e.aggregate) {
      const numbers = values.map((v) => v.value).filter((v): v is number => typeof v === 'number');
      const actual = aggregate(numbers, e.aggregate);
      const passed = compare(actual, e.comparison);
      return { text: e.text, passed, actual, message: `${actual} over ${numbers.length} value(s) ${passed ? 'is' : 'is not'} ${show(e.comparison)}` };
    }
    const failing = values.filter((v) => !compare(v.value, e.comparison));
    const actual = values.length === 1 ? values[0].value : values.map((v) => v.value);
    const message =
      failing.length === 0
        ? `${values.map((v) => `${v.label}: ${String(v.value)}`).join(', ')}`
        : `${failing.map((v) => `${v.label}: ${String(v.value)}`).join(', ')} (not ${show(e.comparison)})`;
    return { text: e.text, passed: failing.length === 0, actual, message };
  });
}
