// Waits of scripted experiments, each a list+watch through lib/cluster's watchList (never polling kubectl).
import type * as k8s from '@kubernetes/client-node';
import { collectionOf, isNodeReady, isPodReady, watchList, type CollectionKind, type CollectionScope, type ObjectsByKey } from '../cluster/index.js';
import { NODE_LEASE_NAMESPACE } from '../observe/index.js';
import { WORKLOAD_NAMESPACE } from '../workloads/index.js';

/** Default limit of every wait, milliseconds (5 minutes). */
export const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

/** Options every wait takes. */
export interface WaitOptions {
  /** Give up after this many milliseconds (default 300000); the wait then throws InfraError. */
  timeoutMs?: number;
}

/** Options of {@link WaitFor.nodeReady}. */
export interface NodeReadyOptions extends WaitOptions {
  /**
   * Client clock instant (Unix epoch milliseconds), e.g. when a reboot command returned: also require the
   * kubelet's Lease (`kube-node-lease/<node>`) renewed after it. A quick reboot never turns the Node NotReady
   * (the control plane needs `nodeMonitorGracePeriod` to notice), so Ready=True alone proves nothing then.
   */
  heartbeatAfterMs?: number;
}

/** Options of {@link WaitFor.podsReady}. */
export interface PodsReadyOptions extends WaitOptions {
  /** Namespace, default `rebootlab` (where `lab.deploy` puts workloads). */
  namespace?: string;
  /** Ready pods needed (not terminating); default: at least one, and every matching pod Ready. */
  count?: number;
}

/** Options of {@link WaitFor.taint}. */
export interface TaintOptions extends WaitOptions {
  /** Wait for the taint to be present (default true) or absent. */
  present?: boolean;
}

/** Options of {@link WaitFor.until}. */
export interface UntilOptions extends WaitOptions, CollectionScope {
  /** What is awaited, for the timeout message. */
  what?: string;
}

/** Taint effects of core/v1. */
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

/** Waits for conditions on the cluster; each rejects with InfraError on timeout or when the run is interrupted. */
export interface WaitFor {
  /** Node `name` has Ready=True (and, with `heartbeatAfterMs`, a Lease renewed after it). Resolves to the Node. */
  nodeReady(name: string, options?: NodeReadyOptions): Promise<k8s.V1Node>;
  /** Node `name` has Ready other than True (`Unknown` after the grace period, `False` from the kubelet). Resolves to the Node. */
  nodeNotReady(name: string, options?: WaitOptions): Promise<k8s.V1Node>;
  /** Node `name` no longer exists (deleted from the API). */
  nodeDeleted(name: string, options?: WaitOptions): Promise<void>;
  /** Pods matching the label selector (e.g. `rebootlab.dev/workload=web`) are Ready; see PodsReadyOptions. Resolves to them. */
  podsReady(selector: string, options?: PodsReadyOptions): Promise<k8s.V1Pod[]>;
  /** Node `node` carries (or, with `present: false`, no longer carries) the taint `key:effect`. Resolves to the Node. */
  taint(node: string, key: string, effect: TaintEffect, options?: TaintOptions): Promise<k8s.V1Node>;
  /** Any condition on a collection: resolves to its objects once `done(objects)` returns true. */
  until<K extends CollectionKind>(kind: K, done: (objects: ObjectsByKey<KindObject<K>>) => boolean, options?: UntilOptions): Promise<ObjectsByKey<KindObject<K>>>;
}

/** The client-node type of each collection kind. */
export type KindObject<K extends CollectionKind> = {
  Node: k8s.V1Node; Pod: k8s.V1Pod; Namespace: k8s.V1Namespace; PersistentVolume: k8s.V1PersistentVolume;
  Deployment: k8s.V1Deployment; Lease: k8s.V1Lease; PodDisruptionBudget: k8s.V1PodDisruptionBudget; CSINode: k8s.V1CSINode;
}[K];

/** Builds the waits of one cluster; `signal` (the run's) ends every wait early. */
export function makeWaitFor(kc: k8s.KubeConfig, signal: AbortSignal): WaitFor {
  const opts = (what: string, o: WaitOptions = {}) => ({ what, timeoutMs: o.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS, signal });
  const node = (name: string) => collectionOf(kc, 'Node', { fieldSelector: `metadata.name=${name}` });
  const only = <T>(objects: ObjectsByKey<T>) => [...objects.values()][0];
  const readyOf = (n: k8s.V1Node | undefined) => n?.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'absent';
  return {
    async nodeReady(name, o = {}) {
      const startMs = Date.now();
      if (o.heartbeatAfterMs !== undefined) {
        const after = o.heartbeatAfterMs;
        await watchList(kc, collectionOf(kc, 'Lease', { namespace: NODE_LEASE_NAMESPACE, fieldSelector: `metadata.name=${name}` }), (leases) => {
          const renew = only(leases)?.spec?.renewTime;
          return renew !== undefined && new Date(renew).getTime() > after;
        }, opts(`Lease of ${name} renewed after ${new Date(after).toISOString()}`, o));
      }
      const left = Math.max(1, (o.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS) - (Date.now() - startMs));
      return only(await watchList(kc, node(name), (all) => isNodeReady(only(all) ?? {}), { ...opts(`Node ${name} Ready`), timeoutMs: left, describe: (all) => `Ready=${readyOf(only(all))}` }));
    },
    async nodeNotReady(name, o = {}) {
      return only(await watchList(kc, node(name), (all) => only(all) !== undefined && !isNodeReady(only(all)), opts(`Node ${name} not Ready`, o)));
    },
    async nodeDeleted(name, o = {}) {
      await watchList(kc, node(name), (all) => all.size === 0, opts(`Node ${name} deleted`, o));
    },
    async podsReady(selector, o = {}) {
      const pods = collectionOf(kc, 'Pod', { namespace: o.namespace ?? WORKLOAD_NAMESPACE, labelSelector: selector });
      const live = (all: ObjectsByKey<k8s.V1Pod>) => [...all.values()].filter((p) => !p.metadata?.deletionTimestamp);
      const all = await watchList(kc, pods, (all) => {
        const ready = live(all).filter(isPodReady).length;
        return o.count !== undefined ? ready >= o.count : ready > 0 && ready === live(all).length;
      }, { ...opts(`pods ${selector} Ready`, o), describe: (all) => `${live(all).filter(isPodReady).length}/${live(all).length} Ready` });
      return live(all).filter(isPodReady);
    },
    async taint(name, key, effect, o = {}) {
      const want = o.present ?? true;
      const has = (n: k8s.V1Node | undefined) => (n?.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);
      return only(await watchList(kc, node(name), (all) => only(all) !== undefined && has(only(all)) === want, opts(`taint ${key}:${effect} ${want ? 'on' : 'off'} ${name}`, o)));
    },
    async until(kind, done, o = {}) {
      const collection = collectionOf(kc, kind, { namespace: o.namespace, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector });
      return (await watchList(kc, collection, done as never, opts(o.what ?? `a condition on ${kind} objects`, o))) as never;
    },
  };
}
