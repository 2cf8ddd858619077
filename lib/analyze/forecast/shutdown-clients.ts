// The clients' view of a graceful node shutdown (fault type shutdown): each workload lost to clients and back at its
// desired count with its replacements, each pod the kubelet's shutdown manager kills leaving its Service's endpoints
// once its status says so, and the requests kube-proxy still routes to it between its SIGTERM and that removal failing. Derived from the pod-terminated windows of forecast/shutdown.ts:
// k8s.io/kubernetes v1.37.2 pkg/kubelet/nodeshutdown/nodeshutdown_manager.go podManager.killPods (SIGTERM at the
// group's start, the terminal phase written when the containers stopped), k8s.io/endpointslice v0.37.2
// util/controller_utils.go ShouldPodBeInEndpoints (a terminal pod is no endpoint), pkg/controller/endpointslice
// syncService, and kube-proxy's syncProxyRules (pkg/proxy).
import type { Experiment, WorkloadSpec } from '../../spec/types.js';
import type { Window } from '../types.js';
import { windowOf } from '../windows.js';
import { hull, item, podItemOf } from './items.js';
import { CONNTRACK_SYN_SENT_SECONDS, everyEndpointOnTargetsLastError, PROXY_LAG_SECONDS } from './probe-last-error.js';
import type { ForecastItem, PreFaultPod } from './types.js';

/** The EndpointSlice controller writes a pod's change within this many seconds (the other faults' endpoint items assume the same). */
export const ENDPOINT_SLICE_WRITE_SECONDS = 1;

/** What {@link forecastShutdownClients} needs: the experiment, the targets, the pods before the fault and the pod items already forecast. */
export interface ShutdownClientsInput {
  experiment: Experiment;
  /** Fault targets in injection order. */
  targets: readonly string[];
  /** Every pod before the fault (on a target or not): a workload's replicas elsewhere keep its Service answering. */
  pods: readonly PreFaultPod[];
  /** The items of forecast/shutdown.ts: `pod-terminated` (when the kubelet's kill ended, terminal phase seen) and `replacement-ready`. */
  podItems: readonly ForecastItem[];
}

/** Whether the workload runs rebootlab's own server (hack/node-helpers/cmd/rebootlab-workload): it closes its listener at once on SIGTERM (http.Server.Shutdown), and its pods have no preStop hook. */
function runsRebootlabServer(w: WorkloadSpec): boolean {
  return w.manifest === null && w.selected === null;
}

/** The replacement-ready windows of `pods` (one each, in their order, seconds since time zero), or null when one of them has none forecast. */
function replacementWindows(podItems: readonly ForecastItem[], pods: readonly PreFaultPod[]): Window[] | null {
  const windows = pods.flatMap((p) => {
    const window = podItemOf(podItems, 'replacement-ready', p)?.window;
    return window ? [window] : [];
  });
  return windows.length === pods.length ? windows : null;
}

/**
 * The workload as clients count it (lib/analyze/workload-timeline.ts, fault `shutdown` silences a target's pods like
 * a power-off: clientImpactOf 'stopped'): `workload-unavailable` at its first target's command start (window [start,
 * start]; the pod really serves until its SIGTERM, the item follows the run's client count), and `workload-recovered`
 * once every pod of it on a target is replaced and Ready: [the latest replacement-ready start, the latest end] seconds
 * since time zero (a terminal pod is not Ready again in place). A pod without a replacement forecast (a DaemonSet's,
 * a StatefulSet's, a Job's, or no worker outside the targets): its recovery is listed as not forecast. Nothing when
 * none of its pods on the targets has a pod-terminated item (the shutdown is not forecast for their kubelet).
 */
