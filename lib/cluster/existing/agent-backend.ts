// The `agent` fault backend: a privileged pod (hostPID, hostNetwork, nsenter into PID 1's namespaces) pinned to the
// target node. Before acting it schedules the undo on the node itself (`systemd-run --on-active=<duration>`), so the
// node heals after the fault's duration even if rebootlab dies, or the fault cuts the node off from the API server
// (a stopped kubelet cannot serve exec; a partition drops the API server's traffic). The action itself also runs as
// a transient systemd unit, so it is not killed with the exec stream it was started from.
import { Exec, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { InfraError, InputError } from '../../common/errors.js';
import { abortableSleep } from '../../common/sleep.js';
import type { FaultBackend } from '../../spec/types.js';
import type { NodeActionPlan } from '../act-with-undo.js';
import { apiError, apiErrorCode, loadKubeConfig } from '../kube-client.js';
import type { NodeAction, PlannedAction } from '../provider.js';
import { PROVIDERS } from '../../spec/providers.js';
import type { ExistingCluster, NodeBackend } from './cluster.js';
import { MANAGED_BY, REBOOTLAB_NAMESPACE } from './labels.js';
import { AGENT_LABEL } from '../agent-label.js';
import { apiPartitionScript, apiServerEndpoints, API_PARTITION_UNDO, parseHostAddresses, type ApiEndpoint } from '../api-partition.js';

export { AGENT_LABEL } from '../agent-label.js';
export { parseHostAddresses } from '../api-partition.js';

/** How long the agent's command (two systemd-run calls) may take to answer through exec, milliseconds. */
const EXEC_TIMEOUT_MS = 60_000;
/** How long an agent pod may take to run (image pull included), milliseconds. */
const AGENT_START_TIMEOUT_MS = 120_000;
/** Name of the transient systemd units on the node; the undo unit's name lets a second undo find and stop it. */
const UNIT_PREFIX = 'rebootlab';
/** The iptables chain a network partition puts its DROP rules in, jumped to from INPUT and OUTPUT. */
export const PARTITION_CHAIN = 'REBOOTLAB-PARTITION';

/** The node actions the agent does. */
export const AGENT_NODE_ACTIONS: ReadonlySet<NodeAction> = new Set<NodeAction>(PROVIDERS.existing.backends.agent);

/** Shell-quotes one word for `sh -c` on the node. */
const q = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The host shell commands of `action`: `act` (run once), `undo` (scheduled on the node, or null for an instant
 * action). `peers` are the addresses a partition cuts the node off from: the API server endpoints and the other nodes,
 * IPv4 (iptables) and IPv6 (ip6tables, a chain of the same name, only when there is an IPv6 peer). `endpoints` are
 * the API server endpoints a control-plane partition (`partition-api-server`, ../api-partition.ts) cuts off.
 */
export function agentCommands(action: NodeAction, peers: readonly string[], endpoints: readonly ApiEndpoint[] = []): { act: string; undo: string | null } {
  switch (action) {
    case 'stop-kubelet':
      return { act: 'systemctl stop kubelet', undo: 'systemctl start kubelet' };
    case 'restart-kubelet':
      return { act: 'systemctl restart kubelet', undo: null };
    case 'stop-runtime':
      return { act: 'systemctl stop containerd', undo: 'systemctl start containerd' };
    case 'restart':
      return { act: 'systemctl reboot', undo: null };
    case 'partition-api-server':
      return { act: apiPartitionScript(endpoints), undo: API_PARTITION_UNDO };
    case 'disconnect': {
      const families = [{ tool: 'iptables', ips: peers.filter((ip) => !ip.includes(':')) }, { tool: 'ip6tables', ips: peers.filter((ip) => ip.includes(':')) }]
        .filter((f, i) => i === 0 || f.ips.length > 0);
      const undo = [...families.flatMap(({ tool }) => [`${tool} -D INPUT -j ${PARTITION_CHAIN}`, `${tool} -D OUTPUT -j ${PARTITION_CHAIN}`, `${tool} -F ${PARTITION_CHAIN}`, `${tool} -X ${PARTITION_CHAIN}`]), 'true'].join('; ');
      const act = families.flatMap(({ tool, ips }) => [
        `${tool} -N ${PARTITION_CHAIN}`,
        ...ips.flatMap((ip) => [`${tool} -A ${PARTITION_CHAIN} -s ${ip} -j DROP`, `${tool} -A ${PARTITION_CHAIN} -d ${ip} -j DROP`]),
        `${tool} -I INPUT -j ${PARTITION_CHAIN}`, `${tool} -I OUTPUT -j ${PARTITION_CHAIN}`,
      ]);
      // Start from a clean chain (a partition left by a killed run is healed by its own timer, but be idempotent).
      return { act: [undo, ...act].join(' && '), undo };
    }
    default:
      throw new InputError(`fault.backend agent cannot do ${action}; it does ${[...AGENT_NODE_ACTIONS].join(', ')}`);
  }
}

/**
 * Seconds between the agent's command returning and the action, so the exec's answer travels back through the
 * kubelet and the network before the action stops the one or cuts the other.
 */
export const ACT_DELAY_SECONDS = 1;

/**
 * How late the node-side undo timer may fire. systemd coalesces timer wake-ups within `AccuracySec=`, default 1 min
 * (systemd.timer(5)), at a per-machine offset inside that window: without this, a partition healed 0 to 60 s after
 * its duration (measured on kind: 8 s in one run, more than 30 s in another). 100 ms keeps the heal on time.
 */
export const UNDO_TIMER_ACCURACY = '100ms';

/**
 * The script the agent runs on the node through `nsenter -t 1 -m -u -i -n -p`: schedule the undo first
 * (`systemd-run --on-active=<heal + delay>s`, accurate to {@link UNDO_TIMER_ACCURACY}), then start the action as a
 * transient unit that waits {@link ACT_DELAY_SECONDS} (the script returns at once).
 */
export function agentScript(unit: string, commands: { act: string; undo: string | null }, healAfterSeconds: number | null): string {
  const lines: string[] = [];
  if (commands.undo !== null) {
    if (healAfterSeconds === null) throw new InputError('fault.duration is required for an agent fault that has an undo');
    const onActive = Math.max(1, Math.ceil(healAfterSeconds)) + ACT_DELAY_SECONDS;
    lines.push(`systemd-run --unit ${unit}-undo --on-active=${onActive}s --timer-property=AccuracySec=${UNDO_TIMER_ACCURACY} sh -c ${q(commands.undo)}`);
  }
  lines.push(`systemd-run --unit ${unit}-act sh -c ${q(`sleep ${ACT_DELAY_SECONDS}; ${commands.act}`)}`);
  return lines.join(' && ');
}

/**
 * What the agent does on `{node}` for `action` and how the node heals (`rebootlab plan`): the commands of
 * {@link agentCommands}, a partition's peers shown as `{peer}` (the API server endpoints and the other nodes).
 * @throws InputError for an action the agent cannot do.
 */
export function describeAgentAction(action: NodeAction): PlannedAction {
  const commands = agentCommands(action, ['{peer}']);
  return {
    act: `agent pod on {node}: ${commands.act}`,
    undo: commands.undo === null ? null : `${commands.undo} (scheduled on the node itself with systemd-run, fires after the duration; also run by the guard)`,
  };
}

/** The agent pod on `node`: privileged, host PID and network, tolerating every taint, never restarted. */
export function renderAgentPod(name: string, node: string, image: string): V1Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: REBOOTLAB_NAMESPACE, labels: { [MANAGED_BY.key]: MANAGED_BY.value, [AGENT_LABEL]: node } },
    spec: {
      nodeName: node, hostPID: true, hostNetwork: true, restartPolicy: 'Never', terminationGracePeriodSeconds: 0,
      tolerations: [{ operator: 'Exists' }],
      containers: [{
        name: 'agent', image, imagePullPolicy: 'IfNotPresent', command: ['sleep', 'infinity'],
        securityContext: { privileged: true },
      }],
    },
  };
}

