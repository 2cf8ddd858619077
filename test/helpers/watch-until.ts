// Waits for a condition on a set of Kubernetes objects through a watch (never by polling kubectl).
import * as k8s from '@kubernetes/client-node';

/** Objects of one list path, keyed by namespace/name, as the watch last saw them. */
export type ObjectsByName<T> = Map<string, T>;

/**
 * Lists `path` (e.g. `/api/v1/nodes`, `/api/v1/namespaces/x/pods`), then watches it until `done`
 * returns true for the current objects, and resolves with them.
 * @param timeoutMs how long to wait, in milliseconds.
 * @throws Error naming `what` when the timeout passes first; the message carries `describe(objects)`.
 */
export async function watchUntil<T extends k8s.KubernetesObject>(
  kc: k8s.KubeConfig,
  path: string,
  done: (objects: ObjectsByName<T>) => boolean,
  options: { timeoutMs: number; what: string; describe?: (objects: ObjectsByName<T>) => string },
): Promise<ObjectsByName<T>> {
  const objects: ObjectsByName<T> = new Map();
  const key = (o: k8s.KubernetesObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
  const list = (await k8s.KubernetesObjectApi.makeApiClient(kc).list(
    ...listArgs(path),
  )) as unknown as { items: T[]; metadata?: { resourceVersion?: string } };
  for (const item of list.items) objects.set(key(item), item);
  if (done(objects)) return objects;
  return new Promise((resolve, reject) => {
    let request: AbortController | undefined;
    let finished = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      request?.abort();
      error ? reject(error) : resolve(objects);
    };
    const timer = setTimeout(
      () => finish(new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}: ${options.describe?.(objects) ?? ''}`)),
      options.timeoutMs,
    );
    const start = (resourceVersion?: string) => {
      new k8s.Watch(kc)
        .watch(
          path,
          { resourceVersion, allowWatchBookmarks: true },
          (phase: string, obj: T) => {
            if (phase === 'BOOKMARK') return;
            if (phase === 'DELETED') objects.delete(key(obj));
            else objects.set(key(obj), obj);
            if (done(objects)) finish();
          },
          // The server closes watches now and then: resume from the last state unless finished.
          () => { if (!finished) start(); },
        )
        .then((controller) => { request = controller; if (finished) controller.abort(); })
        .catch((error: Error) => finish(error));
    };
    start(list.metadata?.resourceVersion);
  });
}

/** Splits an API path into the arguments KubernetesObjectApi.list takes. */
function listArgs(path: string): [string, string, string?] {
  const parts = path.split('/').filter(Boolean);
  const namespaced = parts.indexOf('namespaces');
  const apiVersion = parts[0] === 'api' ? parts[1] : `${parts[1]}/${parts[2]}`;
  const plural = parts[parts.length - 1];
  const kind = { nodes: 'Node', pods: 'Pod', deployments: 'Deployment', leases: 'Lease' }[plural] ?? plural;
  return [apiVersion, kind, namespaced >= 0 ? parts[namespaced + 1] : undefined];
}