function workloadAvailability(w: WorkloadSpec, onTargets: readonly PreFaultPod[], input: ShutdownClientsInput, notForecast: string[]): ForecastItem[] {
  // Only where the shutdown itself is forecast (a kubelet whose shutdown manager was read: its pods' pod-terminated items).
  if (!onTargets.some((p) => podItemOf(input.podItems, 'pod-terminated', p) !== undefined)) return [];
  const node = onTargets[0]!.node;
  const start = input.targets.indexOf(node) * (input.experiment.fault.staggerMs / 1000);
  const items: ForecastItem[] = [item({
    event: 'workload-unavailable', node, workload: w.name, happens: 'always', window: windowOf(start, start),
    mechanism: 'fault-command', setting: `fault ${input.experiment.fault.type}`,
    assumption: 'the run counts a pod on a shutdown target lost to clients from its fault command\'s start, as for a power-off (the client view of lib/analyze/workload-timeline.ts); the pod itself serves until its SIGTERM',
    because: `${w.name} has a pod on ${node}, which the graceful shutdown kills`,
  })];
  const windows = replacementWindows(input.podItems, onTargets);
  if (windows === null) {
    notForecast.push(`workload ${w.name}: back at its desired count after the graceful shutdown (a pod of it on a target has no replacement forecast): not forecast`);
    return items;
  }
  items.push(item({
    event: 'workload-recovered', node, workload: w.name, happens: 'always',
    window: windowOf(Math.max(...windows.map((r) => r.fromSeconds)), Math.max(...windows.map((r) => r.toSeconds))),
    mechanism: 'pod-start', setting: 'the replacement-ready windows of its pods on the targets',
    assumption: 'its pods elsewhere stay Ready; the latest of its killed pods\' replacements Ready brings it back to its desired count',
    because: `${w.name} is back at its desired count when the last of its pods the shutdown killed is replaced and Ready`,
  }));
  return items;
}

/**
 * Per pod on a target behind a Service (a workload with `service:`, or a StatefulSet's headless one): `endpoint-not-ready`,
 * window [its pod-terminated window's start, its end + {@link ENDPOINT_SLICE_WRITE_SECONDS}] seconds since time zero:
 * the kubelet writes Ready=False or the terminal phase by the kill's status write at the latest (killPods), and a
 * terminal pod is no endpoint (ShouldPodBeInEndpoints), removed by the controller within a second.
 * Per http prober of such a workload, `probe-last-error` (the send time of its last failed request):
 * - replicas elsewhere: the requests kube-proxy routes to a killed pod fail from its SIGTERM (the server closes its
 *   listener) until its endpoint is gone and kube-proxy drops it: [earliest pod-terminated start, latest
 *   endpoint-not-ready end + PROXY_LAG_MS] ('always' for rebootlab's server, 'maybe' for a manifest's or selected
 *   one, whose server may drain until then); or up to CONNTRACK_SYN_SENT_SECONDS later when a request reuses the
 *   source port of one that timed out toward the gone pod (kube-proxy flushes only UDP entries: pkg/proxy/conntrack
 *   cleanup.go CleanStaleEntries, v1.37.2);
 * - every ready endpoint on a target: clients fail until the first replacement is Ready and kube-proxy programs it
 *   (the replacement-ready windows, by forecast/probe-last-error.ts everyEndpointOnTargetsLastError as for the other
 *   faults in forecast/workloads.ts); not forecast when a pod has no replacement forecast.
 * @returns the items and what is not forecast.
 */
