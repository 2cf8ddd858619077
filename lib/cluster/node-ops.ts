// Evicting the pods of a node through the Eviction API, which honours PodDisruptionBudgets (the `evict-pods` and
// `drain` node actions, and a script's lab.drain); cordoning is the `cordon` node action (./node-api-actions.ts).
import * as k8s from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';
import { abortableSleep } from '../common/sleep.js';
import { AGENT_LABEL } from './agent-label.js';
import { apiError, apiErrorCode } from './kube-client.js';
import type { EvictionAttempt, PodSelection } from './provider.js';
import { collectionOf, watchList } from './watch-list.js';

/**
 * Wait between eviction attempts a PodDisruptionBudget refused (HTTP 429), milliseconds: `kubectl drain` waits 5 s
 * (k8s.io/kubectl/pkg/drain, `evictPods`: "error when evicting pods ... will retry after 5s").
 */
export const EVICTION_RETRY_MS = 5_000;

/** Annotation of a mirror pod (the API's copy of a static pod); the Eviction API cannot remove those, `kubectl drain` skips them. */
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/** Options of {@link evictPodsOn}. */
export interface EvictOptions {
  /** Retry refused evictions for this long, milliseconds; 0 = one attempt each. */
  retryForMs: number;
  /** Called at each pod's first refusal and once its outcome is final (see EvictionAttempt.final). Must not throw. */
  onEviction?(attempt: EvictionAttempt): void;
  /** Milliseconds between attempts of a refused pod; default {@link EVICTION_RETRY_MS}. */
  retryDelayMs?: number;
  /** Client clock, Unix epoch milliseconds; default Date.now. */
  now?: () => number;
  signal?: AbortSignal;
}

/**
 * The pods of `node` an eviction asks for, as `kubectl drain --ignore-daemonsets --delete-emptydir-data` picks them:
 * bound to the node, in `selection` (namespace, labels), not terminating, not finished (Succeeded/Failed), not a
 * DaemonSet's (it would recreate them on the node) nor a mirror pod, and never rebootlab's own agent pods.
 * @throws InfraError when listing fails.
 */
export async function podsToEvict(core: k8s.CoreV1Api, node: string, selection: PodSelection): Promise<k8s.V1Pod[]> {
  const fieldSelector = `spec.nodeName=${node}`;
  const labelSelector = Object.entries(selection.matchLabels).map(([k, v]) => `${k}=${v}`).join(',') || undefined;
  let items: k8s.V1Pod[];
  try {
    items = selection.namespace === null
      ? (await core.listPodForAllNamespaces({ fieldSelector, labelSelector })).items
      : (await core.listNamespacedPod({ namespace: selection.namespace, fieldSelector, labelSelector })).items;
  } catch (error) {
    throw apiError(`list pods on Node ${node}`, error);
  }
  return items.filter((p) =>
    !p.metadata?.deletionTimestamp &&
    p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' &&
    !p.metadata?.ownerReferences?.some((o) => o.kind === 'DaemonSet') &&
    !(MIRROR_ANNOTATION in (p.metadata?.annotations ?? {})) &&
    !(AGENT_LABEL in (p.metadata?.labels ?? {})));
}

/** The status message of an API error's body, e.g. a PodDisruptionBudget's refusal; null when it has none. */
function refusalMessage(error: unknown): string | null {
  const body = (error as { body?: unknown }).body;
  try {
    const parsed = typeof body === 'string' ? JSON.parse(body) : body;
    return typeof parsed?.message === 'string' ? parsed.message : null;
  } catch {
    return null;
  }
}

/**
 * Asks the Eviction API (policy/v1) to evict each pod of {@link podsToEvict}, all at once; a pod a PodDisruptionBudget
 * protects is refused with HTTP 429 and retried every `retryDelayMs` until `retryForMs` has passed, then left as
 * `refused`, which is an outcome, not an error. Does not wait for the evicted pods to terminate.
 * https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/
 * Resolves to one final EvictionAttempt per pod.
 * @throws InfraError when listing fails or the API answers otherwise than 201, 404 or 429; when aborted.
 */
