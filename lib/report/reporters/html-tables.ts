// The tables under the timeline in report.html: expectations, predicted vs observed, nodes, pods, workloads, effective flags.
import type { TimeoutSettings } from '../../spec/settings.js';
import type { Result } from '../result-types.js';
import { formatSeconds as s, html, renderTable, type VNode } from './html-page.js';
import { causeText, PREDICTION_HEADERS, predictionRow } from './prediction-rows.js';


/** Expectations with pass/fail, the value compared and the one-line detail. */
export function expectationsTable(r: Result): VNode {
  if (r.expectations.length === 0) return html`<p><em>No expectations.</em></p>`;
  const rows = r.expectations.map((e) => [
    html`<span class=${e.passed ? 'pass' : 'fail'} data-passed=${String(e.passed)} style=${{ color: e.passed ? '#2e9e5b' : '#d93c3c', fontWeight: 700 }}>${e.passed ? '✓ pass' : '✗ fail'}</span>`,
    html`<code>${e.text}</code>`,
    Array.isArray(e.actual) ? `[${e.actual.map(String).join(', ')}]` : e.actual,
    e.message,
  ]);
  return renderTable(['', 'Expectation', 'Actual', 'Detail'], rows, { 'data-table': 'expectations' });
}

/**
 * Every predicted event next to what happened, with its mechanism ("why") and the observed event it follows; the
 * row's title repeats the cause for hover. Missed rows carry `data-held="false"`.
 */
export function predictedTable(r: Result, items = r.predictions.items, tableName = 'predicted'): VNode {
  const rows = items.map((i) => {
    const [mark, ...rest] = predictionRow(i);
    return [html`<span class=${i.held === false ? 'fail' : i.held === true ? 'pass' : ''} data-held=${String(i.held)} title=${causeText(i)}>${mark}</span>`, ...rest];
  });
  return renderTable(PREDICTION_HEADERS, rows, { 'data-table': tableName });
}

/** One row per node. */
export function nodesTable(r: Result): VNode {
  return renderTable(
    ['Node', 'Target', 'Last lease renew', 'NotReady (server)', 'NotReady (received)', 'Status', 'NoSchedule taint', 'NoExecute taint (unreachable/not-ready)', 'Out-of-service taint', 'Ready again', 'InternalIP before → after', 'Deleted', 'Recreated'],
    r.nodes.map((n) => [
      n.name, n.faultTarget ? 'yes' : '', s(n.lastLeaseRenewBeforeDetection?.afterSeconds), s(n.notReadyAfterSeconds), s(n.notReadyReceivedAfterSeconds),
      n.notReadyStatus ? `${n.notReadyStatus} (${n.notReadyReason ?? ''})` : '', s(n.noScheduleTaintAfterSeconds), s(n.noExecuteTaintAfterSeconds), s(n.outOfServiceTaintAfterSeconds),
      s(n.readyAgainAfterSeconds), `${n.internalIPBefore ?? '—'} → ${n.internalIPAfter ?? '—'}`, s(n.deletedAfterSeconds), s(n.recreatedAfterSeconds),
    ]),
    { 'data-table': 'nodes' },
  );
}

/** One row per pod that existed at the fault. */
export function podsTable(r: Result): VNode {
  return renderTable(
    ['Pod', 'Workload', 'Outcome', 'Node before → after', 'IP before → after', 'Restarts', 'NotReady', 'Evicted', 'Deleted', 'Unreachable toleration', 'Replacement', 'Replacement Ready'],
    r.pods.map((p) => [
      `${p.namespace}/${p.name}`, p.workload, p.outcome, `${p.nodeBefore ?? '—'} → ${p.replacement?.node ?? p.nodeAfter ?? '—'}`,
      `${p.podIPBefore ?? '—'} → ${p.replacement?.podIP ?? p.podIPAfter ?? '—'}`, `${p.restartCountBefore} → ${p.restartCountAfter}`,
      s(p.notReadyAfterSeconds), s(p.evictedAfterSeconds), s(p.deletedAfterSeconds),
      p.tolerations.unreachableTolerationSeconds === null ? 'forever' : `${p.tolerations.unreachableTolerationSeconds} s`,
      p.replacement ? `${p.replacement.name} on ${p.replacement.node ?? '(unscheduled)'}${p.replacement.pendingReason ? ` (${p.replacement.pendingReason})` : ''}` : '—',
      s(p.replacement?.readyAfterSeconds),
    ]),
    { 'data-table': 'pods' },
  );
}

/** One row per workload. */
export function workloadsTable(r: Result): VNode {
  return renderTable(
    ['Workload', 'Kind', 'Desired', 'Ready at fault', 'Minimum Ready', 'Ready at end', 'Unavailable (clients)', 'Unavailable (API)', 'Unavailable from', 'Recovered after'],
    r.workloads.map((w) => [w.name, w.kind, w.desired, w.readyAtFault, w.minimumReady, w.readyAtEnd, s(w.unavailableSeconds), s(w.apiUnavailableSeconds), s(w.unavailableAfterSeconds), s(w.recoveredAfterSeconds)]),
    { 'data-table': 'workloads' },
  );
}

