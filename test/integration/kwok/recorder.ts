// Test helper: keeps one watch per collection open for a whole test file and stamps every change with
// the client clock, so a test can ask "when did X first become true" without polling.
import * as k8s from '@kubernetes/client-node';

/** One collection under watch: the latest objects by name and a change listener list. */
export class Recorder<T extends k8s.KubernetesObject> {
  readonly objects = new Map<string, T>();
  /** Client clock of the first DELETED event per name, Unix epoch milliseconds. */
  readonly deletedAtMs = new Map<string, number>();
  #listeners = new Set<() => void>();
  #controller: AbortController | undefined;
  #stopped = false;

  /** @param path API list path, e.g. `/api/v1/nodes` or `/api/v1/namespaces/x/pods`. */
  constructor(private readonly kc: k8s.KubeConfig, private readonly path: string) {}

  /** Starts watching (initial ADDED events carry the current state); resolves once the watch is open. */
  async start(): Promise<void> {
    this.#controller = await new k8s.Watch(this.kc).watch(
      this.path,
      {},
      (phase: string, obj: T) => {
        const name = obj.metadata?.name ?? '';
        if (phase === 'DELETED') {
          this.objects.delete(name);
          if (!this.deletedAtMs.has(name)) this.deletedAtMs.set(name, Date.now());
        } else if (phase !== 'BOOKMARK') this.objects.set(name, obj);
        for (const listener of this.#listeners) listener();
      },
      () => {
        if (!this.#stopped) void this.start(); // re-watch; the initial ADDED events resync the map
      },
    );
  }

  stop(): void {
    this.#stopped = true;
    this.#controller?.abort();
  }

  /**
   * Resolves with the client clock (Unix epoch ms) of the first change after which `done(objects)` holds
   * (at once if it holds now). @throws Error naming `what` after `timeoutMs` milliseconds.
   */
  until(what: string, done: (objects: Map<string, T>) => boolean, timeoutMs: number): Promise<number> {
    if (done(this.objects)) return Promise.resolve(Date.now());
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (!done(this.objects)) return;
        const atMs = Date.now();
        cleanup();
        resolve(atMs);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      this.#listeners.add(listener);
    });
  }
}

/** The status of a node's Ready condition (`True`, `False`, `Unknown`), or undefined. */
export const readyStatus = (node: k8s.V1Node | undefined) => node?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** Whether a node carries a taint with this key and effect. */
export const hasTaint = (node: k8s.V1Node | undefined, key: string, effect = 'NoExecute') =>
  node?.spec?.taints?.some((t) => t.key === key && t.effect === effect) ?? false;

/** When the taint with this key and effect was added (its `timeAdded`, server clock, Unix epoch ms), or undefined. */
export const taintAddedAtMs = (node: k8s.V1Node | undefined, key: string, effect = 'NoExecute') => {
  const t = node?.spec?.taints?.find((x) => x.key === key && x.effect === effect);
  return t?.timeAdded ? new Date(t.timeAdded).getTime() : undefined;
};

/** Whether a pod is Ready (condition Ready=True) and not terminating. */
export const podServing = (pod: k8s.V1Pod) =>
  !pod.metadata?.deletionTimestamp && (pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false);

/** Seconds between two client-clock instants, 3 decimals. */
export const secondsBetween = (fromMs: number, toMs: number) => Math.round(toMs - fromMs) / 1000;
