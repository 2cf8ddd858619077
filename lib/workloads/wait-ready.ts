// Waits, with a watch on each workload object (never polling kubectl), until every workload is ready.
import { CoreV1Api, Watch, type KubeConfig } from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';
import type { WorkloadSpec } from '../spec/types.js';
import { WORKLOAD_NAMESPACE } from './pod-template.js';
import { collectionPath, isWorkloadReady, summarizePodReadiness, type WorkloadObjectState } from './readiness.js';

/** Options of {@link waitForWorkloadsReady}. */
export interface WaitReadyOptions {
  /** Give up after this many milliseconds; default 300000 (5 min). */
  timeoutMs?: number;
  /** Aborting stops waiting with an InfraError. */
  signal?: AbortSignal;
  /** Called once per workload when it becomes ready, with the client clock (Unix epoch, milliseconds). */
  onReady?: (workload: string, readyAtMs: number) => void;
}

/** Delay before re-opening a watch the server closed or that failed, milliseconds. */
const REWATCH_DELAY_MS = 500;

/**
 * Resolves when `workload` is ready (see isWorkloadReady). A watch on its collection, filtered to its
 * name, starts with the current object (watch without resourceVersion) and is re-opened when it ends.
 * @throws InfraError on timeout, naming the workload and its last status.
 */
export function waitForWorkloadReady(kc: KubeConfig, workload: WorkloadSpec, options: WaitReadyOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const watch = new Watch(kc);
  const path = collectionPath(workload.kind, WORKLOAD_NAMESPACE);
  return new Promise<void>((resolve, reject) => {
    let finished = false;
    let controller: AbortController | undefined;
    let lastObject: WorkloadObjectState | undefined;
    let lastError: string | undefined;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      controller?.abort();
      if (error) reject(error);
      else {
        options.onReady?.(workload.name, Date.now());
        resolve();
      }
    };
    const timer = setTimeout(() => {
      const detail = lastError ? `; last watch error: ${lastError}` : '';
      // One list of its pods, made once at the timeout, says which are stuck and where (a scheduler, kubelet or
      // simulator stall reads differently): the error is all a user sees of a setup that never finished.
      void describePods(kc, workload, lastObject).then((pods) => {
        finish(new InfraError(`${workload.kind} ${WORKLOAD_NAMESPACE}/${workload.name} not ready after ${timeoutMs} ms: status ${lastObject ? JSON.stringify(lastObject.status ?? {}) : '"not seen yet"'}${pods}${detail}`, 'Check the pods: kubectl --kubeconfig <run kubeconfig> -n rebootlab get pods -o wide'));
      });
    }, timeoutMs);
    const onAbort = () => finish(new InfraError(`waiting for ${workload.kind} ${workload.name} aborted`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const open = () => {
      if (finished) return;
      watch
        .watch(
          path,
          { fieldSelector: `metadata.name=${workload.name}` },
          (phase: string, object: WorkloadObjectState) => {
            if (phase !== 'ADDED' && phase !== 'MODIFIED') return;
            lastObject = object;
            if (isWorkloadReady(workload.kind, object)) finish();
          },
          (error: unknown) => {
            if (error) lastError = (error as Error).message ?? String(error);
            if (!finished) setTimeout(open, REWATCH_DELAY_MS);
          },
        )
        .then((c) => {
          controller = c;
          if (finished) c.abort();
        })
        .catch((error: unknown) => {
          lastError = (error as Error).message ?? String(error);
          if (!finished) setTimeout(open, REWATCH_DELAY_MS);
        });
    };
    open();
  });
}

/** `; <pod summary>` for a timeout's error, or '' when the pods cannot be listed (the error stays the timeout's). */
async function describePods(kc: KubeConfig, workload: WorkloadSpec, object: WorkloadObjectState | undefined): Promise<string> {
  const matchLabels = object?.spec?.selector?.matchLabels;
  if (workload.kind !== 'Pod' && !matchLabels) return '';
  try {
    const core = kc.makeApiClient(CoreV1Api);
    const pods = workload.kind === 'Pod'
      ? [await core.readNamespacedPod({ name: workload.name, namespace: WORKLOAD_NAMESPACE })]
      : (await core.listNamespacedPod({ namespace: WORKLOAD_NAMESPACE, labelSelector: Object.entries(matchLabels!).map(([k, v]) => `${k}=${v}`).join(',') })).items;
    return `; pods: ${summarizePodReadiness(pods)}`;
  } catch {
    return '';
  }
}

/**
 * Resolves when every workload is ready; they are awaited together, sharing one deadline.
 * @throws InfraError on the first workload that times out.
 */
export async function waitForWorkloadsReady(kc: KubeConfig, workloads: readonly WorkloadSpec[], options: WaitReadyOptions = {}): Promise<void> {
  // Pods already running (`selected`) have no object of rebootlab's to wait for; their start is their owner's business.
  await Promise.all(workloads.filter((w) => !w.selected).map((w) => waitForWorkloadReady(kc, w, options)));
}
