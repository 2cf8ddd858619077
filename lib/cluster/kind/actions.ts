// Node actions on kind node containers through Docker: each returns its undo, handed to the caller's
// beforeAct hook before the container is touched, and records the container IP before and after.
import { actWithUndo, type NodeActionPlan } from '../act-with-undo.js';
import { InfraError, InputError } from '../../common/errors.js';
import { CommandError } from '../../common/exec.js';
import type { CoreV1Api } from '@kubernetes/client-node';
import { apiPartitionScript, apiServerEndpoints, API_PARTITION_UNDO, kubeconfigServer, parseHostAddresses } from '../api-partition.js';
import { describeNodeApiAction, isNodeApiAction, planNodeApiAction, type NodeApiAction } from '../node-api-actions.js';
import type { ActHooks, ActionRecord, NodeAction, NodeActionArgs, PlannedAction, Undo } from '../provider.js';
import { PROVIDERS } from '../../spec/providers.js';
import { assertOwned, containerIP, docker, KIND_NETWORK, toClusterNode } from './docker.js';
import { RESTART_POLICY_FORMAT, restartPolicyCommand, restartPolicyValue } from './restart-policy.js';

/** Actions the kind provider supports (lib/spec/providers.ts): Docker primitives plus the API-server actions. */
export const DOCKER_NODE_ACTIONS: ReadonlySet<NodeAction> = new Set<NodeAction>(PROVIDERS.kind.nodeActions);

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

/**
 * How long a graceful shutdown may take before the container stops: logind delays the poweroff for the kubelet's
 * inhibitor lock up to InhibitDelayMaxSec, which the kubelet sets to its shutdownGracePeriod (at most a few minutes in
 * an experiment), then systemd stops the units. Polled every SHUTDOWN_POLL_MS.
 */
const SHUTDOWN_TIMEOUT_MS = 10 * 60_000;
const SHUTDOWN_POLL_MS = 200;

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

/** A command line of a Docker node action: what it runs, and the one that undoes it by hand (null: nothing to undo). */
interface DockerCommands {
  act: string[] | null;
  undo: string[] | null;
}

/**
 * The command lines of each node action the kind provider does through Docker, on container `c` of `network` with
 * address `ipBefore`: the ones planFor runs and registers as restore commands, and the ones `rebootlab plan` prints.
 * `delete-node-object` acts through the API server (act null) and is undone by restarting the kubelet, which
 * registers its Node again; `partition-api-server` reads the API server's endpoints first (act null: its script is
 * lib/cluster/api-partition.ts apiPartitionScript of them).
 */
function dockerCommands(c: string, network: string, ipBefore: string | null): Record<Exclude<NodeAction, 'stop-heartbeat' | NodeApiAction>, DockerCommands> {
  const exec = (...args: string[]) => ['docker', 'exec', c, ...args];
  return {
    pause: { act: ['docker', 'pause', c], undo: ['docker', 'unpause', c] },
    // kind images set STOPSIGNAL SIGRTMIN+3: systemd powers off at once, a non-graceful shutdown for the kubelet.
    stop: { act: ['docker', 'stop', c], undo: ['docker', 'start', c] },
    restart: { act: ['docker', 'restart', c], undo: null },
    disconnect: {
      act: ['docker', 'network', 'disconnect', network, c],
      undo: ipBefore ? ['docker', 'network', 'connect', '--ip', ipBefore, network, c] : ['docker', 'network', 'connect', network, c],
    },
    'partition-api-server': { act: null, undo: exec('sh', '-c', API_PARTITION_UNDO) },
    'stop-kubelet': { act: exec('systemctl', 'stop', 'kubelet'), undo: exec('systemctl', 'start', 'kubelet') },
    // Over when systemctl returns; the kubelet comes back by itself, so there is nothing to undo.
    'restart-kubelet': { act: exec('systemctl', 'restart', 'kubelet'), undo: null },
    // containerd only: its shims keep the containers running, and the kubelet, still up, reports the runtime down.
    'stop-runtime': { act: exec('systemctl', 'stop', 'containerd'), undo: exec('systemctl', 'start', 'containerd') },
    'delete-node-object': { act: null, undo: exec('systemctl', 'restart', 'kubelet') },
    // A graceful shutdown: logind delays it for the kubelet's inhibitor lock (shutdownGracePeriod); over when the container stopped.
    shutdown: { act: exec('systemctl', 'poweroff'), undo: ['docker', 'start', c] },
  };
}

/**
 * The restore commands of the shutdown action on container `c` (written to pending-restore.json before the poweroff,
 * replayed in order by doctor --restore after a kill -9): `docker update --restart=<policy> c` when the action turns
 * the node's restart policy `policy` (a lib/cluster/kind/restart-policy.ts RESTART_POLICY value, e.g. `on-failure:1`)
 * off, then `docker start c`. The policy goes back first, as in the live undo: the node never runs again under
 * policy no, and a poweroff still under way when the restore runs ends under the old policy. `policy` null (the node
 * had none): `docker start c` only. Never throws.
 */
