// Node faults on simulated nodes, through the API server only: heartbeat loss (kwok stops managing the
// node), deleting the Node object, and the out-of-service taint. Each resolves to its idempotent undo.
import { actWithUndo, type NodeActionPlan } from '../act-with-undo.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { InputError } from '../../common/errors.js';
import type { ActHooks, ActionRecord, NodeAction, NodeActionArgs, PlannedAction, Undo } from '../provider.js';
import { PROVIDERS } from '../../spec/providers.js';
import { apiError, apiErrorCode } from '../kube-client.js';
import { describeNodeApiAction, isNodeApiAction, planNodeApiAction } from '../node-api-actions.js';
import { KWOK_MANAGED_LABEL, KWOK_MANAGED_VALUE, KWOK_STOPPED_VALUE } from './flags.js';

/** Actions the kwok provider supports: heartbeat loss, Node deletion, and the API-server actions. */
export const KWOK_NODE_ACTIONS: ReadonlySet<NodeAction> = new Set<NodeAction>(PROVIDERS.kwok.nodeActions);

export { OUT_OF_SERVICE_TAINT } from '../node-api-actions.js';

/** Where kwok node actions run. */
export interface KwokActionContext {
  kc: KubeConfig;
  kubeconfigPath: string;
  /** Directory where a deleted Node's manifest is kept so it can be re-created (by the undo or by hand). */
  stateDir: string;
  /** Client clock, Unix epoch milliseconds; default Date.now. */
  now?: () => number;
}

const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);

async function patchNode(core: CoreV1Api, name: string, body: object, what: string): Promise<void> {
  try {
    await core.patchNode({ name, body }, strategic);
  } catch (error) {
    throw apiError(`${what} on Node ${name}`, error);
  }
}

/** The Node as the kubelet would register it again: metadata labels/annotations and spec, no status. */
function reRegistrable(node: V1Node): V1Node {
  const { name, labels, annotations } = node.metadata ?? {};
  const spec = { ...(node.spec ?? {}) };
  // Taints the node lifecycle controller added belong to the old object; a kubelet registers without them.
  spec.taints = spec.taints?.filter((t) => !t.key.startsWith('node.kubernetes.io/'));
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels, annotations }, spec };
}

/**
 * The kubectl lines equivalent to each kwok node action on `node` and to its undo: the undo is the restore command
 * planFor registers; both are what `rebootlab plan` prints. `manifest` keeps a deleted Node's object.
 */
function kwokCommands(kubeconfigPath: string, node: string, manifest: string): Record<'stop-heartbeat' | 'delete-node-object', { act: string[]; undo: string[] }> {
  const kubectl = (...args: string[]) => ['kubectl', '--kubeconfig', kubeconfigPath, ...args];
  return {
    'stop-heartbeat': {
      act: kubectl('label', 'node', node, `${KWOK_MANAGED_LABEL}=${KWOK_STOPPED_VALUE}`, '--overwrite'),
      undo: kubectl('label', 'node', node, `${KWOK_MANAGED_LABEL}=${KWOK_MANAGED_VALUE}`, '--overwrite'),
    },
    'delete-node-object': { act: kubectl('delete', 'node', node), undo: kubectl('create', '-f', manifest) },
  };
}

/**
 * What `action` on a node of the kwok cluster whose files are `kubeconfigPath` and `stateDir` runs and how it is
 * undone (`rebootlab plan`), `{node}` for the node. @throws InputError for an action kwok does not support.
 */
export function describeKwokAction(action: NodeAction, kubeconfigPath: string, stateDir: string): PlannedAction {
  if (!KWOK_NODE_ACTIONS.has(action)) {
    throw new InputError(`node action ${action} is not supported by the kwok provider (supported: ${[...KWOK_NODE_ACTIONS].join(', ')})`);
  }
  if (isNodeApiAction(action)) return describeNodeApiAction(action, '{node}', kubeconfigPath);
  const { act, undo } = kwokCommands(kubeconfigPath, '{node}', join(stateDir, '{node}.yaml'))[action as 'stop-heartbeat' | 'delete-node-object'];
  return { act: act.join(' '), undo: undo.join(' ') };
}

