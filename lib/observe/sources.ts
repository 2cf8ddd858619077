// What the observer watches: one WatchSource per resource collection (API path + list call).
import type { KubeConfig } from '@kubernetes/client-node';
import { listCollection } from './list.js';
import { projectObject } from './project.js';
import type { RawList } from './raw-types.js';
import { CONTROLLER_MANAGER_LEASE, type WatchedKind } from './types.js';

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


/** What {@link makeSources} adds to the collections every run watches. */
export interface SourceOptions {
  /**
   * Also watch VolumeAttachments and PersistentVolumes (both cluster-scoped): the attach/detach controller's work on
   * attachable volumes, joined to pods through each PersistentVolume's claimRef. Off unless the run uses attachable
   * volumes: on a cluster of someone else's, listing them may not be allowed.
   */
  volumes?: boolean;
}

/**
 * The collections rebootlab watches: Nodes, Leases in kube-node-lease, the kube-controller-manager leader Lease
 * (kube-system, renewed every 2 s by default), Pods in all namespaces, and core/v1
 * Events, EndpointSlices and batch/v1 Jobs in each of `namespaces` (plus `default`, where the node lifecycle controller
 * records NodeNotReady events), and with `options.volumes` VolumeAttachments and PersistentVolumes. Duplicated
 * namespaces are watched once. Each list is raw JSON in pages
 * (lib/observe/list.ts), every object projected (lib/observe/project.ts) as it arrives.
 */
export function makeSources(kc: KubeConfig, namespaces: readonly string[], options: SourceOptions = {}): WatchSource[] {
  const source = (kind: WatchedKind, path: string, label: string, fieldSelector?: string): WatchSource => ({
    kind,
    path,
    label,
    ...(fieldSelector ? { fieldSelector } : {}),
    list: () => listCollection(kc, path, { fieldSelector, project: (obj) => projectObject(kind, obj) }),
  });
  const sources: WatchSource[] = [
    source('Node', '/api/v1/nodes', 'Node'),
    source('Lease', `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`, `Lease (${NODE_LEASE_NAMESPACE})`),
    source(
      'Lease',
      `/apis/coordination.k8s.io/v1/namespaces/${CONTROLLER_MANAGER_LEASE.namespace}/leases`,
      `Lease (${CONTROLLER_MANAGER_LEASE.namespace}/${CONTROLLER_MANAGER_LEASE.name})`,
      `metadata.name=${CONTROLLER_MANAGER_LEASE.name}`,
    ),
    source('Pod', '/api/v1/pods', 'Pod (all namespaces)'),
  ];
  if (options.volumes) {
    sources.push(source('VolumeAttachment', '/apis/storage.k8s.io/v1/volumeattachments', 'VolumeAttachment'));
    sources.push(source('PersistentVolume', '/api/v1/persistentvolumes', 'PersistentVolume'));
  }
  for (const namespace of [...new Set(['default', ...namespaces])].sort()) {
    sources.push(source('Event', `/api/v1/namespaces/${namespace}/events`, `Event (${namespace})`));
    sources.push(source('EndpointSlice', `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, `EndpointSlice (${namespace})`));
    // Jobs: their status (active, failed, succeeded, terminating) and conditions, and the spec fields that decide
    // when the Job controller replaces a pod (podReplacementPolicy, podFailurePolicy, backoffLimit).
    sources.push(source('Job', `/apis/batch/v1/namespaces/${namespace}/jobs`, `Job (${namespace})`));
  }
  return sources;
}
