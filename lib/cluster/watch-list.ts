// The one list+watch wait of rebootlab: list a collection, keep it current through a watch (client-node's
// ListWatch informer, never polling kubectl), and resolve once a condition holds on the whole collection.
import * as k8s from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';

/** The objects of one collection as the watch last saw them, keyed by `name` (cluster-scoped) or `namespace/name`. */
export type ObjectsByKey<T> = ReadonlyMap<string, T>;

/** Kinds {@link collectionOf} knows the list call and path of. */
export type CollectionKind = 'Node' | 'Pod' | 'Namespace' | 'PersistentVolume' | 'Deployment' | 'Lease' | 'PodDisruptionBudget' | 'CSINode';

/** A watchable collection: its API path and the typed list call of the same objects. */
export interface Collection<T extends k8s.KubernetesObject = k8s.KubernetesObject> {
  /** e.g. `/api/v1/nodes`, `/api/v1/namespaces/rebootlab/pods`. */
  path: string;
  /** Lists the collection (with the same selectors the watch uses). */
  list(): Promise<k8s.KubernetesListObject<T>>;
  /** Label selector applied to the list and the watch, e.g. `app=web`. */
  labelSelector?: string;
  /** Field selector applied to the list and the watch, e.g. `metadata.name=kind-worker`. */
  fieldSelector?: string;
}

/** Where {@link collectionOf} looks: a namespace for namespaced kinds (absent = all namespaces), and selectors. */
export interface CollectionScope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Options of {@link watchList}. */
export interface WatchListOptions<T> {
  /** Give up after this many milliseconds. */
  timeoutMs: number;
  /** What is awaited, for the error message, e.g. `every node Ready`. */
  what: string;
  /** Aborting ends the wait with an InfraError. */
  signal?: AbortSignal;
  /** Describes the objects for the timeout message (e.g. which nodes are not Ready yet). */
  describe?: (objects: ObjectsByKey<T>) => string;
}

/** Delay before restarting an informer that stopped on an error, milliseconds. */
const RESTART_DELAY_MS = 1_000;

/** The key of an object in {@link ObjectsByKey}: `name` when cluster-scoped, else `namespace/name`. */
export function objectKey(o: k8s.KubernetesObject): string {
  const name = o.metadata?.name ?? '';
  return o.metadata?.namespace ? `${o.metadata.namespace}/${name}` : name;
}

/**
 * Lists `collection`, then watches it until `done(objects)` returns true, and resolves with the objects
 * at that moment. `done` is judged only on complete states: once after the initial list, then after every
 * watch event (during the list, objects arrive one by one and an absence test would pass too early).
 * An informer that stops on an error (client-node stops on anything but 410 Gone) is restarted after 1 s.
 * @throws InfraError naming `what` after `timeoutMs` milliseconds (with `describe(objects)`), when `signal`
 *   aborts, or when the first list fails.
 */
export function watchList<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  collection: Collection<T>,
  done: (objects: ObjectsByKey<T>) => boolean,
  options: WatchListOptions<T>,
): Promise<ObjectsByKey<T>> {
  const objects = new Map<string, T>();
  const informer = new k8s.ListWatch<T>(collection.path, new k8s.Watch(kc), () => collection.list(), false, collection.labelSelector, collection.fieldSelector);
  return new Promise<ObjectsByKey<T>>((resolve, reject) => {
    let finished = false;
    let listed = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void informer.stop();
      if (error) reject(error);
      else resolve(objects);
    };
    const check = () => {
      if (!listed || finished) return;
      let ok = false;
      try {
        ok = done(objects);
      } catch (error) {
        return finish(error as Error);
      }
      if (ok) finish();
    };
    const onAbort = () => finish(new InfraError(`interrupted while waiting for ${options.what}`));
    const timer = setTimeout(() => {
      const detail = options.describe ? `: ${options.describe(objects)}` : '';
      finish(new InfraError(`timed out after ${options.timeoutMs / 1000} s waiting for ${options.what}${detail}`));
    }, options.timeoutMs);
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    informer.on('add', (o) => { objects.set(objectKey(o), o); check(); });
    informer.on('update', (o) => { objects.set(objectKey(o), o); check(); });
    informer.on('delete', (o) => { objects.delete(objectKey(o)); check(); });
    informer.on('error', () => {
      if (finished) return;
      setTimeout(() => { if (!finished) informer.start().catch(() => undefined); }, RESTART_DELAY_MS);
    });
    informer.start().then(
      () => { listed = true; check(); },
      (error: Error) => finish(new InfraError(`listing ${collection.path} failed: ${error.message}`, 'Run: rebootlab doctor', { cause: error })),
    );
  });
}

