// The `existing` provider: a cluster rebootlab did not create, used as it is through one kubeconfig context. It
// never creates, deletes or reconfigures the cluster: "create" attaches (after checking the API server answers and
// that the `rebootlab` namespace, if present, is rebootlab's), "delete" removes only that namespace.
import { InfraError, InputError } from '../../common/errors.js';
import { formatCommand } from '../../common/exec.js';
import type { ClusterSpec } from '../../spec/types.js';
import { collectionOf, watchList } from '../watch-list.js';
import { apiError, apiErrorCode, loadKubeConfig } from '../kube-client.js';
import type { Cluster, ClusterProvider, Status } from '../provider.js';
import { createCommandBackend } from './command-backend.js';
import { ExistingCluster, type BackendFactory } from './cluster.js';
import { faultsAllowedOn } from './consent.js';
import { contextKubeconfigPath, writeContextKubeconfig } from './kubeconfig.js';
import { AGENT_NODE_ACTIONS, createAgentBackend, describeAgentAction } from './agent-backend.js';
import { describeNodeApiAction, isNodeApiAction } from '../node-api-actions.js';
import { MANAGED_BY, REBOOTLAB_NAMESPACE } from './labels.js';

/** How long deleting rebootlab's namespace may take at the end, milliseconds. */
const NAMESPACE_GONE_TIMEOUT_MS = 180_000;

/** Options of {@link createExistingProvider}. */
export interface ExistingProviderOptions {
  /** Environment for the cache directory (REBOOTLAB_CACHE); default process.env. */
  env?: NodeJS.ProcessEnv;
}

const backends: BackendFactory = (backend, cluster) =>
  backend.kind === 'command' ? createCommandBackend(backend, cluster.name) : createAgentBackend(backend, cluster);

/**
 * The existing provider. `create(spec)` attaches to `spec.existing` only when the command line consented
 * (./consent.ts; else InputError, before the cluster is read), and reports what it could not read back
 * through `status`); `attach` and `list` know no clusters by name (an existing cluster is named by the
 * experiment, not by rebootlab); `delete(context)` deletes the `rebootlab` namespace it used.
 */
export function createExistingProvider(options: ExistingProviderOptions = {}): ClusterProvider {
  const attached = new Map<string, ExistingCluster>();
  return {
    name: 'existing',
    async ensureAvailable() {},

    async create(spec: ClusterSpec, status: Status): Promise<Cluster> {
      if (!spec.existing) throw new InputError('cluster.kubeconfig and cluster.context are required with provider existing');
      if (!faultsAllowedOn(spec.existing.context)) {
        throw new InputError(`cluster.context ${spec.existing.context} is a cluster rebootlab does not own; run again with --allow-faults-on ${spec.existing.context}`);
      }
      const kubeconfigPath = writeContextKubeconfig(spec.existing, options.env);
      const cluster = new ExistingCluster(spec.existing.context, kubeconfigPath, spec.settings, backends);
      status.step(`using existing cluster of context ${spec.existing.context} (${spec.existing.kubeconfig}); it is not created, reconfigured or deleted`);
      await assertNamespaceOurs(cluster);
      const settings = await cluster.effectiveSettings();
      if (settings.unread.length > 0) {
        status.step(`could not read ${settings.unread.join('; ')}: ${settings.missing.join(', ')} taken from cluster.assume or the Kubernetes defaults`);
      }
      attached.set(cluster.name, cluster);
      return cluster;
    },

    async attach(name: string): Promise<Cluster> {
      const cluster = attached.get(name);
      if (!cluster) throw new InputError(`existing cluster ${name} is reached through an experiment's cluster.kubeconfig and cluster.context, not by name`);
      return cluster;
    },

    async delete(name: string): Promise<void> {
      const cluster = attached.get(name);
      if (!cluster) return;
      attached.delete(name);
      await deleteNamespace(cluster);
    },

    async list() {
      return [];
    },

    describeAction(action, backend, spec) {
      const kubeconfigPath = spec.existing ? contextKubeconfigPath(spec.existing, options.env) : '{kubeconfig of the context}';
      if (isNodeApiAction(action)) return describeNodeApiAction(action, '{node}', kubeconfigPath);
      if (action === 'delete-node-object') return { act: `kubectl --kubeconfig ${kubeconfigPath} delete node {node}`, undo: null };
      if (backend.kind === 'agent' && AGENT_NODE_ACTIONS.has(action)) return describeAgentAction(action);
      if (backend.kind === 'command' && action === 'stop') return { act: formatCommand('sh', ['-c', backend.off]), undo: formatCommand('sh', ['-c', backend.on]) };
      throw new InputError(`node action ${action} cannot be done on an existing cluster with fault.backend ${backend.kind}`);
    },
  };
}

/**
 * Refuses a cluster whose `rebootlab` namespace someone else made: rebootlab deletes that namespace at the start
 * and end of a run. @throws InputError (one line); InfraError when the API server does not answer.
 */
async function assertNamespaceOurs(cluster: ExistingCluster): Promise<void> {
  try {
    const namespace = await cluster.core.readNamespace({ name: REBOOTLAB_NAMESPACE });
    if (namespace.metadata?.labels?.[MANAGED_BY.key] !== MANAGED_BY.value) {
      throw new InputError(`namespace ${REBOOTLAB_NAMESPACE} on context ${cluster.name} was not created by rebootlab (no ${MANAGED_BY.key}=${MANAGED_BY.value} label); rebootlab deletes it after a run, so rename yours first`);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (apiErrorCode(error) === 404) return;
    throw new InfraError(`context ${cluster.name}: the API server did not answer: ${apiError('read namespace', error).message}`, 'Check cluster.kubeconfig and cluster.context with kubectl --context');
  }
}

/** Deletes the `rebootlab` namespace (pods at once, grace 0: some were on a node that was down) and waits until it is gone. @throws InfraError. */
async function deleteNamespace(cluster: ExistingCluster): Promise<void> {
  const core = cluster.core;
  await core.deleteCollectionNamespacedPod({ namespace: REBOOTLAB_NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  try {
    await core.deleteNamespace({ name: REBOOTLAB_NAMESPACE });
  } catch (error) {
    if (apiErrorCode(error) === 404) return;
    throw apiError(`delete namespace ${REBOOTLAB_NAMESPACE}`, error);
  }
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  await watchList(kc, collectionOf(kc, 'Namespace', { fieldSelector: `metadata.name=${REBOOTLAB_NAMESPACE}` }), (namespaces) => namespaces.size === 0,
    { timeoutMs: NAMESPACE_GONE_TIMEOUT_MS, what: `namespace ${REBOOTLAB_NAMESPACE} deleted` });
}
