// The clusters of one run: created for it or attached to (--reuse-cluster), prepared (nodes Ready, old
// namespace gone, effective settings read back), and deleted at the end unless --keep-cluster.
import type { Cluster, ClusterProvider } from '../cluster/index.js';
import { InputError } from '../common/errors.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { ClusterSpec } from '../spec/types.js';
import type { RunOptions } from './options.js';
import { prepareCluster } from './prepare-cluster.js';
import type { Progress } from './progress.js';

/**
 * The clusters of one `rebootlab run`: a variant whose cluster spec equals the previous one's reuses its
 * cluster; otherwise the previous cluster (if this run created it) is deleted and a new one made.
 */
export class ClusterSession {
  #current: { key: string; cluster: Cluster; created: boolean; settings: TimeoutSettings } | null = null;

  constructor(
    readonly provider: ClusterProvider,
    readonly options: Pick<RunOptions, 'reuseCluster' | 'keepCluster'>,
    readonly progress: Progress,
  ) {}

  /** The cluster for `spec` with its effective settings (milliseconds); creates or attaches as needed. @throws InputError, InfraError. */
  async clusterFor(spec: ClusterSpec, signal: AbortSignal): Promise<{ cluster: Cluster; settings: TimeoutSettings }> {
    const key = JSON.stringify(spec);
    if (this.#current?.key === key) {
      await prepareCluster(this.#current.cluster, spec, this.progress, signal); // clean namespace, nodes Ready
      return this.#current;
    }
    await this.#release();
    await this.provider.ensureAvailable();
    const exists = (await this.provider.list()).includes(spec.name);
    if (exists && !this.options.reuseCluster) {
      throw new InputError(`cluster ${spec.name} already exists`, `Use --reuse-cluster, or delete it: rebootlab cluster delete --name ${spec.name}`);
    }
    const cluster = exists
      ? await this.provider.attach(spec.name)
      : await this.provider.create(spec, { step: (message) => this.progress.phase(message) });
    this.#current = { key, cluster, created: !exists, settings: spec.settings };
    const prepared = await prepareCluster(cluster, spec, this.progress, signal);
    this.#current.settings = prepared.settings;
    return this.#current;
  }

  async close(): Promise<void> {
    await this.#release();
  }

  async #release(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (!current || !current.created || this.options.keepCluster) return;
    this.progress.phase(`deleting cluster ${current.cluster.name} (keep it with --keep-cluster)`);
    await this.provider.delete(current.cluster.name);
  }
}
