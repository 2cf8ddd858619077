// The node names of a cluster rebootlab creates, known before it exists: kind and kwok both name them
// `<cluster>-control-plane`, `<cluster>-worker`, `<cluster>-worker2`, ... (lib/cluster/kwok/nodes.ts kwokNodeNames
// follows kind). Names are compared as text, never turned into a regular expression (a cluster name is user input).
import { DEFAULT_CLUSTER_NAME, DEFAULT_WORKERS } from './defaults.js';

/** The nodes of a kind or kwok cluster an experiment file describes. */
export interface ClusterNodeNames {
  /** `kind` or `kwok`. */
  provider: 'kind' | 'kwok';
  cluster: string;
  workers: number;
  /** Whether `name` is one of the cluster's nodes: the control plane, or worker 1 to `workers`. */
  has(name: string): boolean;
  /** The names for a message: every one up to four workers, else the first two, `...` and the last. */
  describe(): string;
}

/**
 * The node names of `cluster` (the experiment's `cluster:` mapping as plain data), or null when they are not known
 * before the run (provider existing). Tolerates values the schema check rejects (the defaults stand in), and an
 * absurd worker count costs nothing: names are checked by parsing, not listed.
 */
export function clusterNodeNames(cluster: Record<string, unknown>): ClusterNodeNames | null {
  const provider = cluster.provider ?? 'kind';
  if (provider !== 'kind' && provider !== 'kwok') return null;
  const name = typeof cluster.name === 'string' ? cluster.name : DEFAULT_CLUSTER_NAME;
  const count = provider === 'kwok' ? (cluster.nodes ?? cluster.workers) : cluster.workers;
  const workers = typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : DEFAULT_WORKERS;
  const worker = (i: number): string => `${name}-worker${i === 1 ? '' : i}`;
  return {
    provider,
    cluster: name,
    workers,
    has(node) {
      if (node === `${name}-control-plane`) return true;
      const prefix = `${name}-worker`;
      if (!node.startsWith(prefix)) return false;
      const suffix = node.slice(prefix.length);
      if (suffix === '') return workers >= 1;
      // worker2, worker3, ...: no leading zero, no "worker1" (kind calls the first one plain "worker").
      if (!/^[1-9][0-9]{0,8}$/.test(suffix)) return false;
      const index = Number(suffix);
      return index >= 2 && index <= workers;
    },
    describe() {
      const shown = workers <= 4 ? Array.from({ length: workers }, (_, i) => worker(i + 1)) : [worker(1), worker(2), '...', worker(workers)];
      return [`${name}-control-plane`, ...shown].join(', ');
    },
  };
}
