// Waits, with the shared list+watch (never polling kubectl), until a new cluster's nodes are all registered and Ready.
import { InfraError } from '../common/errors.js';
import { loadKubeConfig } from './kube-client.js';
import { collectionOf, isNodeReady, watchList } from './watch-list.js';

/**
 * Resolves once `expectedCount` Nodes exist and every one has condition Ready=True (kind is created
 * with `--wait 0s`, so call this before reading effective settings or deploying workloads).
 * Resolves to the client clock when that happened: Unix epoch, milliseconds.
 * @throws InfraError after `timeoutMs` milliseconds (default 300000), naming the nodes not Ready.
 */
export async function waitForNodesReady(kubeconfigPath: string, expectedCount: number, timeoutMs = 300_000): Promise<number> {
  const kc = loadKubeConfig(kubeconfigPath);
  await watchList(kc, collectionOf(kc, 'Node'), (nodes) => nodes.size >= expectedCount && [...nodes.values()].every(isNodeReady), {
    timeoutMs,
    what: `${expectedCount} nodes Ready`,
    describe: (nodes) => {
      const notReady = [...nodes.values()].filter((n) => !isNodeReady(n)).map((n) => n.metadata?.name);
      return `${nodes.size}/${expectedCount} registered` + (notReady.length ? `, not Ready: ${notReady.join(', ')}` : '');
    },
  }).catch((error: unknown) => {
    throw error instanceof InfraError ? new InfraError(error.message, 'Run: rebootlab doctor', { cause: error }) : error;
  });
  return Date.now();
}
