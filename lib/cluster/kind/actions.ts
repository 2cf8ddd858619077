// Node actions on kind node containers through Docker: each returns its undo, handed to the caller's
// beforeAct hook before the container is touched, and records the container IP before and after.
import { actWithUndo, type NodeActionPlan } from '../act-with-undo.js';
import { InputError } from '../../common/errors.js';
import { CommandError } from '../../common/exec.js';
import type { CoreV1Api } from '@kubernetes/client-node';
import { isNodeApiAction, planNodeApiAction } from '../node-api-actions.js';
import type { ActHooks, ActionRecord, NodeAction, Undo } from '../provider.js';
import { assertOwned, containerIP, docker, toClusterNode } from './docker.js';

/** Actions the kind provider supports (`stop-heartbeat` is not one): Docker primitives plus the API-server actions. */
export const DOCKER_NODE_ACTIONS: ReadonlySet<NodeAction> = new Set<NodeAction>([
  'pause', 'stop', 'restart', 'disconnect', 'stop-kubelet', 'restart-kubelet', 'stop-runtime', 'delete-node-object', 'taint-out-of-service', 'force-delete-pods', 'cordon',
]);

/** Where and how Docker node actions run. */
export interface DockerActionContext {
  /** kind cluster name: only containers labelled `io.x-k8s.kind.cluster=<cluster>` are touched. */
  cluster: string;
  /** Docker network of the nodes (`kind`). */
  network: string;
  /** Deletes the Node object from the API server (delete-node-object). @throws InfraError. */
  deleteNodeObject(node: string): Promise<void>;
  /**
   * The cluster's API for taint-out-of-service, force-delete-pods and cordon: a client, and the kubeconfig
   * file named in their kubectl restore commands. Without it those actions are InputErrors.
   */
  nodeApi?: { core(): CoreV1Api; kubeconfigPath: string };
  /** Client clock, Unix epoch milliseconds; default Date.now. */
  now?: () => number;
}

/** Attempts of an undo that may meet a node still booting, and the pause between them (milliseconds). */
const UNDO_ATTEMPTS = 10;
const UNDO_RETRY_DELAY_MS = 2_000;

/** Whether the Node object `node` exists; false without an API client in the context (then the undo acts anyway). */
async function nodeObjectExists(ctx: DockerActionContext, node: string): Promise<boolean> {
  if (!ctx.nodeApi) return false;
  try {
    await ctx.nodeApi.core().readNode({ name: node });
    return true;
  } catch {
    return false;
  }
}

async function isRunning(container: string): Promise<boolean> {
  try {
    return (await docker(['inspect', '--format', '{{.State.Running}}', container])) === 'true';
  } catch {
    return false;
  }
}

/**
 * Reconnects with the old IP. Docker refuses `--ip` on kind's network (its IPv4 subnet is not user-set)
 * and when another container took the address meanwhile; a node must never stay disconnected, so
 * then connect without `--ip` (the new address is recorded in ipAfterUndo).
 */
async function reconnect(network: string, container: string, ip: string | null): Promise<void> {
  if (ip) {
    try {
      await docker(['network', 'connect', '--ip', ip, network, container]);
      return;
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
    }
  }
  // Docker's IPAM hands out the lowest free address, which is the old one unless it was taken meanwhile.
  await docker(['network', 'connect', network, container]);
}

