// Test helper: keeps one list+watch (client-node's ListWatch informer) per collection open for a whole test
// file and stamps every change with the client clock, so a test can ask "when did X first become true"
// without polling. The informer re-lists after a 410 and drops what was deleted meanwhile, and resumes
// from its resourceVersion after client-node's 30 s inactivity timeout, so no change is lost or stale.
import * as k8s from '@kubernetes/client-node';
import type { Collection } from '../../../lib/cluster/watch-list.js';

/** Delay before restarting an informer that stopped on an error (client-node stops on all but 410), milliseconds. */
const RESTART_DELAY_MS = 1_000;

/** One collection under watch: the latest objects by name and a change listener list. */
export class Recorder<T extends k8s.KubernetesObject> {
  readonly objects = new Map<string, T>();
  /** Client clock of the first DELETED event per name, Unix epoch milliseconds. */
  readonly deletedAtMs = new Map<string, number>();
  #listeners = new Set<() => void>();
  #informer: k8s.ListWatch<T>;
  #stopped = false;

  /** @param collection e.g. `collectionOf(kc, 'Pod', { namespace })` (lib/cluster/watch-list.ts). */
  constructor(kc: k8s.KubeConfig, collection: Collection<T>) {
    this.#informer = new k8s.ListWatch<T>(collection.path, new k8s.Watch(kc), () => collection.list(), false, collection.labelSelector, collection.fieldSelector);
    const changed = () => {
      for (const listener of this.#listeners) listener();
    };
    const set = (obj: T) => {
      this.objects.set(obj.metadata?.name ?? '', obj);
      changed();
    };
    this.#informer.on('add', set);
    this.#informer.on('update', set);
    this.#informer.on('delete', (obj) => {
      const name = obj.metadata?.name ?? '';
      this.objects.delete(name);
      if (!this.deletedAtMs.has(name)) this.deletedAtMs.set(name, Date.now());
      changed();
    });
    this.#informer.on('error', () => {
      if (!this.#stopped) setTimeout(() => { if (!this.#stopped) this.#informer.start().catch(() => undefined); }, RESTART_DELAY_MS);
    });
  }

  /** Lists the collection and starts watching it; resolves once the list is in `objects` and the watch is open. */
  async start(): Promise<void> {
    await this.#informer.start();
  }

  stop(): void {
    this.#stopped = true;
    void this.#informer.stop();
  }

  /**
   * Resolves with the client clock (Unix epoch ms) of the first change after which `done(objects)` holds
   * (at once if it holds now).
   * @throws Error naming `what`, with `describe(objects)` when given, after `timeoutMs` milliseconds.
   */
  until(what: string, done: (objects: Map<string, T>) => boolean, timeoutMs: number, describe?: (objects: Map<string, T>) => string): Promise<number> {
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
        const detail = describe ? `: ${describe(this.objects)}` : '';
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`));
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

/** Why a pod is not Ready, for a timeout message: its Ready condition and the managers that wrote its status. */
const whyNotReady = (pod: k8s.V1Pod) => {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const writers = (pod.metadata?.managedFields ?? []).filter((f) => f.subresource === 'status').map((f) => `${f.manager}@${f.time instanceof Date ? f.time.toISOString() : f.time}`);
  const condition = ready ? `: Ready=${ready.status}${ready.reason ? ` ${ready.reason}` : ''} since ${ready.lastTransitionTime instanceof Date ? ready.lastTransitionTime.toISOString() : ready.lastTransitionTime}` : ': no Ready condition';
  return `${condition}; status written by ${writers.join(', ') || 'nobody'}`;
};

/** Each pod as `name@node (phase, Ready|not ready|terminating)`, for a timeout message. */
export const describePods = (pods: Map<string, k8s.V1Pod>) =>
  [...pods.values()]
    .map((p) => `${p.metadata?.name}@${p.spec?.nodeName ?? 'unscheduled'} (${p.status?.phase}, ${p.metadata?.deletionTimestamp ? 'terminating' : podServing(p) ? 'Ready' : `not ready${whyNotReady(p)}`})`)
    .join(', ') || 'no pods';

/** Each node as `name (Ready=status, unschedulable, taints key:effect)`, for a timeout message. */
export const describeNodes = (nodes: Map<string, k8s.V1Node>) =>
  [...nodes.values()]
    .map((n) => `${n.metadata?.name} (Ready=${readyStatus(n)}${n.spec?.unschedulable ? ', unschedulable' : ''}${(n.spec?.taints ?? []).map((t) => `, ${t.key}:${t.effect}`).join('')})`)
    .join(', ');
