// A running kwok cluster: simulated nodes from the API, settings read back from the processes' own
// command lines and kwok's stage file, and node actions through the API.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { formatGoDuration } from '../../common/units.js';
import type { ActHooks, Cluster, ClusterNode, EffectiveSettings, NodeAction, NodeActionArgs, Undo } from '../provider.js';
import { apiError, loadKubeConfig } from '../kube-client.js';
import { toEffectiveSettings } from '../effective-settings.js';
import { actOnKwokNode, deletedNodesDir, KWOK_NODE_ACTIONS } from './actions.js';
import { KWOK_MANAGED_LABEL, KWOK_MANAGED_VALUE } from './flags.js';
import { CONTROL_PLANE_LABEL } from './nodes.js';
import type { ClusterFiles } from './paths.js';
import { readProcessFlags, readProcessTable } from './processes.js';

/** Key of the one kubelet config in EffectiveSettings.kubeletConfigs: every simulated node shares kwok's settings. */
export const KWOK_KUBELET_CONFIG_KEY = 'kwok';

/** A kwok cluster rebootlab created or attached to. */
export class KwokCluster implements Cluster {
  readonly provider = 'kwok' as const;
  readonly supportedActions: ReadonlySet<NodeAction> = KWOK_NODE_ACTIONS;
  readonly kubeconfigPath: string;
  #kc: KubeConfig | undefined;

  /** @param files the cluster's directory layout (paths.ts); its kubeconfig must exist. */
  constructor(readonly name: string, readonly files: ClusterFiles) {
    this.kubeconfigPath = files.kubeconfig;
  }

  get #config(): KubeConfig {
    this.#kc ??= loadKubeConfig(this.kubeconfigPath);
    return this.#kc;
  }

  /**
   * Nodes from the API server. `state` is `running` while kwok simulates the node's kubelet and
   * `heartbeat-stopped` after `stop-heartbeat`; `internalIP` is the InternalIP kwok reports, or null.
   * @throws InfraError when the API server does not answer.
   */
  async nodes(): Promise<ClusterNode[]> {
    let items;
    try {
      items = (await this.#config.makeApiClient(CoreV1Api).listNode()).items;
    } catch (error) {
      throw apiError(`list Nodes of kwok cluster ${this.name}`, error);
    }
    return items
      .map((n) => ({
        name: n.metadata?.name ?? '',
        role: (n.metadata?.labels?.[CONTROL_PLANE_LABEL] !== undefined ? 'control-plane' : 'worker') as ClusterNode['role'],
        internalIP: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? null,
        state: n.metadata?.labels?.[KWOK_MANAGED_LABEL] === KWOK_MANAGED_VALUE ? 'running' : 'heartbeat-stopped',
      }))
      .sort((a, b) => (a.role === b.role ? a.name.localeCompare(b.name, 'en', { numeric: true }) : a.role === 'control-plane' ? -1 : 1));
  }

  /**
   * Flags of the running kube-controller-manager and kube-apiserver from /proc/<pid>/cmdline, and one kubelet
   * config (key {@link KWOK_KUBELET_CONFIG_KEY}) built from what kwok actually uses: its
   * `--node-lease-duration-seconds` flag and the delay of the `node-heartbeat` stage in kwok.yaml
   * (`nodeStatusReportFrequency` = the minimum delay, `nodeStatusUpdateFrequency` = the jitter span);
   * `shutdownGracePeriod` is 0s (a simulated node has no shutdown manager). A process that is not running
   * leaves its fields at the Kubernetes default, listed in `missing`.
   */
  async effectiveSettings(): Promise<EffectiveSettings> {
    const table = await readProcessTable(this.files.pidsFile);
    const flagsOf = (component: string) => (table[component] ? readProcessFlags(table[component]) : {});
    const kwokFlags = flagsOf('kwok');
    const kubelet: Record<string, unknown> = { shutdownGracePeriod: '0s', shutdownGracePeriodCriticalPods: '0s' };
    if (kwokFlags['node-lease-duration-seconds']) kubelet['nodeLeaseDurationSeconds'] = kwokFlags['node-lease-duration-seconds'];
    try {
      const docs = (await readFile(kwokFlags['config'] ?? this.files.kwokConfig, 'utf8')).split(/^---$/m).map((d) => parse(d));
      const delay = docs.find((d) => d?.metadata?.name === 'node-heartbeat')?.spec?.delay;
      if (delay) {
        kubelet['nodeStatusReportFrequency'] = formatGoDuration(delay.durationMilliseconds);
        kubelet['nodeStatusUpdateFrequency'] = formatGoDuration(delay.jitterDurationMilliseconds - delay.durationMilliseconds);
      }
    } catch {
      /* no stage file: the two frequencies are reported missing */
    }
    return toEffectiveSettings(flagsOf('kube-controller-manager'), flagsOf('kube-apiserver'), { [KWOK_KUBELET_CONFIG_KEY]: kubelet });
  }

  /** See {@link Cluster.act}: `stop-heartbeat`, `delete-node-object` and the API-server actions (actions.ts). */
  act(node: string, action: NodeAction, hooks?: ActHooks, args?: NodeActionArgs): Promise<Undo> {
    return actOnKwokNode(this.#context(), node, action, hooks, args);
  }

  #context() {
    return { kc: this.#config, kubeconfigPath: this.kubeconfigPath, stateDir: deletedNodesDir(this.files.dir) };
  }
}
