// What the observer watches: one WatchSource per resource collection (API path + list call).
import { CoordinationV1Api, CoreV1Api, DiscoveryV1Api, KubeConfig } from '@kubernetes/client-node';
import { CONTROLLER_MANAGER_LEASE, type WatchedKind } from './types.js';

/** A Kubernetes object as the observer handles it: JSON-shaped, with metadata. */
export interface RawObject {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string; managedFields?: unknown };
  [key: string]: unknown;
}

/** A list response reduced to what a ListWatch needs. */
export interface RawList {
  metadata?: { resourceVersion?: string };
  items: RawObject[];
}

/** One watched collection: the watch path (relative to the API server URL) and its list call. */
export interface WatchSource {
  kind: WatchedKind;
  /** e.g. `/api/v1/pods` or `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices`. */
  path: string;
  /** Human name for gaps and warnings, e.g. `Pod (all namespaces)`. */
  label: string;
  /** Field selector of both the list and the watch (e.g. `metadata.name=kube-controller-manager`); none when absent. */
  fieldSelector?: string;
  list(): Promise<RawList>;
}

/** Namespace where kubelets keep their Lease (KEP-589, https://kubernetes.io/docs/concepts/architecture/leases/). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';


/**
 * The typed clients turn timestamps into `Date`s; a JSON round trip gives back RFC 3339 strings
 * (with milliseconds, e.g. `2026-11-30T12:00:00.000Z`, where a watch event sends `...12:00:00Z`;
 * both parse the same; Lease renewTime MicroTime loses its microseconds, below our millisecond resolution).
 */
function plain(list: unknown): RawList {
  return JSON.parse(JSON.stringify(list)) as RawList;
}

/**
 * The collections rebootlab watches: Nodes, Leases in kube-node-lease, the kube-controller-manager leader Lease
 * (kube-system, renewed every 2 s by default), Pods in all namespaces, and core/v1
 * Events and EndpointSlices in each of `namespaces` (plus `default`, where the node lifecycle controller
 * records NodeNotReady events). Duplicated namespaces are watched once.
 */
export function makeSources(kc: KubeConfig, namespaces: readonly string[]): WatchSource[] {
  const core = kc.makeApiClient(CoreV1Api);
  const coordination = kc.makeApiClient(CoordinationV1Api);
  const discovery = kc.makeApiClient(DiscoveryV1Api);
  const sources: WatchSource[] = [
    { kind: 'Node', path: '/api/v1/nodes', label: 'Node', list: async () => plain(await core.listNode()) },
    {
      kind: 'Lease',
      path: `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
      label: `Lease (${NODE_LEASE_NAMESPACE})`,
      list: async () => plain(await coordination.listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE })),
    },
    {
      kind: 'Lease',
      path: `/apis/coordination.k8s.io/v1/namespaces/${CONTROLLER_MANAGER_LEASE.namespace}/leases`,
      label: `Lease (${CONTROLLER_MANAGER_LEASE.namespace}/${CONTROLLER_MANAGER_LEASE.name})`,
      fieldSelector: `metadata.name=${CONTROLLER_MANAGER_LEASE.name}`,
      list: async () =>
        plain(await coordination.listNamespacedLease({ namespace: CONTROLLER_MANAGER_LEASE.namespace, fieldSelector: `metadata.name=${CONTROLLER_MANAGER_LEASE.name}` })),
    },
    { kind: 'Pod', path: '/api/v1/pods', label: 'Pod (all namespaces)', list: async () => plain(await core.listPodForAllNamespaces()) },
  ];
  for (const namespace of [...new Set(['default', ...namespaces])].sort()) {
    sources.push({
      kind: 'Event',
      path: `/api/v1/namespaces/${namespace}/events`,
      label: `Event (${namespace})`,
      list: async () => plain(await core.listNamespacedEvent({ namespace })),
    });
    sources.push({
      kind: 'EndpointSlice',
      path: `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`,
      label: `EndpointSlice (${namespace})`,
      list: async () => plain(await discovery.listNamespacedEndpointSlice({ namespace })),
    });
  }
  return sources;
}
