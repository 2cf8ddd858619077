// Starts the experiment's traffic probers once the workloads are Ready: each sends its requests to a node port on a
// node that is not a fault target, so kube-proxy there routes them as for any client: an http probe to its
// workload's Service, a dns probe to the NodePort twin of the cluster DNS Service (lib/workloads/cluster-dns.ts).
import * as k8s from '@kubernetes/client-node';
import type { Cluster, ClusterNode } from '../cluster/index.js';
import { InfraError, InputError } from '../common/errors.js';
import { abortableSleep } from '../common/sleep.js';
import type { FaultGuard } from '../faults/index.js';
import { queryDnsOnce, startProber, type DnsServer, type Journal, type Prober } from '../observe/index.js';
import type { DnsProbeSpec, TrafficProbeSpec } from '../spec/types.js';
import { applyDnsNodePortService, deleteDnsNodePortService, WORKLOAD_LABEL, WORKLOAD_NAMESPACE, type DnsNodePort } from '../workloads/index.js';
import { placeDnsReplica } from './place-dns-replica.js';

/**
 * The node a prober sends through: `probe.node` when set (it must exist and have an address), else the first worker
 * that is not a fault target, else the control plane.
 * @throws InputError when the named node does not exist or is a fault target, or every node is a target.
 */
export function proberNode(probe: TrafficProbeSpec, nodes: readonly ClusterNode[], targets: readonly string[]): ClusterNode {
  if (probe.node !== null) {
    const named = nodes.find((n) => n.name === probe.node);
    if (!named) throw new InputError(`probes.${probe.name}.node: no node "${probe.node}"; nodes: ${nodes.map((n) => n.name).join(', ')}`);
    if (targets.includes(named.name)) throw new InputError(`probes.${probe.name}.node: "${named.name}" is a fault target; send through a node that stays up (omit node: to pick the first worker that is not a target)`);
    return named;
  }
  const candidates = nodes.filter((n) => !targets.includes(n.name) && n.internalIP !== null);
  const chosen = candidates.find((n) => n.role === 'worker') ?? candidates[0];
  if (!chosen) throw new InputError(`probes.${probe.name}: every node is a fault target; name a node with probes[].node`);
  return chosen;
}

/** How long a DNS prober waits for a first answer through the new node port (kube-proxy programming it), milliseconds. */
export const DNS_FIRST_ANSWER_TIMEOUT_MS = 30_000;

/** What {@link startProbers} needs besides the probes. */
export interface StartProbersOptions {
  /** Registers the cordons of a DNS replica move (`placeReplicaOnTarget`); required when a probe asks for one. */
  guard?: FaultGuard;
  signal?: AbortSignal;
}

/**
 * Starts one prober per `probes` entry; each journals its `probe-started` marker (type, Service and its namespace,
 * URL, node, rate, timeout; a dns probe also its query and protocol `udp`). Before the first dns probe: its
 * `placeReplicaOnTarget` moves a cluster DNS replica onto `targets[0]` (journaled as `dns-replica-placed`), and the
 * NodePort twin of the cluster DNS Service is applied and answers one query through the probing node; the twin is
 * deleted when the last dns prober stops.
 * @returns the running probers; stop them (and await) before closing the journal.
 * @throws InputError (see proberNode; a replica move without a target or guard); InfraError when a Service has no
 *   node port, a node no address, or the DNS does not answer through the new node port within DNS_FIRST_ANSWER_TIMEOUT_MS.
 */
export async function startProbers(kc: k8s.KubeConfig, cluster: Cluster, probes: readonly TrafficProbeSpec[], targets: readonly string[], journal: Journal, options: StartProbersOptions = {}): Promise<Prober[]> {
  if (probes.length === 0) return [];
  const nodes = await cluster.nodes();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const started: Prober[] = [];
  let dns: DnsNodePort | null = null;
  try {
    for (const probe of probes) {
      const node = proberNode(probe, nodes, targets);
      if (probe.type === 'dns') {
        if (probe.placeReplicaOnTarget) await placeReplica(kc, cluster, probe, targets, journal, options);
        dns ??= await applyDnsNodePortService(kc);
        started.push(await startDnsProber(probe, node, dns, journal, options.signal));
        continue;
      }
      const service = await core.readNamespacedService({ name: probe.service, namespace: WORKLOAD_NAMESPACE });
      const nodePort = service.spec?.ports?.[0]?.nodePort;
      if (!nodePort || !node.internalIP) {
        throw new InfraError(`probe ${probe.name}: Service ${WORKLOAD_NAMESPACE}/${probe.service} has no node port or node ${node.name} no address`, 'Check the Service (type NodePort) and the node');
      }
      const url = `http://${node.internalIP}:${nodePort}/`;
      started.push(startProber(journal, { name: probe.name, url, ratePerSecond: probe.ratePerSecond, timeoutMs: probe.timeoutMs, marker: { nodes: [node.name], detail: { type: 'http', service: probe.service, namespace: WORKLOAD_NAMESPACE } } }));
    }
  } catch (error) {
    await Promise.all(started.map((p) => p.stop()));
    if (dns) await deleteDnsNodePortService(kc, dns.namespace).catch(() => undefined);
    throw error;
  }
  if (dns === null) return started;
  const twin = dns;
  // The twin goes with the last dns prober: deleting it earlier would fail the requests still in flight.
  let remaining = probes.filter((p) => p.type === 'dns').length;
  return started.map((prober, i) => (probes[i]!.type !== 'dns' ? prober : {
    get sent() { return prober.sent; },
    waitForBaseline: (baseline) => prober.waitForBaseline(baseline),
    stop: async () => {
      await prober.stop();
      remaining -= 1;
      if (remaining === 0) await deleteDnsNodePortService(kc, twin.namespace);
    },
  }));
}