function planFor(ctx: DockerActionContext, c: string, action: NodeAction, ipBefore: string | null): NodeActionPlan {
  const exec = (...args: string[]) => ['docker', 'exec', c, ...args];
  if (isNodeApiAction(action)) {
    if (!ctx.nodeApi) throw new InputError(`node action ${action} needs the cluster's API (DockerActionContext.nodeApi)`);
    return planNodeApiAction(ctx.nodeApi.core(), ctx.nodeApi.kubeconfigPath, c, action);
  }
  switch (action) {
    case 'pause':
      return {
        restoreCommands: [['docker', 'unpause', c]],
        act: async () => void (await docker(['pause', c])),
        undo: async () => {
          if ((await docker(['inspect', '--format', '{{.State.Paused}}', c])) === 'true') await docker(['unpause', c]);
        },
      };
    case 'stop':
      // kind images set STOPSIGNAL SIGRTMIN+3: systemd powers off at once, a non-graceful shutdown for the kubelet.
      return {
        restoreCommands: [['docker', 'start', c]],
        act: async () => void (await docker(['stop', c])),
        undo: async () => {
          if (!(await isRunning(c))) await docker(['start', c]);
        },
      };
    case 'restart':
      return { restoreCommands: [], act: async () => void (await docker(['restart', c])), undo: async () => {} };
    case 'disconnect': {
      const connect: string[] = ipBefore ? ['docker', 'network', 'connect', '--ip', ipBefore, ctx.network, c] : ['docker', 'network', 'connect', ctx.network, c];
      return {
        restoreCommands: [connect],
        act: async () => void (await docker(['network', 'disconnect', ctx.network, c])),
        undo: async () => {
          if ((await containerIP(c, ctx.network)) === null) await reconnect(ctx.network, c, ipBefore);
        },
      };
    }
    case 'stop-kubelet':
      return {
        restoreCommands: [exec('systemctl', 'start', 'kubelet')],
        act: async () => void (await docker(exec('systemctl', 'stop', 'kubelet').slice(1))),
        undo: async () => void (await docker(exec('systemctl', 'start', 'kubelet').slice(1))),
      };
    case 'restart-kubelet':
      // Over when systemctl returns; the kubelet comes back by itself, so there is nothing to undo.
      return { restoreCommands: [], act: async () => void (await docker(exec('systemctl', 'restart', 'kubelet').slice(1))), undo: async () => {} };
    case 'stop-runtime':
      // containerd only: its shims keep the containers running, and the kubelet, still up, reports the runtime down.
      return {
        restoreCommands: [exec('systemctl', 'start', 'containerd')],
        act: async () => void (await docker(exec('systemctl', 'stop', 'containerd').slice(1))),
        undo: async () => void (await docker(exec('systemctl', 'start', 'containerd').slice(1))),
      };
    case 'delete-node-object':
      // The kubelet registers its Node only at start; restarting it re-creates the object. A stopped
      // container needs nothing: starting it starts the kubelet, which registers. Nor does a Node that is
      // back already (a node restarted meanwhile registered itself). Right after `docker start`, systemd may
      // not answer yet: retry.
      return {
        restoreCommands: [exec('systemctl', 'restart', 'kubelet')],
        act: () => ctx.deleteNodeObject(c),
        undo: async () => {
          for (let attempt = 1; ; attempt++) {
            if (!(await isRunning(c)) || (await nodeObjectExists(ctx, c))) return;
            try {
              await docker(exec('systemctl', 'restart', 'kubelet').slice(1));
              return;
            } catch (error) {
              if (attempt >= UNDO_ATTEMPTS) throw error;
              await new Promise((resolve) => setTimeout(resolve, UNDO_RETRY_DELAY_MS));
            }
          }
        },
      };
    default:
      throw new InputError(`node action ${action} is not supported by the kind provider`);
  }
}

/**
 * Applies `action` to the node container `node` of `ctx.cluster` and resolves to its undo (idempotent).
 * The undo and its record go to `hooks.beforeAct` before Docker is called; the record's `ipAfter` and
 * `actedAtMs` are set when the command returned, `ipAfterUndo` and `undoneAtMs` when the undo returned.
 * @throws InputError for an unsupported action or a container not labelled for ctx.cluster;
 *   InfraError (CommandError) when Docker fails.
 */
export async function actOnNodeContainer(ctx: DockerActionContext, node: string, action: NodeAction, hooks: ActHooks = {}): Promise<Undo> {
  if (!DOCKER_NODE_ACTIONS.has(action)) throw new InputError(`node action ${action} is not supported by the kind provider`);
  const now = ctx.now ?? Date.now;
  const inspected = await assertOwned(node, ctx.cluster);
  const ipBefore = toClusterNode(inspected, ctx.network).internalIP;
  const plan = planFor(ctx, node, action, ipBefore);
  const record: ActionRecord = {
    node, action, container: node, ipBefore, ipAfter: null, ipAfterUndo: null,
    restoreCommands: plan.restoreCommands, actedAtMs: null, undoneAtMs: null,
  };
  return actWithUndo(record, plan, hooks, now, {
    afterAct: async (r) => void (r.ipAfter = await containerIP(node, ctx.network).catch(() => null)),
    afterUndo: async (r) => void (r.ipAfterUndo = await containerIP(node, ctx.network).catch(() => null)),
  });
}
