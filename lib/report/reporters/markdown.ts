// Writes summary.md: the tables a person reads (expectations, predicted vs observed, nodes, pods, workloads).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';
import type { Reporter, ReporterFactory, RunResult } from '../reporter.js';
import type { Result } from '../result-types.js';
import { seconds, table } from './markdown-tables.js';
import { faultLine, outageNote, PREDICTION_HEADERS, predictionRow, timeZeroSentence } from './prediction-rows.js';

/** File name of the Markdown summary in a run directory. */
export const SUMMARY_FILE = 'summary.md';

function predictionsTable(r: Result): string {
  const p = r.predictions;
  const zones = p.zoneStates.length === 0 ? 'every zone stayed Normal' : p.zoneStates.map((z) => `zone "${z.zone}" ${z.state} at ${seconds(z.atSeconds)} (${z.notReady}/${z.total} NotReady, rate ${z.evictionRatePerSecond}/s)`).join('; ');
  const lead =
    `${p.heldCount} of ${p.predictedCount} predictions held, ${p.missed.length} missed. Lease renew interval ${seconds(p.leaseRenewIntervalSeconds)}, ` +
    `grace period ${seconds(p.gracePeriodSeconds)}, monitor period ${seconds(p.monitorPeriodSeconds)}; ${zones}.`;
  return `${lead}\n\n${table(PREDICTION_HEADERS, p.items.map(predictionRow))}`;
}

/** Per workload with a Service: seconds without a ready endpoint; per pod: its endpoint instants. Null when no workload has a Service. */
function endpointsSection(r: Result): string | null {
  const served = r.workloads.filter((w) => w.endpoints);
  if (served.length === 0) return null;
  const workloads = table(
    ['Workload', 'Service', 'Ready endpoints at fault', 'Minimum', 'No ready endpoint', 'No ready endpoint from'],
    served.map((w) => [w.name, w.endpoints!.service, w.endpoints!.readyAtFault, w.endpoints!.minimumReady, seconds(w.endpoints!.noReadyEndpointSeconds), seconds(w.endpoints!.noReadyEndpointAfterSeconds)]),
  );
  const names = new Set(served.map((w) => w.name));
  const pods = table(
    ['Pod', 'Workload', 'Ready at fault', 'Not ready', 'Terminating', 'Removed', 'Ready again (own or replacement)'],
    r.pods.filter((p) => p.workload !== null && names.has(p.workload)).map((p) => [
      `${p.namespace}/${p.name}`, p.workload, p.endpointReadyAtFault === true ? 'yes' : 'no', seconds(p.endpointNotReadyAfterSeconds ?? null),
      seconds(p.endpointTerminatingAfterSeconds ?? null), seconds(p.endpointRemovedAfterSeconds ?? null), seconds(p.endpointReadyAgainAfterSeconds ?? null),
    ]),
  );
  return `From the Services' EndpointSlices (client receive times).\n\n${workloads}\n\n${pods}`;
}

/** Events kept as cross-checks, one row each; the time column names its field and resolution. */
function eventsSection(r: Result): string {
  const short = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);
  return table(
    ['At', 'Reason', 'Object', 'Source', 'Count', 'Message', 'Time from'],
    r.events.map((e) => [seconds(e.afterSeconds), e.reason, e.object, e.recordedAs === 'Event' ? e.source : `${e.source} (pod condition ${e.recordedAs})`, e.count, short(e.message), `${e.timeField} (${e.resolutionSeconds} s)`]),
  );
}

