// Starts the experiment's traffic probers once the workloads are Ready: each sends its requests to the node port of
// its workload's Service on a node that is not a fault target, so kube-proxy there routes them as for any client.
import * as k8s from '@kubernetes/client-node';
import type { Cluster, ClusterNode } from '../cluster/index.js';
import { InfraError, InputError } from '../common/errors.js';
import { startProber, type Journal, type Prober } from '../observe/index.js';
import type { TrafficProbeSpec } from '../spec/types.js';
import { WORKLOAD_NAMESPACE } from '../workloads/index.js';

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

/**
 * Starts one prober per `probes` entry; each journals its `probe-started` marker (Service, URL, node, rate, timeout).
 * @returns the running probers; stop them (and await) before closing the journal.
 * @throws InputError (see proberNode); InfraError when a Service has no node port or a node no address.
 */
export async function startProbers(kc: k8s.KubeConfig, cluster: Cluster, probes: readonly TrafficProbeSpec[], targets: readonly string[], journal: Journal): Promise<Prober[]> {
  if (probes.length === 0) return [];
  const nodes = await cluster.nodes();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const started: Prober[] = [];
  try {
    for (const probe of probes) {
      const node = proberNode(probe, nodes, targets);
      const service = await core.readNamespacedService({ name: probe.service, namespace: WORKLOAD_NAMESPACE });
      const nodePort = service.spec?.ports?.[0]?.nodePort;
      if (!nodePort || !node.internalIP) {
        throw new InfraError(`probe ${probe.name}: Service ${WORKLOAD_NAMESPACE}/${probe.service} has no node port or node ${node.name} no address`, 'Check the Service (type NodePort) and the node');
      }
      const url = `http://${node.internalIP}:${nodePort}/`;
      started.push(startProber(journal, { name: probe.name, url, ratePerSecond: probe.ratePerSecond, timeoutMs: probe.timeoutMs, marker: { nodes: [node.name], detail: { service: probe.service } } }));
    }
  } catch (error) {
    await Promise.all(started.map((p) => p.stop()));
    throw error;
  }
  return started;
}
