// Answers "is this rebootlab's?" for the restore commands of pending-restore.json (lib/faults/restore-commands.ts):
// node containers of kind clusters rebootlab made, and the kubeconfig files of its kind and kwok clusters.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { docker, isNoSuchContainer, KIND_CLUSTER_LABEL } from './kind/docker.js';
import { foreignClusterError, listNodeContainerIds, ownedNodeContainers } from './kind/ownership.js';
import { cacheDir } from '../common/cache.js';
import { defaultKwokClustersDir } from './kwok/paths.js';

/**
 * Why a restore command is not run: `gone` when its node or cluster no longer exists (nothing left to restore);
 * `unchecked` when Docker could not be asked (the fault may still be in place; try again once Docker answers).
 */
export interface RestoreRefusal {
  ok: false;
  reason: string;
  gone?: boolean;
  unchecked?: boolean;
}

/** What rebootlab owns, asked while checking restore commands (lib/cluster implements it; unit tests fake it). */
export interface RestoreTargets {
  /** The rebootlab-made kind cluster whose node container is `container`, or why it is refused (one line). */
  kindNodeContainer(container: string): Promise<{ ok: true; cluster: string } | RestoreRefusal>;
  /**
   * The rebootlab cluster whose own kubeconfig file is `path`: its node names (null when they cannot be listed
   * offline, kwok) and the directory its node manifests may live in (kwok: `<cluster dir>/deleted-nodes`), or why refused.
   */
  clusterOfKubeconfig(path: string): Promise<{ ok: true; cluster: string; nodes: ReadonlySet<string> | null; manifestDir: string | null } | RestoreRefusal>;
}

/**
 * The restore targets of this machine's rebootlab cache (`$REBOOTLAB_CACHE`): kind clusters recorded in
 * `<cache>/clusters/<name>.owner.json` (lib/cluster/kind/ownership.ts), kwok clusters under `<cache>/kwok-clusters/`.
 */
export function createRestoreTargets(env: NodeJS.ProcessEnv = process.env): RestoreTargets {
  const kindDir = join(cacheDir(env), 'clusters');
  const kwokDir = defaultKwokClustersDir(env);
  return {
    async kindNodeContainer(container) {
      let cluster: string;
      try {
        cluster = (await docker(['inspect', '--type', 'container', '--format', `{{index .Config.Labels "${KIND_CLUSTER_LABEL}"}}`, container])).trim();
      } catch (error) {
        // Only Docker's own answer that the container does not exist means the fault is gone with it; an unreachable
        // daemon, a missing docker binary or a timeout says nothing about the node, so the record must stay.
        if (isNoSuchContainer(error)) return { ok: false, gone: true, reason: `container ${container} no longer exists; nothing to restore` };
        return { ok: false, unchecked: true, reason: `cannot ask Docker about container ${container}: ${(error as Error).message.split('\n')[0]}` };
      }
      if (!cluster || cluster === '<no value>') return { ok: false, reason: `container ${container} is not a kind node; rebootlab restores only its own clusters' nodes` };
      const owned = await ownedNodeContainers(kindDir, cluster);
      if (!owned || !owned.has(container)) return { ok: false, reason: foreignClusterError(cluster).message };
      return { ok: true, cluster };
    },
    async clusterOfKubeconfig(path) {
      const file = resolve(path);
      if (dirname(file) === kindDir && file.endsWith('.kubeconfig')) {
        const cluster = file.slice(kindDir.length + 1, -'.kubeconfig'.length);
        let containers;
        try {
          containers = await listNodeContainerIds(cluster);
        } catch (error) {
          return { ok: false, unchecked: true, reason: `cannot ask Docker about kind cluster ${cluster}: ${(error as Error).message.split('\n')[0]}` };
        }
        if (containers.length === 0) return { ok: false, gone: true, reason: `kind cluster ${cluster} no longer exists; nothing to restore` };
        const owned = await ownedNodeContainers(kindDir, cluster);
        if (!owned) return { ok: false, reason: foreignClusterError(cluster).message };
        return { ok: true, cluster, nodes: owned, manifestDir: null };
      }
      if (dirname(dirname(file)) === kwokDir && file.endsWith('/kubeconfig') && !existsSync(file)) {
        return { ok: false, gone: true, reason: `kwok cluster ${dirname(file).slice(kwokDir.length + 1)} no longer exists; nothing to restore` };
      }
      if (dirname(dirname(file)) === kwokDir && file.endsWith('/kubeconfig') && existsSync(join(dirname(file), 'cluster-spec.json'))) {
        const dir = dirname(file);
        return { ok: true, cluster: dir.slice(kwokDir.length + 1), nodes: null, manifestDir: join(dir, 'deleted-nodes') };
      }
      return { ok: false, reason: `${path} is not the kubeconfig of a cluster rebootlab made (${kindDir}/<name>.kubeconfig or ${kwokDir}/<name>/kubeconfig)` };
    },
  };
}