/**
 * The agent backend of `cluster`. `backend.healAfterMs` (the fault's duration) is when the node-side undo fires.
 * The live undo (the fault guard's) cannot reach a node whose kubelet is stopped or which is cut off, so it waits
 * until the scheduled undo fired; every undo is therefore at most `duration` late, never lost.
 */
export function createAgentBackend(backend: Extract<FaultBackend, { kind: 'agent' }>, cluster: ExistingCluster): NodeBackend {
  return {
    actions: AGENT_NODE_ACTIONS,
    async plan(node: V1Node, action: NodeAction): Promise<NodeActionPlan> {
      const name = node.metadata!.name!;
      const peers = action === 'disconnect' ? await partitionPeers(cluster, name) : null;
      // A control-plane partition cuts the API server endpoints only (default/kubernetes; a kubelet that reaches the
      // API server through another address, e.g. a load balancer, is not cut off by it).
      const endpoints = action === 'partition-api-server' ? await apiServerEndpoints(cluster.core) : [];
      const commands = agentCommands(action, peers?.addresses ?? [], endpoints);
      const healAfterMs = backend.healAfterMs;
      const unit = `${UNIT_PREFIX}-${action}-${Date.now().toString(36)}`;
      let healsAtMs: number | null = null;
      return {
        // Nothing to run by hand: the node heals itself when the scheduled unit fires.
        restoreCommands: [],
        act: async () => {
          const pod = await startAgentPod(cluster, name, backend.image);
          // The node reaches its peers by name as well (a kubelet's kubeconfig names the API server's host), and a
          // name may resolve to an IPv6 address the Node objects do not list (kind's Docker network is dual-stack):
          // resolve the names on the node, so the partition drops those addresses too.
          const resolved = peers && peers.names.length > 0 ? parseHostAddresses(await execOnNode(cluster, pod, `getent ahosts ${peers.names.join(' ')}; true`)) : [];
          const all = [...new Set([...(peers?.addresses ?? []), ...resolved])].filter((ip) => ip !== peers?.self);
          const script = agentScript(unit, peers ? agentCommands(action, all) : commands, healAfterMs === null ? null : healAfterMs / 1000);
          await execOnNode(cluster, pod, script);
          healsAtMs = Date.now() + (healAfterMs ?? 0) + ACT_DELAY_SECONDS * 1000;
        },
        undo: async () => {
          if (commands.undo === null || healsAtMs === null) return;
          await abortableSleep(Math.max(0, healsAtMs - Date.now()));
        },
      };
    },
  };
}