/** One row per pod of a workload with a Service: its endpoint instants (EndpointSlices, client receive times); null when no workload has a Service. */
export function endpointsTable(r: Result): VNode | null {
  const served = new Map(r.workloads.filter((w) => w.endpoints).map((w) => [w.name, w.endpoints!]));
  if (served.size === 0) return null;
  const rows = r.pods.filter((p) => p.workload !== null && served.has(p.workload)).map((p) => {
    const e = served.get(p.workload!)!;
    return [
      `${p.namespace}/${p.name}`, `${p.workload} (Service ${e.service}: no ready endpoint ${s(e.noReadyEndpointSeconds)})`, p.endpointReadyAtFault ? 'yes' : 'no',
      s(p.endpointNotReadyAfterSeconds), s(p.endpointTerminatingAfterSeconds), s(p.endpointRemovedAfterSeconds), s(p.endpointReadyAgainAfterSeconds),
    ];
  });
  return renderTable(['Pod', 'Workload', 'Ready at fault', 'Not ready', 'Terminating', 'Removed', 'Ready again (own or replacement)'], rows, { 'data-table': 'endpoints' });
}

/** The Events kept as cross-checks; the last column names the time field and its resolution. Null when there are none. */
export function eventsTable(r: Result): VNode | null {
  if (r.events.length === 0) return null;
  return renderTable(
    ['At', 'Reason', 'Object', 'Source', 'Count', 'Message', 'Time from'],
    r.events.map((e) => [s(e.afterSeconds), e.reason, e.object, e.recordedAs === 'Event' ? e.source : `${e.source} (pod condition ${e.recordedAs})`, e.count, e.message, `${e.timeField} (${e.resolutionSeconds} s)`]),
    { 'data-table': 'events' },
  );
}

/** One row per traffic prober: what clients saw (requests, failures, when, latency); null without probers. */
export function probesTable(r: Result): VNode | null {
  if (!r.probes || r.probes.length === 0) return null;
  const ms = (v: number | null) => (v === null ? '—' : `${v} ms`);
  return renderTable(
    ['Probe', 'Sent', 'Failed', 'Failures by outcome', 'Seconds with a failure', 'First failure', 'Last failure', 'Latency p50 / p99 during', 'Pods that answered'],
    r.probes.map((p) => [
      p.name, p.sent, `${p.errors} (${(p.errorRatio * 100).toFixed(1)} %)`,
      Object.entries(p.outcomes).filter(([o]) => o !== 'ok').map(([o, n]) => `${o} ${n}`).join(', ') || '—',
      p.errorSeconds, s(p.firstErrorAfterSeconds), s(p.lastErrorAfterSeconds),
      `${ms(p.latency.during.p50Ms)} / ${ms(p.latency.during.p99Ms)}`, p.backends.map((b) => `${b.pod} (${b.answered})`).join(', '),
    ]),
    { 'data-table': 'probes' },
  );
}

/** One row per failing-backend group of every prober (cause, pods, count, interval, why); null when no request failed. */
export function failingBackendsTable(r: Result): VNode | null {
  const rows = (r.probes ?? []).flatMap((p) => p.failingBackends.map((f) => [
    p.name, f.cause, f.pods.join(', '), f.nodes.join(', '), f.failed, Object.entries(f.outcomes).map(([o, n]) => `${o} ${n}`).join(', '),
    s(f.firstAfterSeconds), s(f.lastAfterSeconds), f.because,
  ]));
  if (rows.length === 0) return null;
  return renderTable(['Probe', 'Cause', 'Pods', 'Nodes', 'Failed', 'Outcomes', 'From', 'To', 'Why'], rows, { 'data-table': 'failing-backends' });
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Milliseconds as a Go duration the flag accepts: `20s`, `1500ms`. */
function goDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * The effective settings as the flags and config fields that set them, e.g. `--node-monitor-grace-period=20s`
 * for controllerManager.nodeMonitorGracePeriodMs = 20000 (milliseconds); `...Seconds` values keep seconds.
 */
export function flagRows(settings: TimeoutSettings): [string, string, string][] {
  const rows: [string, string, string][] = [];
  const add = (component: string, values: Record<string, number>, asFlag: boolean): void => {
    for (const [key, value] of Object.entries(values)) {
      const name = key.endsWith('Ms') ? key.slice(0, -2) : key;
      const shown = key.endsWith('Ms') ? goDuration(value) : String(value);
      rows.push([component, asFlag ? `--${kebab(name)}=${shown}` : `${name}: ${shown}`, `${key} = ${value}`]);
    }
  };
  add('kube-controller-manager', settings.controllerManager, true);
  add('kube-apiserver', settings.apiServer, true);
  add('kubelet (KubeletConfiguration)', settings.kubelet, false);
  return rows;
}

/** The effective flags read back from the cluster. */
export function settingsTable(r: Result): VNode {
  return renderTable(['Component', 'Flag / field', 'result.json value'], flagRows(r.spec.settings).map(([c, f, v]) => [c, html`<code>${f}</code>`, v]), { 'data-table': 'settings' });
}
