// The kind cluster provider: creates, attaches to, lists and deletes kind clusters, one kubeconfig file each.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { run } from '../../common/exec.js';
import type { ClusterSpec } from '../../spec/types.js';
import type { Cluster, ClusterProvider, Status } from '../provider.js';
import { describeDockerAction } from './actions.js';
import { KindCluster } from './cluster.js';
import { docker, listNodeContainers } from './docker.js';
import { thawClusterNodes } from './frozen-cgroups.js';
import { ensureLogind, kubeletNeedsLogind } from './logind.js';
import { renderKindConfig } from './config.js';
import { cacheDir } from '../../common/cache.js';
import { forgetOwnership, foreignClusterError, ownedNodeContainers, recordCreationStart, recordOwnership } from './ownership.js';
import { ensureKindTools, kindBinary, resolveNodeImage, TOOLCHAIN_HINT } from './tools.js';

/** Options of {@link createKindProvider}. */
export interface KindProviderOptions {
  /** Directory of the per-cluster files `<name>.kubeconfig` and `<name>.kind-config.yaml`; default `$REBOOTLAB_CACHE/clusters`. */
  clusterDir?: string;
  /** Environment used to find the kind binary and cache (REBOOTLAB_KIND, REBOOTLAB_CACHE); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Give up on `kind create cluster` after this many milliseconds; default 600000 (10 min). */
  createTimeoutMs?: number;
}

/** Runs the kind binary. @throws CommandError (InfraError) with kind's last stderr line. */
function kind(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 120_000): Promise<string> {
  return run(kindBinary(env), args, { timeoutMs, hint: TOOLCHAIN_HINT });
}

/**
 * The kind provider. `create` renders the kind config next to the cluster's kubeconfig and runs
 * `kind create cluster --name <n> --config <file> --image <image> --kubeconfig <own file> --wait 0s`;
 * the user's kubeconfig and current context are never touched (always `--kubeconfig`). It then records the
 * cluster as rebootlab's (ownership.ts); `list`, `attach` and `delete` refuse every other kind cluster with
 * "cluster X was not created by rebootlab; use kind delete cluster --name X".
 */