/** The full text of summary.md for `result` (deterministic for equal input). */
export function renderSummary(r: Result): string {
  const parts: string[] = [];
  const m = r.metadata;
  parts.push(`# ${m.experiment}${m.variant ? ` (${m.variant})` : ''}: ${r.status}`);
  parts.push(
    `Fault **${r.spec.fault.type}** on ${r.spec.fault.nodes.join(', ') || '(no target)'} at ${m.faultInjectedAt}; ` +
      `restored ${seconds(r.summary.faultRestoredAfterSeconds)} after it; observed until ${seconds(r.summary.endAfterSeconds)}. ` +
      `Cluster ${r.spec.cluster.name} (${r.spec.cluster.provider}, ${r.spec.cluster.kubernetesVersion ?? 'version unknown'}). ` +
      `Workloads ${r.summary.recovered ? 'recovered' : 'did **not** all recover'}.`,
  );
  parts.push(timeZeroSentence(r.summary.timeZero));
  if (r.summary.faults.length > 0) parts.push(r.summary.faults.map((f) => `- ${faultLine(f)}`).join('\n'));
  parts.push('## Missed predictions');
  parts.push(
    r.predictions.missed.length === 0
      ? `_None: every prediction held or is still open (${r.predictions.heldCount} of ${r.predictions.predictedCount} held)._`
      : table(PREDICTION_HEADERS, r.predictions.missed.map(predictionRow)),
  );
  parts.push('## Expectations');
  parts.push(
    r.expectations.length === 0
      ? '_None._'
      : table(['', 'Expectation', 'Actual', 'Detail'], r.expectations.map((e) => [e.passed ? '✓' : '✗', `\`${e.text}\``, e.actual, e.message])),
  );
  parts.push('## Predicted vs observed', predictionsTable(r));
  parts.push('## Nodes');
  parts.push(
    table(
      ['Node', 'Target', 'Last lease renew', 'NotReady (server)', 'NotReady (received)', 'Status', 'NoSchedule taint', 'NoExecute taint (unreachable/not-ready)', 'Out-of-service taint', 'Ready again', 'InternalIP before → after', 'Deleted', 'Recreated'],
      r.nodes.map((n) => [
        n.name, n.faultTarget ? 'yes' : '', seconds(n.lastLeaseRenewBeforeDetection?.afterSeconds), seconds(n.notReadyAfterSeconds),
        seconds(n.notReadyReceivedAfterSeconds), n.notReadyStatus ? `${n.notReadyStatus} (${n.notReadyReason ?? ''})` : '',
        seconds(n.noScheduleTaintAfterSeconds), seconds(n.noExecuteTaintAfterSeconds), seconds(n.outOfServiceTaintAfterSeconds), seconds(n.readyAgainAfterSeconds),
        `${n.internalIPBefore ?? '—'} → ${n.internalIPAfter ?? '—'}`, seconds(n.deletedAfterSeconds), seconds(n.recreatedAfterSeconds),
      ]),
    ),
  );
  parts.push('## Pods');
  parts.push(
    table(
      ['Pod', 'Workload', 'Outcome', 'Node before → after', 'IP before → after', 'Restarts', 'NotReady', 'Evicted', 'Deleted', 'Unreachable toleration', 'Replacement', 'Replacement Ready'],
      r.pods.map((p) => [
        `${p.namespace}/${p.name}`, p.workload, p.outcome, `${p.nodeBefore ?? '—'} → ${p.replacement?.node ?? p.nodeAfter ?? '—'}`,
        `${p.podIPBefore ?? '—'} → ${p.replacement?.podIP ?? p.podIPAfter ?? '—'}`, `${p.restartCountBefore} → ${p.restartCountAfter}`,
        seconds(p.notReadyAfterSeconds), seconds(p.evictedAfterSeconds), seconds(p.deletedAfterSeconds),
        p.tolerations.unreachableTolerationSeconds === null ? 'forever' : `${p.tolerations.unreachableTolerationSeconds} s`,
        p.replacement ? `${p.replacement.name} on ${p.replacement.node ?? '(unscheduled)'}${p.replacement.pendingReason ? ` (${p.replacement.pendingReason})` : ''}` : '—',
        seconds(p.replacement?.readyAfterSeconds),
      ]),
    ),
  );
  parts.push('## Workloads');
  parts.push(
    table(
      ['Workload', 'Kind', 'Desired', 'Ready at fault', 'Minimum Ready', 'Ready at end', 'Unavailable (clients)', 'Unavailable (API)', 'Unavailable from', 'Recovered after'],
      r.workloads.map((w) => [w.name, w.kind, w.desired, w.readyAtFault, w.minimumReady, w.readyAtEnd, seconds(w.unavailableSeconds), seconds(w.apiUnavailableSeconds), seconds(w.unavailableAfterSeconds), seconds(w.recoveredAfterSeconds)]),
    ),
  );
  parts.push(outageNote(r));
  if (r.probes && r.probes.length > 0) {
    parts.push('## Traffic probes (what clients saw)');
    parts.push(table(
      ['Probe', 'Sent', 'Failed', 'Seconds with a failure', 'First failure', 'Last failure', 'Latency p50 / p99 during', 'Pods that answered'],
      r.probes.map((p) => [p.name, p.sent, `${p.errors} (${(p.errorRatio * 100).toFixed(1)} %)`, p.errorSeconds, seconds(p.firstErrorAfterSeconds), seconds(p.lastErrorAfterSeconds),
        `${p.latency.during.p50Ms ?? '—'} / ${p.latency.during.p99Ms ?? '—'} ms`, p.backends.map((b) => `${b.pod} (${b.answered})`).join(', ')]),
    ));
    const failing = r.probes.flatMap((p) => p.failingBackends.map((f) => ({ probe: p.name, ...f })));
    if (failing.length > 0) {
      parts.push('### Failing backends (failed requests joined with the EndpointSlices)');
      parts.push(table(
        ['Probe', 'Cause', 'Pods', 'Nodes', 'Failed', 'Outcomes', 'From', 'To', 'Why'],
        failing.map((f) => [f.probe, f.cause, f.pods.join(', '), f.nodes.join(', '), f.failed, Object.entries(f.outcomes).map(([o, n]) => `${o} ${n}`).join(', '),
          seconds(f.firstAfterSeconds), seconds(f.lastAfterSeconds), f.because]),
      ));
    }
  }
  const endpoints = endpointsSection(r);
  if (endpoints) parts.push('## Endpoints (what Service clients were offered)', endpoints);
  if (r.events.length > 0) parts.push('## Events', eventsSection(r));
  if (r.marks && r.marks.length > 0) {
    parts.push('## Script marks');
    parts.push(table(['Mark', 'At', 'Nodes', 'Detail'], r.marks.map((k) => [k.name, seconds(k.afterSeconds), k.nodes.join(', '), JSON.stringify(k.detail)])));
  }
  const s = r.spec.settings;
  parts.push('## Effective settings');
  parts.push(
    table(['Component', 'Setting', 'Value'], [
      ...Object.entries(s.controllerManager).map(([k, v]) => ['kube-controller-manager', k, v]),
      ...Object.entries(s.apiServer).map(([k, v]) => ['kube-apiserver', k, v]),
      ...Object.entries(s.kubelet).map(([k, v]) => ['kubelet', k, v]),
    ]),
  );
  if (r.warnings.length > 0) parts.push('## Warnings', r.warnings.map((w) => `- ${w}`).join('\n'));
  return parts.join('\n\n') + '\n';
}

/** Reporter that writes `<runDir>/summary.md`. @throws InfraError from onEnd if the file cannot be written. */
export const createMarkdownReporter: ReporterFactory = (): Reporter => ({
  onEnd({ runDir, result }: RunResult): void {
    const path = join(runDir, SUMMARY_FILE);
    try {
      writeFileSync(path, renderSummary(result));
    } catch (err) {
      throw new InfraError(`cannot write ${path}: ${(err as Error).message}`, 'check that the run directory is writable', { cause: err });
    }
  },
  printsToStdio: () => false,
});
