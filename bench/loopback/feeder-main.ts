// Child process of the observer capacity benchmark: runs the loopback API server and the synthetic cluster's
// changes, so producing events costs the measured (parent) process nothing. Talks to the parent over IPC:
// → { type: 'ready', kubeconfigPath }  ← { type: 'run', ratePerSecond, seconds, expireAtSeconds }
// → { type: 'done', ticks, finalVersions, pendingBytesMax, gone }  ← { type: 'stop' }
import { join } from 'node:path';
import { LoopbackApiServer } from './apiserver.js';
import { SyntheticCluster, type ClusterShape } from './cluster-load.js';

/** Parent → child: start changing objects. `expireAtSeconds` < 0: never expire the watches. */
export interface RunMessage {
  type: 'run';
  ratePerSecond: number;
  seconds: number;
  expireAtSeconds: number;
}

/** Child → parent when the run is over. */
export interface DoneMessage {
  type: 'done';
  /** Flat triples [firstRv, lastRv, emittedAtMs]: the resourceVersions given out in one tick, and when. */
  ticks: number[];
  /** Kind of the object each resourceVersion changed (Pod, Node, Lease, Event, …), by resourceVersion - 1001. */
  kinds: string[];
  /** [uid, resourceVersion] of every object at the end. */
  finalVersions: [string, number][];
  /** Most bytes ever waiting in the watch sockets (sampled every tick). */
  pendingBytesMax: number;
  /** Watches ended with 410 Gone. */
  gone: number;
  lists: number;
  watches: number;
}

const TICK_MS = 10;

/** `api/v1/pods` → `Pod`, `apis/coordination.k8s.io/v1/leases` → `Lease`: the kind the observer journals. */
function kindOfResource(resource: string): string {
  const plural = resource.slice(resource.lastIndexOf('/') + 1);
  const singular = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
  return ({ endpointslice: 'EndpointSlice' } as Record<string, string>)[singular] ?? singular[0].toUpperCase() + singular.slice(1);
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]) as ClusterShape & { dir: string; bookmarkIntervalMs: number };
  const server = new LoopbackApiServer({ bookmarkIntervalMs: args.bookmarkIntervalMs, windowEvents: 1_000_000 });
  await server.listen();
  const cluster = new SyntheticCluster(server, args);
  cluster.populate();
  const kubeconfigPath = join(args.dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfigPath);
  process.send!({ type: 'ready', kubeconfigPath });
  process.on('message', (message: RunMessage | { type: 'stop' }) => {
    if (message.type === 'stop') {
      void server.close().then(() => process.exit(0));
      return;
    }
    const ticks: number[] = [];
    let pendingBytesMax = 0;
    let made = 0;
    let expired = message.expireAtSeconds < 0;
    const startMs = Date.now();
    const timer = setInterval(() => {
      const elapsedMs = Math.min(Date.now() - startMs, message.seconds * 1000);
      if (!expired && elapsedMs >= message.expireAtSeconds * 1000) {
        expired = true;
        server.expireWatches();
      }
      const due = Math.floor((elapsedMs / 1000) * message.ratePerSecond) - made;
      if (due > 0) {
        const first = server.resourceVersion + 1;
        cluster.step(due);
        made += due;
        ticks.push(first, server.resourceVersion, Date.now());
      }
      pendingBytesMax = Math.max(pendingBytesMax, server.pendingWatchBytes);
      if (elapsedMs >= message.seconds * 1000) {
        clearInterval(timer);
        const done: DoneMessage = {
          type: 'done', ticks, kinds: server.changedResources.map(kindOfResource), finalVersions: [...server.currentVersions()], pendingBytesMax,
          gone: server.requests.gone, lists: server.requests.list, watches: server.requests.watch,
        };
        process.send!(done);
      }
    }, TICK_MS);
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`loopback feeder: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