/**
 * The collection of `kind` objects (in `scope.namespace`, or all namespaces for a namespaced kind without one),
 * with the typed list call client-node offers for it.
 */
export function collectionOf(kc: k8s.KubeConfig, kind: 'Node', scope?: CollectionScope): Collection<k8s.V1Node>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'Pod', scope?: CollectionScope): Collection<k8s.V1Pod>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'Namespace', scope?: CollectionScope): Collection<k8s.V1Namespace>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'PersistentVolume', scope?: CollectionScope): Collection<k8s.V1PersistentVolume>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'Deployment', scope?: CollectionScope): Collection<k8s.V1Deployment>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'Lease', scope?: CollectionScope): Collection<k8s.V1Lease>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'PodDisruptionBudget', scope?: CollectionScope): Collection<k8s.V1PodDisruptionBudget>;
export function collectionOf(kc: k8s.KubeConfig, kind: 'CSINode', scope?: CollectionScope): Collection<k8s.V1CSINode>;
export function collectionOf(kc: k8s.KubeConfig, kind: CollectionKind, scope?: CollectionScope): Collection;
export function collectionOf(kc: k8s.KubeConfig, kind: CollectionKind, scope: CollectionScope = {}): Collection {
  const { namespace, labelSelector, fieldSelector } = scope;
  const selectors = { labelSelector, fieldSelector };
  const core = () => kc.makeApiClient(k8s.CoreV1Api);
  const ns = (group: string, plural: string) => (namespace ? `${group}/namespaces/${namespace}/${plural}` : `${group}/${plural}`);
  const make = (path: string, list: () => Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>): Collection => ({ path, list, labelSelector, fieldSelector });
  switch (kind) {
    case 'Node':
      return make('/api/v1/nodes', () => core().listNode(selectors));
    case 'Namespace':
      return make('/api/v1/namespaces', () => core().listNamespace(selectors));
    case 'PersistentVolume':
      return make('/api/v1/persistentvolumes', () => core().listPersistentVolume(selectors));
    case 'CSINode':
      return make('/apis/storage.k8s.io/v1/csinodes', () => kc.makeApiClient(k8s.StorageV1Api).listCSINode(selectors));
    case 'Pod':
      return make(ns('/api/v1', 'pods'), () => (namespace ? core().listNamespacedPod({ namespace, ...selectors }) : core().listPodForAllNamespaces(selectors)));
    case 'Deployment': {
      const apps = kc.makeApiClient(k8s.AppsV1Api);
      return make(ns('/apis/apps/v1', 'deployments'), () => (namespace ? apps.listNamespacedDeployment({ namespace, ...selectors }) : apps.listDeploymentForAllNamespaces(selectors)));
    }
    case 'Lease': {
      const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
      return make(ns('/apis/coordination.k8s.io/v1', 'leases'), () => (namespace ? coordination.listNamespacedLease({ namespace, ...selectors }) : coordination.listLeaseForAllNamespaces(selectors)));
    }
    case 'PodDisruptionBudget': {
      const policy = kc.makeApiClient(k8s.PolicyV1Api);
      return make(ns('/apis/policy/v1', 'poddisruptionbudgets'), () => (namespace ? policy.listNamespacedPodDisruptionBudget({ namespace, ...selectors }) : policy.listPodDisruptionBudgetForAllNamespaces(selectors)));
    }
  }
}

/** Whether a Node has condition Ready=True. */
export function isNodeReady(node: k8s.V1Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Whether a Pod has condition Ready=True. */
export function isPodReady(pod: k8s.V1Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}
