// Starts the informers of a run on one cluster and writes what they see to the journal.
import { KubeConfig, ListWatch } from '@kubernetes/client-node';
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type { Journal, LogFn } from './journal.js';
import { limitHeapGrowth } from './heap.js';
import { projectObject } from './project.js';
import { makeSources, type WatchSource } from './sources.js';
import { ProjectingWatch } from './watch-stream.js';
import { watchSource, type InformerFactory, type InformerLike } from './watcher.js';
import { InfraError } from '../common/errors.js';

/** Options of `startObserver`. */
export interface ObserverOptions {
  /** kubeconfig file of the run's cluster (its current context is used). */
  kubeconfigPath: string;
  /** Where every observation is appended. */
  journal: Journal;
  /** Namespaces whose Events and EndpointSlices are watched (Pods are watched in all namespaces). */
  namespaces: readonly string[];
  /** Also watch VolumeAttachments and PersistentVolumes (SourceOptions.volumes); default false. */
  volumes?: boolean;
  /** Receives warnings (dropped watches, restarts). Default: discard. */
  log?: LogFn;
  /** Replaces the collections to watch; for tests. */
  sources?: WatchSource[];
  /** Replaces client-node's ListWatch; for tests. */
  makeInformer?: InformerFactory;
  /** Waits before a watch restart, milliseconds; for tests. */
  delayFn?: (ms: number) => Promise<void>;
  /** How long `synced` may take before it rejects, milliseconds. Default 60 000. */
  syncTimeoutMs?: number;
}

/** Default bound on the first list of every collection, milliseconds. */
export const DEFAULT_SYNC_TIMEOUT_MS = 60_000;

/** A running observer. */
export interface Observer {
  /**
   * Resolves when every collection has been listed once (the journal holds the starting state).
   * Rejects with InfraError naming the collections still unlisted after `syncTimeoutMs` (failing lists are
   * retried with backoff meanwhile, and their errors reach `log`).
   */
  readonly synced: Promise<void>;
  /** Stop every watch. The journal stays open (the runner closes it). */
  stop(): Promise<void>;
}

/**
 * client-node's ListWatch around the raw list call. Requires @kubernetes/client-node ≥ 2.0.1: 2.0.0 aborted
 * every watch after 30 s (kubernetes-client/javascript#3020); 2.0.1 turns that into an inactivity timeout
 * after which ListWatch silently resumes from its resourceVersion, so a quiet collection is not a gap.
 */
function listWatchFactory(kc: KubeConfig, journal: Journal): InformerFactory {
  return (source, list) =>
    new ListWatch<KubernetesObject>(
      source.path,
      new ProjectingWatch(kc, (obj) => projectObject(source.kind, obj), (fn) => journal.group(fn)),
      list as unknown as () => Promise<KubernetesListObject<KubernetesObject>>,
      false,
      undefined,
      source.fieldSelector,
    ) as unknown as InformerLike;
}

/**
 * Start watching Nodes, Leases (kube-node-lease), Pods (all namespaces), and Events and EndpointSlices in
 * `namespaces` (+ `default`), appending each list entry and watch event to `journal`.
 * Await `synced` before injecting a fault. Sets V8's heap growing factor for the process (lib/observe/heap.ts).
 * @throws InfraError if the kubeconfig cannot be loaded.
 */
export async function startObserver(options: ObserverOptions): Promise<Observer> {
  const log = options.log ?? (() => {});
  limitHeapGrowth();
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(options.kubeconfigPath);
  } catch (err) {
    throw new InfraError(`cannot load kubeconfig ${options.kubeconfigPath}: ${(err as Error).message}`, 'recreate the cluster', { cause: err });
  }
  const sources = options.sources ?? makeSources(kc, options.namespaces, { volumes: options.volumes ?? false });
  const makeInformer = options.makeInformer ?? listWatchFactory(kc, options.journal);
  const watches = sources.map((source) =>
    watchSource(source, { journal: options.journal, makeInformer, log, delayFn: options.delayFn }),
  );
  const pending = new Set(sources.map((s) => s.label));
  watches.forEach((w, i) => void w.synced.then(() => pending.delete(sources[i].label)));
  const timeoutMs = options.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new InfraError(`observer could not list ${[...pending].join(', ')} within ${timeoutMs} ms`, 'check that the cluster API server is reachable: rebootlab doctor'));
    }, timeoutMs);
    timer.unref();
  });
  const synced = Promise.race([Promise.all(watches.map((w) => w.synced)).then(() => undefined), timeout]).finally(() => clearTimeout(timer));
  synced.catch(() => {}); // the caller awaits it; avoid an unhandled rejection if it does not
  return {
    synced,
    async stop() {
      await Promise.all(watches.map((w) => w.stop()));
    },
  };
}
