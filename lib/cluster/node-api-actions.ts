// Node actions done through the API server alone, the same on every provider: the out-of-service taint,
// force-deleting the pods bound to a node, cordoning, labels, and the Eviction API (evict-pods, drain). Each is a
// plan for act-with-undo.ts.
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1Taint } from '@kubernetes/client-node';
import { InputError } from '../common/errors.js';
import type { NodeActionPlan } from './act-with-undo.js';
import type { ActHooks, NodeAction, NodeActionArgs, PlannedAction } from './provider.js';
import { NODE_API_ACTIONS } from '../spec/providers.js';
import { apiError, apiErrorCode } from './kube-client.js';
import { evictPodsOn } from './node-ops.js';

/**
 * The taint of non-graceful node shutdown (KEP-2268, GA in Kubernetes 1.28):
 * `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`. Pods that do not tolerate it are force-deleted
 * by the pod garbage collector and their volumes detached at once; an operator adds it to a node known to be
 * down and removes it once the node is back (https://kubernetes.io/docs/concepts/cluster-administration/node-shutdown/#non-graceful-node-shutdown).
 */
export const OUT_OF_SERVICE_TAINT = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' } as const;

/** The node actions implemented here, for every provider (lib/spec/providers.ts). */
export { NODE_API_ACTIONS };
/** One of {@link NODE_API_ACTIONS}. */
export type NodeApiAction = (typeof NODE_API_ACTIONS)[number];

/** True for the actions this module implements. */
export function isNodeApiAction(action: NodeAction): action is NodeApiAction {
  return (NODE_API_ACTIONS as readonly string[]).includes(action);
}

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Rewrites the Node's taint list with `change` as a JSON patch guarded by a `test` of the resourceVersion, retried
 * on conflict: NodeSpec.taints has no patch merge key, so a strategic merge patch would replace the whole list and
 * drop the node lifecycle controller's own taints. A Node that no longer exists is left alone (nothing to taint).
 * @throws InfraError when the API call fails five times or for another reason than a conflict.
 */
export async function editTaints(core: CoreV1Api, name: string, what: string, change: (taints: V1Taint[]) => V1Taint[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const node = await core.readNode({ name });
      const body = [
        { op: 'test', path: '/metadata/resourceVersion', value: node.metadata?.resourceVersion },
        { op: 'add', path: '/spec/taints', value: change(node.spec?.taints ?? []) },
      ];
      await core.patchNode({ name, body }, jsonPatch);
      return;
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 404) return;
      if (attempt >= 5 || (code !== 409 && code !== 422)) throw apiError(`${what} on Node ${name}`, error);
    }
  }
}

async function setUnschedulable(core: CoreV1Api, name: string, unschedulable: boolean): Promise<void> {
  try {
    await core.patchNode({ name, body: { spec: { unschedulable } } }, mergePatch);
  } catch (error) {
    if (apiErrorCode(error) !== 404) throw apiError(`${unschedulable ? 'cordon' : 'uncordon'} Node ${name}`, error);
  }
}

/** The Node's label `key`, or null when it has none (or the Node is gone). @throws InfraError. */
async function readLabel(core: CoreV1Api, name: string, key: string): Promise<string | null> {
  try {
    return (await core.readNode({ name })).metadata?.labels?.[key] ?? null;
  } catch (error) {
    if (apiErrorCode(error) === 404) return null;
    throw apiError(`read Node ${name}`, error);
  }
}

/** Sets label `key` to `value`, or removes it for null (a JSON merge patch; a Node that no longer exists is left alone). @throws InfraError. */
async function setLabel(core: CoreV1Api, name: string, key: string, value: string | null): Promise<void> {
  try {
    await core.patchNode({ name, body: { metadata: { labels: { [key]: value } } } }, mergePatch);
  } catch (error) {
    if (apiErrorCode(error) !== 404) throw apiError(`${value === null ? `remove label ${key} from` : `label ${key}=${value} on`} Node ${name}`, error);
  }
}

/**
 * Force-deletes every pod bound to `node` in every namespace (grace period 0: what
 * `kubectl delete pod --force --grace-period=0` does), without waiting for a kubelet to confirm. This is the
 * manual recovery of a StatefulSet pod stuck Terminating on a node that is down
 * (https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/).
 * Resolves to the `namespace/name` of each pod deleted. @throws InfraError when listing fails.
 */
export async function forceDeletePodsOn(core: CoreV1Api, node: string): Promise<string[]> {
  let pods;
  try {
    pods = (await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items;
  } catch (error) {
    throw apiError(`list pods on Node ${node}`, error);
  }
  const deleted: string[] = [];
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace ?? 'default';
    try {
      await core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 });
      deleted.push(`${namespace}/${name}`);
    } catch (error) {
      if (apiErrorCode(error) !== 404) throw apiError(`force-delete pod ${namespace}/${name}`, error);
    }
  }
  return deleted;
}

/**
 * The kubectl arguments equivalent to each API-server node action on `node` and to its undo (null: none), or, for an
 * action kubectl has no command for, its text: the undo is the restore command planNodeApiAction registers, and both
 * are what `rebootlab plan` prints. The arguments of a step are placeholders the plan fills in: `{label}`,
 * `{label.key}`, `{pods}`, `{retry}` (lib/run/plan.ts).
 */
