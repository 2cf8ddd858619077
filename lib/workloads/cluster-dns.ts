// The cluster DNS as a DNS prober reaches it: Service kube-system/kube-dns (kubeadm's name for CoreDNS's Service)
// is a ClusterIP Service, reachable only from inside the cluster, so the prober sends through a NodePort twin with
// the same selector: the same pods, endpoints from the same EndpointSlice controller, and the same kube-proxy rules
// and UDP conntrack cleanup (pkg/proxy/conntrack/cleanup.go CleanStaleEntries clears a NodePort's stale UDP entries
// like a ClusterIP's, v1.34.4).
import { CoreV1Api, type KubeConfig, type V1Pod, type V1Service } from '@kubernetes/client-node';
import { apiError, apiErrorCode } from '../cluster/kube-client.js';
import { InfraError } from '../common/errors.js';
import { applyObjects } from './apply.js';
import { MANAGED_BY_LABEL } from './pod-template.js';
import type { RenderedObject } from './types.js';
import { labelSelectorText } from './selected.js';

/** The cluster DNS Service kubeadm creates (cmd/kubeadm/app/phases/addons/dns/manifests.go, v1.34.4). */
export const CLUSTER_DNS_SERVICE = { namespace: 'kube-system', name: 'kube-dns' } as const;
/** The NodePort twin of the cluster DNS Service rebootlab adds for a run with a DNS prober, in the same namespace. */
export const DNS_NODE_PORT_SERVICE = 'rebootlab-dns';

/** The twin as created: where its endpoints are and which node port it got. */
export interface DnsNodePort {
  namespace: string;
  /** The twin Service's name (its EndpointSlices carry `kubernetes.io/service-name=<name>`). */
  service: string;
  nodePort: number;
  /** The cluster DNS Service's pod selector, copied. */
  selector: Record<string, string>;
}

/**
 * The NodePort twin of `kubeDns`: same namespace and selector, its UDP port (53 on kubeadm clusters) with the same
 * targetPort, labelled managed-by rebootlab. Pure.
 * @throws InfraError when `kubeDns` has no selector or no UDP port.
 */
export function renderDnsNodePortService(kubeDns: V1Service): RenderedObject {
  const selector = kubeDns.spec?.selector;
  const udp = kubeDns.spec?.ports?.find((p) => p.protocol === 'UDP');
  const where = `${kubeDns.metadata?.namespace ?? CLUSTER_DNS_SERVICE.namespace}/${kubeDns.metadata?.name ?? CLUSTER_DNS_SERVICE.name}`;
  if (!selector || Object.keys(selector).length === 0) throw new InfraError(`Service ${where} has no pod selector: a DNS prober needs the DNS pods it selects`);
  if (!udp) throw new InfraError(`Service ${where} has no UDP port: a DNS prober sends UDP queries`);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: DNS_NODE_PORT_SERVICE, namespace: kubeDns.metadata?.namespace ?? CLUSTER_DNS_SERVICE.namespace, labels: { [MANAGED_BY_LABEL]: 'rebootlab' } },
    spec: { type: 'NodePort', selector: { ...selector }, ports: [{ name: 'dns', protocol: 'UDP', port: udp.port, targetPort: udp.targetPort ?? udp.port }] },
  };
}

/**
 * Reads the cluster DNS Service and applies its NodePort twin (server-side apply: a twin left by a killed run is
 * taken over). Resolves to the twin's node port and selector.
 * @throws InfraError when kube-system/kube-dns does not exist, has no selector or UDP port, or the API fails.
 */
export async function applyDnsNodePortService(kc: KubeConfig): Promise<DnsNodePort> {
  const core = kc.makeApiClient(CoreV1Api);
  let kubeDns: V1Service;
  try {
    kubeDns = await core.readNamespacedService(CLUSTER_DNS_SERVICE);
  } catch (error) {
    if (apiErrorCode(error) === 404) {
      throw new InfraError(`a DNS prober needs the cluster DNS Service ${CLUSTER_DNS_SERVICE.namespace}/${CLUSTER_DNS_SERVICE.name}, which this cluster does not have`, 'Check with kubectl -n kube-system get services');
    }
    throw apiError(`read Service ${CLUSTER_DNS_SERVICE.namespace}/${CLUSTER_DNS_SERVICE.name}`, error);
  }
  const twin = renderDnsNodePortService(kubeDns);
  await applyObjects(kc, [twin]);
  const namespace = twin.metadata.namespace!;
  let applied: V1Service;
  try {
    applied = await core.readNamespacedService({ namespace, name: DNS_NODE_PORT_SERVICE });
  } catch (error) {
    throw apiError(`read Service ${namespace}/${DNS_NODE_PORT_SERVICE}`, error);
  }
  const nodePort = applied.spec?.ports?.[0]?.nodePort;
  if (!nodePort) throw new InfraError(`Service ${namespace}/${DNS_NODE_PORT_SERVICE} got no node port`, 'Check the API server\'s --service-node-port-range');
  return { namespace, service: DNS_NODE_PORT_SERVICE, nodePort, selector: { ...(twin.spec as { selector: Record<string, string> }).selector } };
}

/** Deletes the NodePort twin; one already gone is fine. @throws InfraError when the API fails otherwise. */
export async function deleteDnsNodePortService(kc: KubeConfig, namespace: string = CLUSTER_DNS_SERVICE.namespace): Promise<void> {
  try {
    await kc.makeApiClient(CoreV1Api).deleteNamespacedService({ namespace, name: DNS_NODE_PORT_SERVICE });
  } catch (error) {
    if (apiErrorCode(error) !== 404) throw apiError(`delete Service ${namespace}/${DNS_NODE_PORT_SERVICE}`, error);
  }
}

/** The cluster DNS pods (the kube-dns selector), not terminating. @throws InfraError when the API fails. */
export async function listClusterDnsPods(kc: KubeConfig): Promise<V1Pod[]> {
  const core = kc.makeApiClient(CoreV1Api);
  try {
    const service = await core.readNamespacedService(CLUSTER_DNS_SERVICE);
    const selector = service.spec?.selector ?? {};
    const pods = await core.listNamespacedPod({ namespace: CLUSTER_DNS_SERVICE.namespace, labelSelector: labelSelectorText(selector) });
    return pods.items.filter((p) => !p.metadata?.deletionTimestamp);
  } catch (error) {
    throw apiError(`list the cluster DNS pods (${CLUSTER_DNS_SERVICE.namespace}/${CLUSTER_DNS_SERVICE.name})`, error);
  }
}