/** Where a kwok cluster keeps the manifests of the Node objects it deleted (so the undo can create them again). */
export function deletedNodesDir(clusterDir: string): string {
  return join(clusterDir, 'deleted-nodes');
}

async function planFor(ctx: KwokActionContext, core: CoreV1Api, node: V1Node, action: NodeAction, args: NodeActionArgs, hooks: ActHooks): Promise<NodeActionPlan> {
  const name = node.metadata!.name!;
  if (isNodeApiAction(action)) return planNodeApiAction(core, ctx.kubeconfigPath, name, action, args, hooks);
  const commands = kwokCommands(ctx.kubeconfigPath, name, join(ctx.stateDir, `${name}.yaml`));
  const setLabel = (value: string) => patchNode(core, name, { metadata: { labels: { [KWOK_MANAGED_LABEL]: value } } }, `label ${KWOK_MANAGED_LABEL}=${value}`);
  switch (action) {
    case 'stop-heartbeat':
      // kwok selects nodes with the label server-side: changing it ends kwok's watch of the node, which
      // stops its Lease renewals and status stages (see flags.ts, kwokArgs). Undo = the kubelet coming back.
      return {
        restoreCommands: [commands['stop-heartbeat'].undo],
        act: () => setLabel(KWOK_STOPPED_VALUE),
        undo: () => setLabel(KWOK_MANAGED_VALUE),
      };
    case 'delete-node-object': {
      const manifest = join(ctx.stateDir, `${name}.yaml`);
      return {
        restoreCommands: [commands['delete-node-object'].undo],
        act: async () => {
          await mkdir(ctx.stateDir, { recursive: true });
          await writeFile(manifest, stringify(reRegistrable(node)));
          try {
            await core.deleteNode({ name });
          } catch (error) {
            if (apiErrorCode(error) !== 404) throw apiError(`delete Node ${name}`, error);
          }
        },
        undo: async () => {
          try {
            await core.createNode({ body: reRegistrable(node) });
          } catch (error) {
            if (apiErrorCode(error) !== 409) throw apiError(`re-create Node ${name}`, error);
          }
        },
      };
    }
    default:
      throw new InputError(`node action ${action} is not supported by the kwok provider (supported: ${[...KWOK_NODE_ACTIONS].join(', ')})`);
  }
}

/**
 * Applies `action` to the simulated node `node` and resolves to its undo (idempotent; a failed undo may be
 * retried).
 * The undo and its record go to `hooks.beforeAct` before the API is called; `actedAtMs` is set when the call returned.
 * Records carry no IPs (`ipBefore`/`ipAfter`/`ipAfterUndo` null) and `container` is the node name.
 * @throws InputError for an unsupported action or a node that does not exist; InfraError when the API call fails.
 */
export async function actOnKwokNode(ctx: KwokActionContext, node: string, action: NodeAction, hooks: ActHooks = {}, args: NodeActionArgs = {}): Promise<Undo> {
  if (!KWOK_NODE_ACTIONS.has(action)) {
    throw new InputError(`node action ${action} is not supported by the kwok provider (supported: ${[...KWOK_NODE_ACTIONS].join(', ')})`);
  }
  const now = ctx.now ?? Date.now;
  const core = ctx.kc.makeApiClient(CoreV1Api);
  let current: V1Node;
  try {
    current = await core.readNode({ name: node });
  } catch (error) {
    if (apiErrorCode(error) === 404) throw new InputError(`no node ${node} in this kwok cluster`, 'Run: rebootlab cluster nodes');
    throw apiError(`read Node ${node}`, error);
  }
  const plan = await planFor(ctx, core, current, action, args, hooks);
  const record: ActionRecord = {
    node, action, container: node, ipBefore: null, ipAfter: null, ipAfterUndo: null,
    restoreCommands: plan.restoreCommands, actedAtMs: null, undoneAtMs: null,
  };
  return actWithUndo(record, plan, hooks, now);
}
