// Waits, with a watch on Nodes (never polling kubectl), until a new cluster's nodes are all registered and Ready.
import { Watch } from '@kubernetes/client-node';
import { InfraError } from '../common/errors.js';
import { loadKubeConfig } from './kube-client.js';

/** The parts of a Node object readiness looks at. */
interface NodeState {
  metadata?: { name?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

/** Delay before re-opening a watch that ended, milliseconds. */
const REWATCH_DELAY_MS = 500;

/**
 * Resolves once `expectedCount` Nodes exist and every one has condition Ready=True (kind is created
 * with `--wait 0s`, so call this before reading effective settings or deploying workloads). The watch
 * starts with the current Nodes (no resourceVersion) and is re-opened when it ends.
 * Resolves to the client clock when that happened: Unix epoch, milliseconds.
 * @throws InfraError after `timeoutMs` milliseconds (default 300000), naming the nodes not Ready.
 */
export function waitForNodesReady(kubeconfigPath: string, expectedCount: number, timeoutMs = 300_000): Promise<number> {
  const watch = new Watch(loadKubeConfig(kubeconfigPath));
  const ready = new Map<string, boolean>();
  return new Promise<number>((resolve, reject) => {
    let finished = false;
    let controller: AbortController | undefined;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      controller?.abort();
      if (error) reject(error);
      else resolve(Date.now());
    };
    const timer = setTimeout(() => {
      const notReady = [...ready].filter(([, r]) => !r).map(([n]) => n);
      finish(new InfraError(
        `nodes not Ready after ${timeoutMs} ms: ${ready.size}/${expectedCount} registered` + (notReady.length ? `, not Ready: ${notReady.join(', ')}` : ''),
        'Run: rebootlab doctor',
      ));
    }, timeoutMs);
    const check = () => {
      if (ready.size >= expectedCount && [...ready.values()].every(Boolean)) finish();
    };
    const open = () => {
      if (finished) return;
      watch
        .watch('/api/v1/nodes', {}, (phase: string, node: NodeState) => {
          const name = node.metadata?.name;
          if (!name) return;
          if (phase === 'DELETED') ready.delete(name);
          else ready.set(name, (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
          check();
        }, () => {
          if (!finished) setTimeout(open, REWATCH_DELAY_MS);
        })
        .then((c) => {
          controller = c;
          if (finished) c.abort();
        })
        .catch(() => {
          if (!finished) setTimeout(open, REWATCH_DELAY_MS);
        });
    };
    open();
  });
}
