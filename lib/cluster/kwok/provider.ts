// The kwok cluster provider: real etcd, kube-apiserver, kube-controller-manager and kube-scheduler as
// child processes on loopback, with kwok simulating the nodes; one directory per cluster.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { CoreV1Api } from '@kubernetes/client-node';
import { InfraError, InputError } from '../../common/errors.js';
import type { ClusterSpec } from '../../spec/types.js';
import type { ClusterProvider, Status } from '../provider.js';
import { apiErrorCode, loadKubeConfig } from '../kube-client.js';
import { writeClusterPki } from './certs.js';
import { deletedNodesDir, describeKwokAction } from './actions.js';
import { KwokCluster } from './cluster.js';
import { startControlPlane } from './control-plane.js';
import { installStoppedNodePolicy } from './heartbeat-guard.js';
import { createNodes, renderNodes, waitNodesReady } from './nodes.js';
import { clusterFiles, defaultKwokClustersDir, findKwokBinaries, KWOK_TOOLCHAIN_HINT, kwokBinary, type ClusterFiles } from './paths.js';
import { isAlive, readProcessTable, stopProcesses } from './processes.js';
import { renderKwokConfig } from './stages.js';
import { ownerGone, writeOwner } from './watchdog.js';

/** Options of {@link createKwokProvider}; a superset of the registry's ProviderOptions. */
export interface KwokProviderOptions {
  /** Parent directory of the cluster directories; default `$REBOOTLAB_CACHE/kwok-clusters`. */
  clusterDir?: string;
  /** Environment used to find binaries and the cache (REBOOTLAB_CACHE, REBOOTLAB_ETCD, ...); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Give up on creating the cluster after this many milliseconds; default 300000 (5 min). */
  createTimeoutMs?: number;
  /**
   * Process whose exit tears the cluster down (watchdog.ts), default `process.pid`; `null` keeps the cluster
   * until `delete` (for `rebootlab cluster create`). {@link KwokProvider.keep} releases it later (--keep-cluster).
   */
  ownerPid?: number | null;
  /** Lift client QPS limits for 1000-node runs (flags.ts, ScaleOptions); default false. */
  unlimitedQps?: boolean;
}

/** The kwok provider: the ClusterProvider verbs plus `keep`. */
export interface KwokProvider extends ClusterProvider {
  /** Let cluster `name` outlive the process that created it (removes its owner file). No error when absent. */
  keep(name: string): Promise<void>;
}

/** True while the cluster's API server process runs. */
async function isRunning(files: ClusterFiles): Promise<boolean> {
  const table = await readProcessTable(files.pidsFile);
  return table['kube-apiserver'] !== undefined && isAlive(table['kube-apiserver']);
}

async function destroy(files: ClusterFiles): Promise<void> {
  await stopProcesses(await readProcessTable(files.pidsFile));
  await rm(files.dir, { recursive: true, force: true });
}