/**
 * What a partition of `node` cuts it off from: `addresses`, the InternalIPs of every other node and the API server's
 * endpoints (default/kubernetes); `names`, the other nodes' names, resolved on the node itself; `self`, its own
 * InternalIP (never dropped).
 */
async function partitionPeers(cluster: ExistingCluster, node: string): Promise<{ addresses: string[]; names: string[]; self: string | null }> {
  const nodes = await cluster.nodes();
  const ips = new Set(nodes.filter((n) => n.name !== node && n.internalIP !== null).map((n) => n.internalIP!));
  try {
    const endpoints = await cluster.core.readNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' });
    for (const subset of endpoints.subsets ?? []) for (const a of subset.addresses ?? []) ips.add(a.ip);
  } catch (error) {
    throw apiError('read the API server endpoints (default/kubernetes)', error);
  }
  const self = nodes.find((n) => n.name === node)?.internalIP ?? null;
  if (self) ips.delete(self);
  if (ips.size === 0) throw new InfraError(`network-partition of ${node}: no other node or API server address to cut it off from`);
  return { addresses: [...ips].sort(), names: nodes.map((n) => n.name).filter((n) => n !== node && /^[a-z0-9.-]+$/.test(n)).sort(), self };
}

/** Creates the agent pod on `node` and waits until its container runs. @throws InfraError. */
async function startAgentPod(cluster: ExistingCluster, node: string, image: string): Promise<string> {
  const name = `rebootlab-agent-${node}`.slice(0, 63).replace(/[^a-z0-9-]/g, '-').replace(/-+$/, '');
  const core = cluster.core;
  try {
    await core.deleteNamespacedPod({ name, namespace: REBOOTLAB_NAMESPACE, gracePeriodSeconds: 0 });
    for (let i = 0; i < 60; i++) {
      await core.readNamespacedPod({ name, namespace: REBOOTLAB_NAMESPACE });
      await abortableSleep(500);
    }
  } catch (error) {
    if (apiErrorCode(error) !== 404) throw apiError(`delete old agent pod ${name}`, error);
  }
  try {
    await core.createNamespacedPod({ namespace: REBOOTLAB_NAMESPACE, body: renderAgentPod(name, node, image) });
  } catch (error) {
    throw apiError(`create agent pod ${name} on ${node}`, error);
  }
  const deadline = Date.now() + AGENT_START_TIMEOUT_MS;
  for (;;) {
    const pod = await core.readNamespacedPod({ name, namespace: REBOOTLAB_NAMESPACE }).catch((error: unknown) => {
      throw apiError(`read agent pod ${name}`, error);
    });
    if (pod.status?.containerStatuses?.[0]?.state?.running) return name;
    const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting;
    if (Date.now() > deadline || pod.status?.phase === 'Failed') {
      throw new InfraError(`agent pod ${name} on ${node} did not start: ${waiting ? `${waiting.reason}: ${waiting.message ?? ''}` : pod.status?.phase ?? 'unknown'}`, 'Set fault.backend.agent.image to an image the node can pull, with nsenter');
    }
    await abortableSleep(250);
  }
}

/** Runs `script` on the node of agent pod `pod` through nsenter into PID 1; resolves to its stdout. @throws InfraError with its stderr. */
async function execOnNode(cluster: ExistingCluster, pod: string, script: string): Promise<string> {
  const kc = loadKubeConfig(cluster.kubeconfigPath);
  let stderr = '';
  let stdout = '';
  const sink = (append: (text: string) => void) => new Writable({ write(chunk, _encoding, done) { append(String(chunk)); done(); } });
  const command = ['nsenter', '-t', '1', '-m', '-u', '-i', '-n', '-p', '--', 'sh', '-c', script];
  await new Promise<void>((resolve, reject) => {
    // A stream that closes without a status would otherwise leave the fault hanging before it started.
    const timer = setTimeout(() => reject(new InfraError(`agent on pod ${pod}: no answer from exec within ${EXEC_TIMEOUT_MS} ms`)), EXEC_TIMEOUT_MS);
    const settle = (fn: () => void) => () => (clearTimeout(timer), fn());
    new Exec(kc)
      .exec(REBOOTLAB_NAMESPACE, pod, 'agent', command, sink((t) => (stdout += t)), sink((t) => (stderr += t)), null, false, (status) => {
        if (status.status === 'Success') settle(resolve)();
        else settle(() => reject(new InfraError(`agent on pod ${pod}: ${script.slice(0, 80)}... failed: ${(stderr.trim().split('\n').pop() ?? '') || status.message || 'unknown error'}`)))();
      })
      .catch((error: unknown) => settle(() => reject(apiError(`exec in agent pod ${pod}`, error)))());
  });
  return stdout;
}