async function placeReplica(kc: k8s.KubeConfig, cluster: Cluster, probe: DnsProbeSpec, targets: readonly string[], journal: Journal, options: StartProbersOptions): Promise<void> {
  const target = targets[0];
  if (target === undefined) throw new InputError(`probes.${probe.name}.placeReplicaOnTarget: there is no fault target to place a cluster DNS replica on`);
  if (!options.guard) throw new InputError(`probes.${probe.name}.placeReplicaOnTarget: needs the run's fault guard (it cordons nodes)`);
  const placement = await placeDnsReplica(kc, cluster, target, options.guard, options.signal);
  journal.mark('dns-replica-placed', { nodes: [target], detail: { probe: probe.name, ...placement } });
}

/**
 * Waits until `server` answers a query for `probe.query` (kube-proxy on the probing node has programmed the new node
 * port), then starts the prober.
 */
async function startDnsProber(probe: DnsProbeSpec, node: ClusterNode, dns: DnsNodePort, journal: Journal, signal?: AbortSignal): Promise<Prober> {
  if (!node.internalIP) throw new InfraError(`probe ${probe.name}: node ${node.name} has no address`, 'Check the node');
  const server: DnsServer = { host: node.internalIP, port: dns.nodePort };
  const startMs = Date.now();
  let last = '';
  for (;;) {
    const r = await queryDnsOnce(server, probe.query, Math.min(probe.timeoutMs, 2_000), Date.now);
    if (r.outcome === 'ok') break;
    last = `${r.outcome}${r.error ? ` (${r.error})` : ''}`;
    if (Date.now() - startMs > DNS_FIRST_ANSWER_TIMEOUT_MS || signal?.aborted) {
      throw new InfraError(`probe ${probe.name}: no answer for ${probe.query} through ${server.host}:${server.port} (Service ${dns.namespace}/${dns.service}) within ${DNS_FIRST_ANSWER_TIMEOUT_MS / 1000} s; last: ${last}`, 'Check the cluster DNS pods and kube-proxy on the probing node');
    }
    await abortableSleep(200, signal);
  }
  return startProber(journal, {
    name: probe.name,
    url: `dns://${server.host}:${server.port}/${probe.query}`,
    send: (timeoutMs, now) => queryDnsOnce(server, probe.query, timeoutMs, now),
    ratePerSecond: probe.ratePerSecond,
    timeoutMs: probe.timeoutMs,
    marker: { nodes: [node.name], detail: { type: 'dns', service: dns.service, namespace: dns.namespace, query: probe.query, protocol: 'udp' } },
  });
}

/** A probe's steady baseline before the fault: at least this long of consecutive answers (send times), milliseconds. */
export const PROBE_BASELINE_MS = 5_000;
/** How long the fault waits for every probe's baseline before the run stops, milliseconds. */
export const PROBE_BASELINE_TIMEOUT_MS = 60_000;

/**
 * Waits until every prober has a steady baseline (Prober.waitForBaseline): PROBE_BASELINE_MS of consecutive answers,
 * for an http probe reaching every Ready pod of its workload (label rebootlab.dev/workload=<probes[].service>, read
 * once when the wait starts), so the failures the report counts are the fault's, not a Service still being programmed
 * (issue 24: a prober started 0.3 s before the fault was refused 6 times by a kube-proxy that had not yet programmed
 * the endpoint). A dns probe's answers do not name the pod that gave them, so any answers make its baseline.
 * Requests sent before that are warm-up (lib/analyze/probe-timeline.ts).
 * @throws InfraError naming the probe and what it lacked after PROBE_BASELINE_TIMEOUT_MS: the fault is not injected.
 */
export async function waitForProbeBaselines(kc: k8s.KubeConfig, probers: readonly Prober[], probes: readonly TrafficProbeSpec[], signal?: AbortSignal): Promise<void> {
  if (probers.length === 0) return;
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await Promise.all(probers.map(async (prober, i) => {
    const probe = probes[i]!;
    if (probe.type === 'dns') {
      await prober.waitForBaseline({ minMs: PROBE_BASELINE_MS, pods: [], timeoutMs: PROBE_BASELINE_TIMEOUT_MS, ...(signal ? { signal } : {}) });
      return;
    }
    const list = await core.listNamespacedPod({ namespace: WORKLOAD_NAMESPACE, labelSelector: `${WORKLOAD_LABEL}=${probe.service}` });
    const pods = list.items
      .filter((p) => !p.metadata?.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
      .map((p) => p.metadata?.name ?? '')
      .filter((name) => name !== '');
    await prober.waitForBaseline({ minMs: PROBE_BASELINE_MS, pods, timeoutMs: PROBE_BASELINE_TIMEOUT_MS, ...(signal ? { signal } : {}) });
  }));
}
