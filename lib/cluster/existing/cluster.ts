// A cluster someone else runs, reached through one kubeconfig context: nodes and settings come from the API
// server, node actions are API actions (cordon, taints, Node deletion, force delete) or go through the
// experiment's fault backend (agent pod or the user's commands). Never a Docker call, never a file on a node
// written outside a backend's own undo.
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { InputError } from '../../common/errors.js';
import type { FaultBackend } from '../../spec/types.js';
import type { TimeoutSettings } from '../../spec/settings.js';
import { actWithUndo, type NodeActionPlan } from '../act-with-undo.js';
import { apiError, apiErrorCode, coreApiFor } from '../kube-client.js';
import { isNodeApiAction, planNodeApiAction } from '../node-api-actions.js';
import { PROVIDERS } from '../../spec/providers.js';
import type { ActHooks, ActionRecord, Cluster, ClusterNode, NodeAction, NodeActionArgs, Undo } from '../provider.js';
import { CONTROL_PLANE_NODE_LABEL } from './labels.js';
import { readExistingSettings, type ExistingSettings } from './settings.js';

/** What a fault backend does to one node: the plan of a backend action (see act-with-undo.ts). */
export interface NodeBackend {
  /** Node actions it implements, e.g. `stop` for the command backend. */
  readonly actions: ReadonlySet<NodeAction>;
  /** The plan of `action` on `node` (whose Node object is `nodeObject`). @throws InputError, InfraError. */
  plan(node: V1Node, action: NodeAction): Promise<NodeActionPlan>;
}

/** Makes the backend of a fault on this cluster; injected so lib/cluster/existing/provider.ts chooses the implementations. */
export type BackendFactory = (backend: Exclude<FaultBackend, { kind: 'provider' }>, cluster: ExistingCluster) => NodeBackend;

/** Actions every existing cluster can do through the API server alone. */
export const EXISTING_API_ACTIONS: ReadonlySet<NodeAction> = new Set<NodeAction>(PROVIDERS.existing.nodeActions);

/** An existing cluster: `name` is the context name; `kubeconfigPath` rebootlab's one-context copy. */
export class ExistingCluster implements Cluster {
  readonly provider = 'existing' as const;
  readonly supportedActions: ReadonlySet<NodeAction>;
  #core: CoreV1Api | undefined;

  /**
   * @param assumed the resolved `cluster.assume` (durations in milliseconds): fills what cannot be read back.
   * @param backend the fault backend acting on nodes, or null (API actions only).
   */
  constructor(
    readonly name: string,
    readonly kubeconfigPath: string,
    readonly assumed: TimeoutSettings,
    readonly backends: BackendFactory,
    readonly backend: NodeBackend | null = null,
  ) {
    this.supportedActions = new Set([...EXISTING_API_ACTIONS, ...(backend?.actions ?? [])]);
  }

  /** The Kubernetes API of this cluster. */
  get core(): CoreV1Api {
    this.#core ??= coreApiFor(this.kubeconfigPath);
    return this.#core;
  }

  /** This cluster acting on nodes through `backend` (runFault calls it with `fault.backend`). */
  withBackend(backend: FaultBackend): Cluster {
    if (backend.kind === 'provider') return this;
    return new ExistingCluster(this.name, this.kubeconfigPath, this.assumed, this.backends, this.backends(backend, this));
  }

  /** Nodes from the API server: role from the control-plane label, InternalIP from status, state `Ready`/`NotReady`. @throws InfraError. */
  async nodes(): Promise<ClusterNode[]> {
    let items: V1Node[];
    try {
      items = (await this.core.listNode()).items;
    } catch (error) {
      throw apiError(`list Nodes of context ${this.name}`, error);
    }
    return items
      .map((n) => ({
        name: n.metadata?.name ?? '',
        role: CONTROL_PLANE_NODE_LABEL in (n.metadata?.labels ?? {}) ? ('control-plane' as const) : ('worker' as const),
        internalIP: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? null,
        state: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Ready' : 'NotReady',
      }))
      .sort((a, b) => (a.role === b.role ? a.name.localeCompare(b.name) : a.role === 'control-plane' ? -1 : 1));
  }

  /** See ./settings.ts. @throws InfraError when the API server cannot be reached. */
  effectiveSettings(): Promise<ExistingSettings> {
    return readExistingSettings(this.core, this.assumed);
  }

  /** The Node object `node`. @throws InputError when the cluster has no such node; InfraError. */
  async readNode(node: string): Promise<V1Node> {
    try {
      return await this.core.readNode({ name: node });
    } catch (error) {
      if (apiErrorCode(error) === 404) throw new InputError(`node ${node} is not a node of context ${this.name}`);
      throw apiError(`read Node ${node}`, error);
    }
  }

  /** See {@link Cluster.act}: API actions here, every other through the fault backend. */
  async act(node: string, action: NodeAction, hooks: ActHooks = {}, args: NodeActionArgs = {}): Promise<Undo> {
    if (!this.supportedActions.has(action)) {
      throw new InputError(`${action} cannot be done on existing cluster ${this.name}${this.backend ? ' by this fault backend' : ' without fault.backend'}`);
    }
    const nodeObject = await this.readNode(node);
    const plan = await this.#plan(nodeObject, action, args, hooks);
    const record: ActionRecord = {
      node, action, container: '', ipBefore: nodeObject.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? null,
      ipAfter: null, ipAfterUndo: null, restoreCommands: plan.restoreCommands, actedAtMs: null, undoneAtMs: null,
    };
    return actWithUndo(record, plan, hooks, Date.now);
  }

  async #plan(node: V1Node, action: NodeAction, args: NodeActionArgs, hooks: ActHooks): Promise<NodeActionPlan> {
    const name = node.metadata!.name!;
    if (isNodeApiAction(action)) return planNodeApiAction(this.core, this.kubeconfigPath, name, action, args, hooks);
    if (action === 'delete-node-object') {
      // No undo: a Node object comes back when its kubelet registers again (after the fault's own undo).
      return { restoreCommands: [], act: () => this.#deleteNode(name), undo: async () => {} };
    }
    return this.backend!.plan(node, action);
  }

  async #deleteNode(node: string): Promise<void> {
    try {
      await this.core.deleteNode({ name: node });
    } catch (error) {
      if (apiErrorCode(error) !== 404) throw apiError(`delete Node ${node}`, error);
    }
  }
}