export function createKindProvider(options: KindProviderOptions = {}): ClusterProvider {
  const env = options.env ?? process.env;
  const dir = options.clusterDir ?? join(cacheDir(env), 'clusters');
  const kubeconfigOf = (name: string) => join(dir, `${name}.kubeconfig`);

  /** Every kind cluster on this Docker engine, rebootlab's or not. */
  const allClusters = async (): Promise<string[]> => {
    // "No kind clusters found." goes to stderr; stdout is then empty.
    const out = await kind(env, ['get', 'clusters']);
    return out.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  };
  const owns = async (name: string): Promise<boolean> => (await ownedNodeContainers(dir, name)) !== null;
  /** rebootlab's kind clusters only (see ownership.ts): the others are never listed, attached to or deleted. */
  const list = async (): Promise<string[]> => {
    const owned: string[] = [];
    for (const name of await allClusters()) if (await owns(name)) owned.push(name);
    return owned;
  };

  return {
    name: 'kind',
    ensureAvailable: () => ensureKindTools(env),

    async checkKubernetesVersion(kubernetesVersion: string) {
      await resolveNodeImage(null, kubernetesVersion);
    },

    async create(spec: ClusterSpec, status: Status): Promise<Cluster> {
      await ensureKindTools(env);
      if ((await allClusters()).includes(spec.name)) {
        if (!(await owns(spec.name))) throw foreignClusterError(spec.name);
        throw new InputError(`kind cluster ${spec.name} already exists`, 'Use --reuse-cluster, or: rebootlab cluster delete ' + spec.name);
      }
      await mkdir(dir, { recursive: true });
      const configPath = join(dir, `${spec.name}.kind-config.yaml`);
      await writeFile(configPath, renderKindConfig(spec));
      const image = await resolveNodeImage(spec.nodeImage, spec.kubernetesVersion);
      const kubeconfigPath = kubeconfigOf(spec.name);
      status.step(`creating kind cluster ${spec.name}: 1 control plane + ${spec.workers} workers, image ${image}`);
      // Before kind runs: a creation cut short (signal, crash, timeout) leaves containers `cluster delete` accepts.
      await recordCreationStart(dir, spec.name);
      try {
        await kind(
          env,
          ['create', 'cluster', '--name', spec.name, '--config', configPath, '--image', image, '--kubeconfig', kubeconfigPath, '--wait', '0s'],
          options.createTimeoutMs ?? 600_000,
        );
      } catch (error) {
        // kind deletes a half-made cluster itself unless --retain; make sure, and drop our files. When the delete
        // fails too, the creation record stays, so `rebootlab cluster delete` can still remove what is left.
        const deleted = await kind(env, ['delete', 'cluster', '--name', spec.name, '--kubeconfig', kubeconfigPath]).then(() => true, () => false);
        if (deleted) {
          await rm(kubeconfigPath, { force: true });
          await rm(configPath, { force: true }); // no stale evidence for adopting a later cluster of this name
          await forgetOwnership(dir, spec.name);
        } else {
          status.step(`kind create cluster failed and the half-made cluster could not be deleted: rebootlab cluster delete ${spec.name}`);
        }
        throw error;
      }
      try {
        await recordOwnership(dir, spec.name);
      } catch (error) {
        // Unrecorded, the cluster would be refused as foreign: do not leave it behind.
        await kind(env, ['delete', 'cluster', '--name', spec.name, '--kubeconfig', kubeconfigPath]).catch(() => '');
        throw error;
      }
      if (kubeletNeedsLogind(spec)) {
        // The kubelets started without logind (kind's image enables neither it nor dbus): start both, then the
        // kubelets again, so their graceful node shutdown manager takes its inhibitor lock (./logind.ts).
        status.step('starting dbus and systemd-logind on every node for the kubelet\'s graceful node shutdown');
        await Promise.all((await listNodeContainers(spec.name)).map(async (node) => {
          await ensureLogind(node.name);
          await docker(['exec', node.name, 'systemctl', 'restart', 'kubelet']);
        }));
      }
      return new KindCluster(spec.name, kubeconfigPath);
    },

    async attach(name: string): Promise<Cluster> {
      await ensureKindTools(env);
      if (!(await allClusters()).includes(name)) throw new InputError(`kind cluster ${name} does not exist`, 'Run: rebootlab cluster list');
      if (!(await owns(name))) throw foreignClusterError(name);
      await mkdir(dir, { recursive: true });
      const kubeconfigPath = kubeconfigOf(name);
      await writeFile(kubeconfigPath, await kind(env, ['get', 'kubeconfig', '--name', name]), { mode: 0o600 });
      return new KindCluster(name, kubeconfigPath);
    },

    async delete(name: string): Promise<void> {
      await ensureKindTools(env);
      if ((await allClusters()).includes(name) && !(await owns(name))) throw foreignClusterError(name);
      // A node killed inside runc's freeze window cannot be removed until its nested cgroups are thawed
      // (frozen-cgroups.ts): thaw before deleting, and once more, then retry, if the delete still fails.
      await thawClusterNodes(name);
      const deleteCluster = () => kind(env, ['delete', 'cluster', '--name', name, '--kubeconfig', kubeconfigOf(name)], 300_000);
      await deleteCluster().catch(async (err: unknown) => {
        if ((await thawClusterNodes(name)).length === 0) throw err;
        await deleteCluster();
      });
      await rm(kubeconfigOf(name), { force: true });
      await rm(join(dir, `${name}.kind-config.yaml`), { force: true });
      await forgetOwnership(dir, name);
    },

    list,

    describeAction: (action, _backend, spec) => describeDockerAction(action, kubeconfigOf(spec.name)),
  };
}