export async function evictPodsOn(core: k8s.CoreV1Api, node: string, selection: PodSelection, options: EvictOptions): Promise<EvictionAttempt[]> {
  const now = options.now ?? Date.now;
  const retryDelayMs = options.retryDelayMs ?? EVICTION_RETRY_MS;
  const startMs = now();
  const pods = await podsToEvict(core, node, selection);
  return Promise.all(pods.map(async (pod) => {
    const name = pod.metadata!.name!;
    const namespace = pod.metadata!.namespace!;
    const attempt: EvictionAttempt = {
      node, namespace, pod: name, uid: pod.metadata?.uid ?? '', outcome: 'refused', attempts: 0, refusals: 0,
      firstAttemptAtMs: now(), lastAttemptAtMs: now(), message: null, final: false,
    };
    for (;;) {
      if (options.signal?.aborted) throw new InfraError(`interrupted while evicting pod ${namespace}/${name}`);
      attempt.lastAttemptAtMs = now();
      attempt.attempts += 1;
      try {
        await core.createNamespacedPodEviction({ name, namespace, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } } });
        attempt.outcome = 'evicted';
        break;
      } catch (error) {
        const code = apiErrorCode(error);
        if (code === 404) {
          attempt.outcome = 'gone';
          break;
        }
        if (code !== 429) throw apiError(`evict pod ${namespace}/${name}`, error);
        attempt.refusals += 1;
        attempt.message = refusalMessage(error);
        if (attempt.refusals === 1) options.onEviction?.({ ...attempt });
        if (now() + retryDelayMs > startMs + options.retryForMs) break;
        await abortableSleep(retryDelayMs, options.signal);
      }
    }
    const final = { ...attempt, final: true };
    options.onEviction?.(final);
    return final;
  }));
}

/** Options of {@link drainNode}. */
export interface DrainOptions {
  /** Namespace whose pods on the node are evicted (DaemonSet pods are skipped, as `kubectl drain --ignore-daemonsets`). */
  namespace: string;
  /** Give up after this many milliseconds (PodDisruptionBudgets may refuse evictions for a while). */
  timeoutMs: number;
  /** Called at each pod's first refusal and once its outcome is final. */
  onEviction?(attempt: EvictionAttempt): void;
  signal?: AbortSignal;
}

/**
 * Evicts every non-DaemonSet pod of `options.namespace` on `node` through the Eviction API (policy/v1) with
 * {@link evictPodsOn}, retrying each refusal by a PodDisruptionBudget until `timeoutMs`, then waits (list+watch)
 * until those pods are gone from the node. Cordon the node first, or replacements may land on it again.
 * Resolves to the names of the evicted pods.
 * @throws InfraError when a budget still refuses after `timeoutMs` milliseconds, the pods are not gone by then, or
 *   the API fails otherwise.
 */
export async function drainNode(kc: k8s.KubeConfig, node: string, options: DrainOptions): Promise<string[]> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const deadlineMs = Date.now() + options.timeoutMs;
  const attempts = await evictPodsOn(core, node, { namespace: options.namespace, matchLabels: {} }, {
    retryForMs: options.timeoutMs, onEviction: options.onEviction, signal: options.signal,
  });
  const refused = attempts.find((a) => a.outcome === 'refused');
  if (refused) throw new InfraError(`a PodDisruptionBudget kept refusing the eviction of ${refused.namespace}/${refused.pod} for ${options.timeoutMs / 1000} s`);
  const names = attempts.filter((a) => a.outcome === 'evicted').map((a) => a.pod);
  const left = new Set(names);
  await watchList(kc, collectionOf(kc, 'Pod', { namespace: options.namespace, fieldSelector: `spec.nodeName=${node}` }),
    (pods) => ![...pods.values()].some((p) => left.has(p.metadata?.name ?? '')),
    { timeoutMs: Math.max(1, deadlineMs - Date.now()), what: `evicted pods gone from ${node}`, signal: options.signal });
  return names;
}
