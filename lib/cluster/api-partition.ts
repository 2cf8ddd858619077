// The control-plane partition (`network-partition` with `scope: control-plane`): inside the node's network namespace,
// drop only the traffic between the node and the API server endpoints (both directions, the kubelet's port too), so
// the kubelet and every client on the node lose the API server while node-to-node and client traffic flows on.
// Shared by the kind provider (docker exec into the node) and the agent backend (nsenter on the node).
import type { CoreV1Api } from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';
import { apiError } from './kube-client.js';

/** The iptables / ip6tables chain of the control-plane partition, jumped to from INPUT, OUTPUT and FORWARD. */
export const API_PARTITION_CHAIN = 'REBOOTLAB-API-PARTITION';

/**
 * The kubelet's port, which the API server connects to for logs, exec and port-forward: KubeletConfiguration `port`,
 * default 10250 (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/).
 */
export const KUBELET_PORT = 10250;

/** An API server endpoint: address and port (default/kubernetes, or the kubelet's kubeconfig server resolved on the node). */
export interface ApiEndpoint {
  ip: string;
  port: number;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+$/i;

/**
 * Removes the partition: unhooks the chain from INPUT, OUTPUT and FORWARD and deletes it, for IPv4 and IPv6; a chain
 * that is not there is no error. A constant (nothing from the cluster in it), so `pending-restore.json` may hold it
 * as `docker exec <node> sh -c <this>` and restore-commands.ts accepts exactly this text.
 */
export const API_PARTITION_UNDO = ['iptables', 'ip6tables']
  .flatMap((t) => [`${t} -D INPUT -j ${API_PARTITION_CHAIN}`, `${t} -D OUTPUT -j ${API_PARTITION_CHAIN}`, `${t} -D FORWARD -j ${API_PARTITION_CHAIN}`, `${t} -F ${API_PARTITION_CHAIN}`, `${t} -X ${API_PARTITION_CHAIN}`])
  .map((c) => `${c} 2>/dev/null`)
  .concat('true')
  .join('; ');

/**
 * The shell script that partitions a node from `endpoints`: after {@link API_PARTITION_UNDO} (idempotent), a chain
 * dropping TCP to each endpoint's port and from it (the replies), and the API server's connections to the kubelet's
 * port and their replies; IPv6 endpoints through ip6tables. Hooked into FORWARD as well: pods reach the API server
 * through the `kubernetes` Service, DNATed to the same endpoints before the filter table sees them.
 * @throws InfraError for an address or port that is not one (nothing from the cluster reaches the shell unchecked).
 */
export function apiPartitionScript(endpoints: readonly ApiEndpoint[]): string {
  if (endpoints.length === 0) throw new InfraError('network-partition scope control-plane: no API server endpoint to cut the node off from');
  for (const e of endpoints) {
    if (!(IPV4.test(e.ip) || (e.ip.includes(':') && IPV6.test(e.ip))) || !Number.isInteger(e.port) || e.port < 1 || e.port > 65535) {
      throw new InfraError(`network-partition scope control-plane: ${JSON.stringify(e)} is not an address and port`);
    }
  }
  const lines: string[] = [API_PARTITION_UNDO];
  for (const [tool, v6] of [['iptables', false], ['ip6tables', true]] as const) {
    const mine = endpoints.filter((e) => e.ip.includes(':') === v6);
    if (mine.length === 0) continue;
    lines.push(`${tool} -N ${API_PARTITION_CHAIN}`);
    for (const ip of [...new Set(mine.map((e) => e.ip))]) {
      for (const port of [...new Set(mine.filter((e) => e.ip === ip).map((e) => e.port))]) {
        lines.push(`${tool} -A ${API_PARTITION_CHAIN} -p tcp -d ${ip} --dport ${port} -j DROP`, `${tool} -A ${API_PARTITION_CHAIN} -p tcp -s ${ip} --sport ${port} -j DROP`);
      }
      lines.push(`${tool} -A ${API_PARTITION_CHAIN} -p tcp -s ${ip} --dport ${KUBELET_PORT} -j DROP`, `${tool} -A ${API_PARTITION_CHAIN} -p tcp -d ${ip} --sport ${KUBELET_PORT} -j DROP`);
    }
    lines.push(...['INPUT', 'OUTPUT', 'FORWARD'].map((hook) => `${tool} -I ${hook} -j ${API_PARTITION_CHAIN}`));
  }
  return lines.join(' && ');
}

/**
 * The API server's endpoints as the `kubernetes` Service in namespace default lists them (its Endpoints object).
 * @throws InfraError when the API cannot be asked.
 */
export async function apiServerEndpoints(core: CoreV1Api): Promise<ApiEndpoint[]> {
  try {
    const endpoints = await core.readNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' });
    return (endpoints.subsets ?? []).flatMap((s) => (s.addresses ?? []).flatMap((a) => (s.ports ?? []).map((p) => ({ ip: a.ip, port: p.port }))));
  } catch (error) {
    throw apiError('read the API server endpoints (default/kubernetes)', error);
  }
}

/**
 * Addresses of `getent ahosts` output (`<address> <STREAM|DGRAM|RAW> [name]` per line), without IPv4-mapped IPv6
 * (`::ffff:a.b.c.d`, the IPv4 peer again) and link-local (`fe80::/10`, not routed between machines), sorted, distinct.
 */
export function parseHostAddresses(getentOutput: string): string[] {
  const addresses = getentOutput.split('\n').map((line) => line.trim().split(/\s+/)[0] ?? '').filter((a) => /^[0-9a-f.:]+$/i.test(a) && a.length > 0);
  return [...new Set(addresses.filter((a) => !/^::ffff:/i.test(a) && !/^fe[89ab][0-9a-f]:/i.test(a)))].sort();
}

/** The host of a kubeconfig's `server: https://host:port` line (a kubelet's kubeconfig), or null; a DNS name or an address only. */
export function kubeconfigServer(kubeconfig: string): { host: string; port: number } | null {
  const m = /server:\s*https:\/\/(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+)(?::(\d+))?/i.exec(kubeconfig);
  if (!m) return null;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : 443 };
}