export function forecastShutdownClients(input: ShutdownClientsInput): { items: ForecastItem[]; notForecast: string[] } {
  const items: ForecastItem[] = [];
  const notForecast: string[] = [];
  for (const w of input.experiment.workloads) {
    const all = input.pods.filter((p) => p.workload === w.name);
    const onTargets = all.filter((p) => input.targets.includes(p.node));
    if (onTargets.length === 0) continue;
    items.push(...workloadAvailability(w, onTargets, input, notForecast));
    if (w.service === null && w.kind !== 'StatefulSet') continue;
    const endpoints: ForecastItem[] = [];
    for (const pod of onTargets) {
      const terminated = podItemOf(input.podItems, 'pod-terminated', pod);
      if (terminated === undefined || terminated.window === null) continue;
      const window = windowOf(terminated.window.fromSeconds, terminated.window.toSeconds + ENDPOINT_SLICE_WRITE_SECONDS);
      const endpoint = item({
        event: 'endpoint-not-ready', node: pod.node, pod: `${pod.namespace}/${pod.name}`, workload: w.name, happens: 'always', window,
        mechanism: 'endpoint-slice', setting: 'the pod-terminated window of the graceful shutdown',
        assumption: `the kubelet writes the pod Ready=False or terminal by the end of its kill (its pod-terminated window, without its observation latency); the EndpointSlice controller removes or un-readies its endpoint within ${ENDPOINT_SLICE_WRITE_SECONDS} s`,
        because: 'the shutdown manager kills the pod (nodeshutdown_manager.go podManager.killPods, v1.37.2) and marks it Failed or Succeeded: a terminal pod is no endpoint (k8s.io/endpointslice util ShouldPodBeInEndpoints), a not-ready one no ready endpoint',
      });
      endpoints.push(endpoint);
      items.push(endpoint);
    }
    for (const probe of input.experiment.probes.filter((p) => p.type !== 'dns' && p.service === w.name)) {
      const base = { node: onTargets[0]!.node, workload: probe.name, mechanism: 'kube-proxy' as const, setting: `probe ${probe.name} on Service ${w.name}` };
      if (onTargets.length === all.length) {
        const windows = replacementWindows(input.podItems, onTargets);
        if (windows === null) {
          notForecast.push(`probe ${probe.name}: every ready endpoint of ${w.name} is on a target and a pod of it has no replacement forecast: when clients are served again is not forecast`);
          continue;
        }
        // Each pod's one replacement-ready window; kube-proxy's lag alone on top (forecast/workloads.ts adds the observation latency too).
        const lastError = everyEndpointOnTargetsLastError({
          base, backs: windows.map((r) => [r]), proxySeconds: PROXY_LAG_SECONDS, otherOutcomes: [],
          usualWhen: 'clients reach the first replacement once kube-proxy programs it', conntrackWhen: 'a reused conntrack entry still points at a killed pod',
          assumption: `every ready endpoint was on a target: clients fail from the pods' SIGTERM until the first replacement is Ready and kube-proxy programs it (within ${PROXY_LAG_SECONDS} s); a request reusing the source port of one that timed out toward a killed pod follows its conntrack entry (nf_conntrack keeps an unanswered SYN_SENT entry ${CONNTRACK_SYN_SENT_SECONDS} s)`,
          because: `${w.name} has no ready endpoint elsewhere once its pods on the targets are killed`,
        });
        if (lastError !== null) items.push(lastError);
        continue;
      }
      if (endpoints.length === 0) continue;
      const gone = hull(endpoints.map((e) => e.window!))!;
      const usual = windowOf(gone.fromSeconds, gone.toSeconds + PROXY_LAG_SECONDS);
      const conntrack = windowOf(gone.fromSeconds, usual.toSeconds + CONNTRACK_SYN_SENT_SECONDS);
      const builtIn = runsRebootlabServer(w);
      const pods = endpoints.map((e) => e.pod).join(', ');
      items.push(item({
        ...base, event: 'probe-last-error', happens: builtIn ? 'always' : 'maybe', window: conntrack,
        outcomes: [
          { window: usual, when: `the killed pods' endpoints leave the Service and kube-proxy drops them` },
          { window: conntrack, when: `a reused conntrack entry still points at a killed pod (nf_conntrack keeps an unanswered SYN_SENT entry ${CONNTRACK_SYN_SENT_SECONDS} s; kube-proxy flushes UDP entries only)` },
          ...(builtIn ? [] : [{ window: null, when: 'its server keeps answering until its endpoint is gone (a preStop delay, or a server that drains)' }]),
        ],
        assumption: builtIn
          ? `the workload server closes its listener at once on SIGTERM (rebootlab-workload: http.Server.Shutdown) and its pods have no preStop hook; the prober sends requests kube-proxy routes to ${pods} between their SIGTERM and kube-proxy dropping their endpoints (within ${PROXY_LAG_SECONDS} s of the EndpointSlice write)`
          : `requests routed to ${pods} may fail from their SIGTERM until kube-proxy drops their endpoints (within ${PROXY_LAG_SECONDS} s of the EndpointSlice write); whether the server stops answering at SIGTERM is not known`,
        because: endpoints.length === 1
          ? `requests routed to ${pods} fail from its SIGTERM until its endpoint leaves the Service and kube-proxy drops it; ${w.name} keeps a ready endpoint elsewhere`
          : `requests routed to ${pods} fail from their SIGTERM until their endpoints leave the Service and kube-proxy drops them; ${w.name} keeps a ready endpoint elsewhere`,
      }));
    }
  }
  return { items, notForecast };
}