const API_COMMANDS: Readonly<Record<NodeApiAction, (node: string) => { act: string[] | string; undo: string[] | string | null }>> = {
  'taint-out-of-service': (node) => ({
    act: ['taint', 'node', node, `${OUT_OF_SERVICE_TAINT.key}=${OUT_OF_SERVICE_TAINT.value}:${OUT_OF_SERVICE_TAINT.effect}`],
    undo: ['taint', 'node', node, `${OUT_OF_SERVICE_TAINT.key}:${OUT_OF_SERVICE_TAINT.effect}-`],
  }),
  'force-delete-pods': (node) => ({ act: ['delete', 'pods', '--all-namespaces', '--field-selector', `spec.nodeName=${node}`, '--force', '--grace-period=0'], undo: null }),
  cordon: (node) => ({ act: ['cordon', node], undo: ['uncordon', node] }),
  'label-node': (node) => ({ act: ['label', 'node', node, '{label}', '--overwrite'], undo: 'put back the value {label.key} had (or remove it)' }),
  'unlabel-node': (node) => ({ act: ['label', 'node', node, '{label.key}-'], undo: 'put back the value {label.key} had' }),
  'evict-pods': (node) => ({ act: `the Eviction API for {pods} on ${node} (PodDisruptionBudgets honoured; refusals retried for {retry})`, undo: null }),
  drain: (node) => ({ act: `cordon ${node}, then the Eviction API for {pods} on it (PodDisruptionBudgets honoured; refusals retried for {retry})`, undo: ['uncordon', node] }),
};

/** The kubectl arguments of the undo of `action` on `node`, for those whose undo is one. */
function kubectlUndo(action: 'taint-out-of-service' | 'cordon', node: string): string[] {
  return API_COMMANDS[action](node).undo as string[];
}

/** What an API-server node action on `node` does and its undo, as kubectl command lines (`rebootlab plan`). */
export function describeNodeApiAction(action: NodeApiAction, node: string, kubeconfigPath: string): PlannedAction {
  const { act, undo } = API_COMMANDS[action](node);
  const kubectl = (args: string[] | string) => (typeof args === 'string' ? args : ['kubectl', '--kubeconfig', kubeconfigPath, ...args].join(' '));
  return { act: kubectl(act), undo: undo ? kubectl(undo) : null };
}

/**
 * The plan of an API-server node action on `node`:
 * - `taint-out-of-service`: add {@link OUT_OF_SERVICE_TAINT}; undo removes it.
 * - `force-delete-pods`: {@link forceDeletePodsOn}; no undo (a deleted pod cannot come back; its controller
 *   makes a new one).
 * - `cordon`: `spec.unschedulable = true` (what `kubectl cordon` does); undo uncordons.
 * - `label-node` / `unlabel-node`: set `args.label` / remove its key (`kubectl label node`); the value before, read
 *   here, goes into the record (`labelBefore`) and the undo puts it back (or removes a label that was absent).
 * - `evict-pods`: the Eviction API for the pods of `args.pods` on the node (lib/cluster/node-ops.ts evictPodsOn),
 *   refusals retried for `args.retryForMs`, each pod's attempts reported to `hooks.onEviction`; no undo.
 * - `drain`: cordon, then evict-pods (what `kubectl drain` does, without waiting for the pods to terminate); undo uncordons.
 * `kubeconfigPath` goes into the restore command lines (kubectl), run by `rebootlab doctor --restore`.
 * @throws InputError for a label action without `args.label`; InfraError when reading the Node fails.
 */
export async function planNodeApiAction(
  core: CoreV1Api, kubeconfigPath: string, node: string, action: NodeApiAction, args: NodeActionArgs = {}, hooks: ActHooks = {},
): Promise<NodeActionPlan> {
  const kubectl = (...argv: string[]) => ['kubectl', '--kubeconfig', kubeconfigPath, ...argv];
  const evict = () => evictPodsOn(core, node, args.pods ?? { namespace: null, matchLabels: {} }, { retryForMs: args.retryForMs ?? 0, onEviction: hooks.onEviction });
  switch (action) {
    case 'label-node':
    case 'unlabel-node': {
      if (!args.label) throw new InputError(`node action ${action} needs a label (key=value)`);
      const { key } = args.label;
      const value = action === 'label-node' ? args.label.value : null;
      const before = await readLabel(core, node, key);
      return {
        restoreCommands: [before === null ? kubectl('label', 'node', node, `${key}-`) : kubectl('label', 'node', node, `${key}=${before}`, '--overwrite')],
        recordFacts: { labelBefore: { key, value: before } },
        act: () => setLabel(core, node, key, value),
        undo: () => setLabel(core, node, key, before),
      };
    }
    case 'evict-pods':
      return { restoreCommands: [], act: async () => void (await evict()), undo: async () => {} };
    case 'drain':
      return {
        restoreCommands: [kubectl('uncordon', node)],
        act: async () => {
          await setUnschedulable(core, node, true);
          await evict();
        },
        undo: () => setUnschedulable(core, node, false),
      };
    case 'taint-out-of-service':
      return {
        restoreCommands: [kubectl(...kubectlUndo(action, node))],
        act: () => editTaints(core, node, 'add out-of-service taint', (ts) => [...ts.filter((t) => t.key !== OUT_OF_SERVICE_TAINT.key), { ...OUT_OF_SERVICE_TAINT }]),
        undo: () => editTaints(core, node, 'remove out-of-service taint', (ts) => ts.filter((t) => t.key !== OUT_OF_SERVICE_TAINT.key)),
      };
    case 'force-delete-pods':
      return { restoreCommands: [], act: async () => void (await forceDeletePodsOn(core, node)), undo: async () => {} };
    case 'cordon':
      return {
        restoreCommands: [kubectl(...kubectlUndo(action, node))],
        act: () => setUnschedulable(core, node, true),
        undo: () => setUnschedulable(core, node, false),
      };
  }
}