export function shutdownRestoreCommands(c: string, policy: string | null): string[][] {
  const start = ['docker', 'start', c];
  return policy === null ? [start] : [restartPolicyCommand(c, policy), start];
}

/**
 * What `action` on a node of a kind cluster runs and how it is undone (`rebootlab plan`), `{node}` for the node and
 * `{IP before}` for its address: the command lines of {@link dockerCommands}, or those of the API-server actions.
 * @throws InputError for an action the kind provider does not support.
 */
/**
 * `argv` as one shell line: words with anything but plain characters single-quoted (a `sh -c` script reads as one
 * word); a placeholder such as `{IP before}` stays as it is.
 */
function shellLine(argv: readonly string[]): string {
  return argv.map((w) => (/^([A-Za-z0-9_./:=@{}+-]+|\{[^{}']*\})$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function describeDockerAction(action: NodeAction, kubeconfigPath: string, network = KIND_NETWORK): PlannedAction {
  if (!DOCKER_NODE_ACTIONS.has(action)) throw new InputError(`node action ${action} is not supported by the kind provider`);
  if (isNodeApiAction(action)) return describeNodeApiAction(action, '{node}', kubeconfigPath);
  const commands = dockerCommands('{node}', network, '{IP before}')[action as keyof ReturnType<typeof dockerCommands>];
  if (action === 'shutdown') {
    // The policy is read from the node when the fault is injected (planFor); kind creates its nodes with on-failure:1.
    return {
      act: `docker update --restart=no {node} (if it has a restart policy, read first as {policy}); ${shellLine(commands.act!)}; over when the container has stopped`,
      undo: `docker update --restart={policy} {node} (if it had one); ${shellLine(commands.undo!)} (unless it runs)`,
    };
  }
  return {
    act: commands.act ? shellLine(commands.act)
      : action === 'partition-api-server' ? 'docker exec {node} iptables/ip6tables: drop TCP between {node} and the API server endpoints (and the API server to the kubelet port); node-to-node traffic flows'
      : 'delete the Node object {node} through the API server',
    undo: commands.undo ? `${shellLine(commands.undo)}${action === 'delete-node-object' ? ' (unless the node is stopped or registered again)' : ''}` : null,
  };
}

async function planFor(ctx: DockerActionContext, c: string, action: NodeAction, ipBefore: string | null, args: NodeActionArgs, hooks: ActHooks): Promise<NodeActionPlan> {
  const commands = dockerCommands(c, ctx.network, ipBefore);
  /** Runs `command` (a `docker …` line of dockerCommands) through docker(). */
  const runDocker = async (command: string[] | null) => void (await docker(command!.slice(1)));
  if (isNodeApiAction(action)) {
    if (!ctx.nodeApi) throw new InputError(`node action ${action} needs the cluster's API (DockerActionContext.nodeApi)`);
    return planNodeApiAction(ctx.nodeApi.core(), ctx.nodeApi.kubeconfigPath, c, action, args, hooks);
  }
  switch (action) {
    case 'pause':
      return {
        restoreCommands: [commands.pause.undo!],
        act: () => runDocker(commands.pause.act),
        undo: async () => {
          if ((await docker(['inspect', '--format', '{{.State.Paused}}', c])) === 'true') await runDocker(commands.pause.undo);
        },
      };
    case 'stop':
      return {
        restoreCommands: [commands.stop.undo!],
        act: () => runDocker(commands.stop.act),
        undo: async () => {
          if (!(await isRunning(c))) await runDocker(commands.stop.undo);
        },
      };
    case 'restart':
      return { restoreCommands: [], act: () => runDocker(commands.restart.act), undo: async () => {} };
    case 'disconnect':
      return {
        restoreCommands: [commands.disconnect.undo!],
        act: () => runDocker(commands.disconnect.act),
        undo: async () => {
          if ((await containerIP(c, ctx.network)) === null) await reconnect(ctx.network, c, ipBefore);
        },
      };
    case 'partition-api-server': {
      if (!ctx.nodeApi) throw new InputError(`node action ${action} needs the cluster's API (DockerActionContext.nodeApi)`);
      const core = ctx.nodeApi.core();
      return {
        restoreCommands: [commands[action].undo!],
        act: async () => {
          // The endpoints the API lists, and the host the kubelet's kubeconfig names, resolved on the node: kind's
          // network is dual-stack, so the kubelet may reach the control plane over IPv6 as well.
          const endpoints = await apiServerEndpoints(core);
          const server = kubeconfigServer(await docker(['exec', c, 'cat', '/etc/kubernetes/kubelet.conf']).catch(() => ''));
          if (server && /^[A-Za-z0-9.:-]+$/.test(server.host)) {
            const resolved = parseHostAddresses(await docker(['exec', c, 'getent', 'ahosts', server.host]).catch(() => ''));
            endpoints.push(...resolved.map((ip) => ({ ip, port: server.port })));
          }
          await docker(['exec', c, 'sh', '-c', apiPartitionScript(endpoints)]);
        },
        undo: () => runDocker(commands[action].undo),
      };
    }
    case 'stop-kubelet':
    case 'stop-runtime':
      return {
        restoreCommands: [commands[action].undo!],
        act: () => runDocker(commands[action].act),
        undo: () => runDocker(commands[action].undo),
      };
    case 'restart-kubelet':
      return { restoreCommands: [], act: () => runDocker(commands['restart-kubelet'].act), undo: async () => {} };
    case 'shutdown': {
      // `systemctl poweroff` asks logind, which waits for delay inhibitors (the kubelet's) before systemd powers off.
      // kind runs its nodes with restart policy on-failure:1 and the poweroff exits 130 (measured): Docker would start
      // the node again at once, so the policy is set to no while the fault lasts and put back by the undo. The policy
      // is read here, before the restore commands are handed to beforeAct, so that pending-restore.json carries its
      // undo too (shutdownRestoreCommands): after a kill -9, doctor --restore puts it back and starts the node. The exec
      // may return at once or be cut when the container stops: either way the action is over when Docker reports the
      // container stopped (or restarted: its StartedAt changed). Undone like stop: `docker start` unless it runs.
      const [name = '', retries = '', startedAt] = (await docker(['inspect', '--format', `${RESTART_POLICY_FORMAT} {{.State.StartedAt}}`, c])).split(' ');
      const read = restartPolicyValue(name, retries);
      if ('error' in read) throw new InfraError(`node ${c}: ${read.error}; shutdown not injected (Docker would start the node again at once)`);
      const { policy } = read;
      return {
        restoreCommands: shutdownRestoreCommands(c, policy),
        act: async () => {
          if (policy !== null) await docker(['update', '--restart=no', c]);
          try {
            await runDocker(commands.shutdown.act);
          } catch (error) {
            if (!(error instanceof CommandError) || (await isRunning(c))) throw error;
          }
          const deadline = Date.now() + SHUTDOWN_TIMEOUT_MS;
          const started = async () => (await docker(['inspect', '--format', '{{.State.StartedAt}}', c]).catch(() => startedAt));
          while ((await isRunning(c)) && (await started()) === startedAt) {
            if (Date.now() > deadline) throw new InfraError(`node ${c} still runs ${SHUTDOWN_TIMEOUT_MS / 1000} s after systemctl poweroff`, 'Run: rebootlab doctor --restore');
            await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_POLL_MS));
          }
        },
        undo: async () => {
          // Putting back the policy read before the act is harmless when the act failed before changing it.
          if (policy !== null) await runDocker(restartPolicyCommand(c, policy));
          if (!(await isRunning(c))) await runDocker(commands.shutdown.undo);
        },
      };
    }
    case 'delete-node-object':
      // The kubelet registers its Node only at start; restarting it re-creates the object. A stopped
      // container needs nothing: starting it starts the kubelet, which registers. Nor does a Node that is
      // back already (a node restarted meanwhile registered itself). Right after `docker start`, systemd may
      // not answer yet: retry.
      return {
        restoreCommands: [commands['delete-node-object'].undo!],
        act: () => ctx.deleteNodeObject(c),
        undo: async () => {
          for (let attempt = 1; ; attempt++) {
            if (!(await isRunning(c)) || (await nodeObjectExists(ctx, c))) return;
            try {
              await runDocker(commands['delete-node-object'].undo);
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
 * Applies `action` (with `args`, see NodeActionArgs) to the node container `node` of `ctx.cluster` and resolves to its undo (idempotent).
 * The undo and its record go to `hooks.beforeAct` before Docker is called; the record's `ipAfter` and
 * `actedAtMs` are set when the command returned, `ipAfterUndo` and `undoneAtMs` when the undo returned.
 * @throws InputError for an unsupported action or a container not labelled for ctx.cluster;
 *   InfraError (CommandError) when Docker fails; InfraError, before the node is touched, for `shutdown` on a node whose
 *   Docker restart policy is not one its restore command could put back (lib/cluster/kind/restart-policy.ts).
 */
export async function actOnNodeContainer(ctx: DockerActionContext, node: string, action: NodeAction, hooks: ActHooks = {}, args: NodeActionArgs = {}): Promise<Undo> {
  if (!DOCKER_NODE_ACTIONS.has(action)) throw new InputError(`node action ${action} is not supported by the kind provider`);
  const now = ctx.now ?? Date.now;
  const inspected = await assertOwned(node, ctx.cluster);
  const ipBefore = toClusterNode(inspected, ctx.network).internalIP;
  const plan = await planFor(ctx, node, action, ipBefore, args, hooks);
  const record: ActionRecord = {
    node, action, container: node, ipBefore, ipAfter: null, ipAfterUndo: null,
    restoreCommands: plan.restoreCommands, actedAtMs: null, undoneAtMs: null,
  };
  return actWithUndo(record, plan, hooks, now, {
    afterAct: async (r) => void (r.ipAfter = await containerIP(node, ctx.network).catch(() => null)),
    afterUndo: async (r) => void (r.ipAfterUndo = await containerIP(node, ctx.network).catch(() => null)),
  });
}