/** Waits for the `default` ServiceAccount, which the controller manager creates; pods are refused without it. */
async function waitDefaultServiceAccount(files: ClusterFiles, timeoutMs: number): Promise<void> {
  const core = loadKubeConfig(files.kubeconfig).makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await core.readNamespacedServiceAccount({ name: 'default', namespace: 'default' });
      return;
    } catch (error) {
      if (apiErrorCode(error) !== 404 || Date.now() > deadline) {
        throw new InfraError(`kube-controller-manager did not create the default ServiceAccount within ${timeoutMs} ms`, `See ${files.logsDir}/kube-controller-manager.log`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The kwok provider. `create` writes `<clusterDir>/<name>/` (pki/, etcd/, logs/, pids.json, owner.pid,
 * kubeconfig, kwok.yaml, cluster-spec.json), starts the processes (control-plane.ts), installs the policy that
 * keeps a stopped node silent (heartbeat-guard.ts), creates the Node objects (nodes.ts) and waits until they are Ready. The user's kubeconfig is never touched.
 */
export function createKwokProvider(options: KwokProviderOptions = {}): KwokProvider {
  const env = options.env ?? process.env;
  const parent = options.clusterDir ?? defaultKwokClustersDir(env);
  const filesOf = (name: string) => clusterFiles(parent, name);
  const createTimeoutMs = options.createTimeoutMs ?? 300_000;

  const list = async (): Promise<string[]> => {
    const names = existsSync(parent) ? (await readdir(parent, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name) : [];
    const live: string[] = [];
    for (const name of names.sort()) {
      const files = filesOf(name);
      // A cluster whose processes all died, or whose owner exited without deleting it, is stale: clean it up.
      // One with some processes but no API server yet is being created by another process: leave it.
      const table = await readProcessTable(files.pidsFile);
      const stale = ownerGone(files.ownerFile) || (existsSync(files.pidsFile) && !Object.values(table).some(isAlive));
      if (stale) await destroy(files);
      else if (await isRunning(files)) live.push(name);
    }
    return live;
  };

  return {
    name: 'kwok',

    async ensureAvailable() {
      // The version-independent tool; each version's control-plane binaries are checked when a cluster is made.
      if (!existsSync(kwokBinary(env))) throw new InfraError(`kwok provider: missing ${kwokBinary(env)}`, KWOK_TOOLCHAIN_HINT);
    },

    async checkKubernetesVersion(kubernetesVersion: string) {
      findKwokBinaries(kubernetesVersion, env);
    },

    async create(spec: ClusterSpec, status: Status) {
      const binaries = findKwokBinaries(spec.kubernetesVersion, env);
      const files = filesOf(spec.name);
      if ((await list()).includes(spec.name)) {
        throw new InputError(`kwok cluster ${spec.name} already exists`, `Use --reuse-cluster, or: rebootlab cluster delete ${spec.name}`);
      }
      await rm(files.dir, { recursive: true, force: true });
      await mkdir(files.logsDir, { recursive: true });
      await mkdir(files.kwokWorkDir, { recursive: true });
      const startedAtMs = Date.now();
      try {
        if (options.ownerPid !== null) writeOwner(files.ownerFile, options.ownerPid ?? process.pid);
        await writeFile(files.specFile, JSON.stringify(spec, null, 2));
        await writeFile(files.kwokConfig, renderKwokConfig(spec.settings));
        status.step(`kwok cluster ${spec.name}: certificates (openssl)`);
        await writeClusterPki(files);
        const remainingMs = () => Math.max(1_000, createTimeoutMs - (Date.now() - startedAtMs));
        await startControlPlane({
          spec, files, binaries, status,
          scale: { unlimitedQps: options.unlimitedQps ?? false },
          componentTimeoutMs: Math.min(60_000, remainingMs()),
          onStarted: async () => {},
        });
        await waitDefaultServiceAccount(files, Math.min(60_000, remainingMs()));
        const nodes = renderNodes(spec);
        status.step(`kwok cluster ${spec.name}: creating ${nodes.length} simulated nodes (1 control plane + ${spec.workers} workers)`);
        const kc = loadKubeConfig(files.kubeconfig);
        await installStoppedNodePolicy(kc);
        await createNodes(kc, nodes);
        await waitNodesReady(kc, nodes.map((n) => n.metadata!.name!), remainingMs());
      } catch (error) {
        await destroy(files);
        throw error;
      }
      return new KwokCluster(spec.name, files);
    },

    async attach(name: string) {
      const files = filesOf(name);
      if (!(await isRunning(files))) throw new InputError(`kwok cluster ${name} does not exist or is not running`, 'Run: rebootlab cluster list');
      return new KwokCluster(name, files);
    },

    async delete(name: string) {
      await destroy(filesOf(name));
    },

    list,

    async keep(name: string) {
      await rm(filesOf(name).ownerFile, { force: true });
    },

    describeAction: (action, _backend, spec) => describeKwokAction(action, filesOf(spec.name).kubeconfig, deletedNodesDir(filesOf(spec.name).dir)),
  };
}
