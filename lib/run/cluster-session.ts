// The clusters of one run: created for it, attached to (--reuse-cluster) or reconfigured in place between
// variants, prepared (nodes Ready, old namespace gone, effective settings read back), and deleted at the end
// unless --keep-cluster.
import type { Cluster, ClusterProvider } from '../cluster/index.js';
import { InputError } from '../common/errors.js';
import type { TimeoutSettings } from '../spec/settings.js';
import type { ClusterSpec } from '../spec/types.js';
import type { RunOptions } from './options.js';
import type { NodeDeletionHistory } from './podgc-requeue.js';
import { prepareCluster } from './prepare-cluster.js';
import type { Progress } from './progress.js';
import { reconfigurableInPlace, reconfigureInPlace } from './reconfigure-cluster.js';

/** A cluster made ready for a run: the settings in effect (milliseconds) and what this run deleted of its Nodes. */
export interface ClusterForRun {
  cluster: Cluster;
  settings: TimeoutSettings;
  nodeDeletions: NodeDeletionHistory;
}

/**
 * The clusters of one `rebootlab run`: a variant whose cluster spec equals the previous one's reuses its
 * cluster. One that differs only in timeout flags reconfigures it in place (`--reconfigure in-place`, the
 * default: static pod manifests and kubelet configs rewritten, ≈ 40–70 s here against ≈ 100 s for a new
 * cluster); otherwise the previous cluster (if this run created it) is deleted and a new one made.
 * An attached cluster (--reuse-cluster) whose flags differ from the spec is reconfigured the same way.
 */
export class ClusterSession {
  /** `nodeDeletions.createdByThisRun` also says whether {@link ClusterSession.release} deletes the cluster. */
  #current: { spec: ClusterSpec; cluster: Cluster; settings: TimeoutSettings; nodeDeletions: NodeDeletionHistory } | null = null;

  constructor(
    readonly provider: ClusterProvider,
    readonly options: Pick<RunOptions, 'reuseCluster' | 'keepCluster' | 'reconfigure'>,
    readonly progress: Progress,
  ) {}

  /**
   * The cluster for `spec` with its effective settings (milliseconds); creates, reconfigures or attaches as needed.
   * `nodeDeletions` is the cluster's record for this run (kept while the cluster is reused or reconfigured in place,
   * new with a new cluster): runs add the Nodes they delete to it. @throws InputError, InfraError.
   */
  async clusterFor(spec: ClusterSpec, signal: AbortSignal): Promise<ClusterForRun> {
    const current = this.#current;
    if (current && JSON.stringify(current.spec) === JSON.stringify(spec)) {
      await prepareCluster(current.cluster, spec, this.progress, signal); // clean namespace, nodes Ready
      return current;
    }
    if (current && this.options.reconfigure !== 'recreate' && current.cluster.reconfigure && reconfigurableInPlace(current.spec, spec)) {
      await this.#reconfigure(current.cluster, spec, current.spec, signal);
      this.#current = { ...current, spec };
      return this.#prepare(spec, signal);
    }
    await this.#release();
    await this.provider.ensureAvailable();
    const exists = (await this.provider.list()).includes(spec.name);
    if (exists && !this.options.reuseCluster) {
      throw new InputError(`cluster ${spec.name} already exists`, `Use --reuse-cluster, or delete it: rebootlab cluster delete --name ${spec.name}`);
    }
    const startedAt = Date.now();
    const cluster = exists
      ? await this.provider.attach(spec.name)
      : await this.provider.create(spec, { step: (message) => this.progress.phase(message) });
    this.#current = { spec, cluster, settings: spec.settings, nodeDeletions: { createdByThisRun: !exists, deleted: new Set() } };
    // A reused cluster may have been made with other flags: put this spec's into effect (set only: what
    // extra flags it had before is unknown).
    if (exists && cluster.reconfigure) await this.#reconfigure(cluster, spec, null, signal);
    const prepared = await this.#prepare(spec, signal);
    if (!exists) this.progress.phase(`cluster ${spec.name} created and Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return prepared;
  }

  async #reconfigure(cluster: Cluster, spec: ClusterSpec, previous: ClusterSpec | null, signal: AbortSignal): Promise<void> {
    const done = await reconfigureInPlace(cluster, spec, previous, this.progress, signal);
    if (done && done.restarted.length > 0) {
      this.progress.phase(`reconfigured ${cluster.name} in place in ${(done.durationMs / 1000).toFixed(1)} s (${done.restarted.join(', ')} restarted)`);
    }
  }

  async #prepare(spec: ClusterSpec, signal: AbortSignal): Promise<ClusterForRun> {
    const current = this.#current!;
    const prepared = await prepareCluster(current.cluster, spec, this.progress, signal);
    current.settings = prepared.settings;
    return current;
  }

  async close(): Promise<void> {
    await this.#release();
  }

  async #release(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (!current || !current.nodeDeletions.createdByThisRun) return;
    if (this.options.keepCluster) {
      await this.provider.keep?.(current.cluster.name);
      this.progress.phase(`kept ${this.provider.name} cluster ${current.cluster.name}; delete it with: rebootlab cluster delete ${current.cluster.name}`);
      return;
    }
    this.progress.phase(`deleting cluster ${current.cluster.name} (keep it with --keep-cluster)`);
    await this.provider.delete(current.cluster.name);
  }
}
