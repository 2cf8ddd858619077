// Draining a node through the Eviction API, which honours PodDisruptionBudgets (cordoning is the `cordon`
// node action, ./node-api-actions.ts).
import * as k8s from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';
import { apiError, apiErrorCode } from './kube-client.js';
import { collectionOf, watchList } from './watch-list.js';

/** Wait between eviction attempts a PodDisruptionBudget refused (HTTP 429), milliseconds; `kubectl drain` waits 5 s. */
const EVICTION_RETRY_MS = 1_000;

/** Options of {@link drainNode}. */
export interface DrainOptions {
  /** Namespace whose pods on the node are evicted (DaemonSet pods are skipped, as `kubectl drain --ignore-daemonsets`). */
  namespace: string;
  /** Give up after this many milliseconds (PodDisruptionBudgets may refuse evictions for a while). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Evicts every non-DaemonSet pod of `options.namespace` on `node` through the Eviction API (policy/v1),
 * retrying each refusal by a PodDisruptionBudget (HTTP 429) every second, then waits (list+watch) until those
 * pods are gone from the node. Cordon the node first, or replacements may land on it again.
 * https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/
 * Resolves to the names of the evicted pods.
 * @throws InfraError after `timeoutMs` milliseconds or when the API fails otherwise.
 */
export async function drainNode(kc: k8s.KubeConfig, node: string, options: DrainOptions): Promise<string[]> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const deadlineMs = Date.now() + options.timeoutMs;
  const { items } = await core.listNamespacedPod({ namespace: options.namespace, fieldSelector: `spec.nodeName=${node}` });
  const pods = items.filter((p) => !p.metadata?.deletionTimestamp && !p.metadata?.ownerReferences?.some((o) => o.kind === 'DaemonSet'));
  const names = pods.map((p) => p.metadata!.name!);
  await Promise.all(names.map(async (name) => {
    for (;;) {
      if (options.signal?.aborted) throw new InfraError(`interrupted while evicting pod ${name}`);
      try {
        await core.createNamespacedPodEviction({ name, namespace: options.namespace, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: options.namespace } } });
        return;
      } catch (error) {
        const code = apiErrorCode(error);
        if (code === 404) return; // already gone
        if (code !== 429) throw apiError(`evict pod ${options.namespace}/${name}`, error);
        if (Date.now() > deadlineMs) throw new InfraError(`a PodDisruptionBudget kept refusing the eviction of ${options.namespace}/${name} for ${options.timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, EVICTION_RETRY_MS));
      }
    }
  }));
  const left = new Set(names);
  await watchList(kc, collectionOf(kc, 'Pod', { namespace: options.namespace, fieldSelector: `spec.nodeName=${node}` }),
    (now) => ![...now.values()].some((p) => left.has(p.metadata?.name ?? '')),
    { timeoutMs: Math.max(1, deadlineMs - Date.now()), what: `evicted pods gone from ${node}`, signal: options.signal });
  return names;
}
