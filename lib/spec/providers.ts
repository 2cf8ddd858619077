// What each provider can do to a node, known before any cluster exists (kind's Provider.Info()): the node action
// vocabulary, each provider's own actions and those each fault backend adds. Validation, injection and
// `rebootlab plan` read it; each provider's clusters advertise exactly these (lib/cluster/<provider>/).

/**
 * A reversible primitive on one node. Through Docker (kind): `pause` = `docker pause` (cgroup freezer),
 * `stop` = `docker stop` (systemd receives SIGRTMIN+3 and powers off without asking logind: a NON-graceful
 * shutdown for the kubelet, whatever inhibitor it holds), `restart` = `docker restart`, `disconnect` = leave
 * the cluster's Docker network, `partition-api-server` = drop only the traffic between the node and the API server
 * endpoints inside the node's network namespace (lib/cluster/api-partition.ts; node-to-node traffic intact),
 * `stop-kubelet` = `systemctl stop kubelet`, `restart-kubelet` = `systemctl restart kubelet`, `stop-runtime` =
 * `systemctl stop containerd`, `shutdown` = `systemctl poweroff` inside the node (a GRACEFUL shutdown: logind honours the
 * kubelet's delay inhibitor lock, taken when shutdownGracePeriod > 0 and logind runs; over when the container
 * stopped; undo `docker start`). On simulated nodes (kwok): `stop-heartbeat` = stop Lease
 * and status renewals only. `delete-node-object` = delete the Node from the API server. Through the API server on
 * every provider (lib/cluster/node-api-actions.ts): `taint-out-of-service` = add
 * `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` (undo removes it), `force-delete-pods` = delete
 * every pod bound to the node with grace period 0 (no undo), `cordon` = mark it unschedulable (undo uncordons),
 * `label-node` / `unlabel-node` = set / remove one label (undo puts back the value it had), `evict-pods` = the Eviction
 * API for the pods on the node (honours PodDisruptionBudgets; no undo), `drain` = cordon + evict-pods (undo uncordons).
 * The last four take arguments (lib/cluster/provider.ts NodeActionArgs).
 */
export const NODE_ACTIONS = [
  'pause', 'stop', 'restart', 'disconnect', 'partition-api-server', 'stop-kubelet', 'restart-kubelet', 'stop-runtime', 'stop-heartbeat',
  'delete-node-object', 'shutdown', 'taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain',
] as const;

/** One of {@link NODE_ACTIONS}. */
export type NodeAction = (typeof NODE_ACTIONS)[number];

/** The node actions done through the API server alone, the same on every provider. */
export const NODE_API_ACTIONS = ['taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain'] as const satisfies readonly NodeAction[];

/** A fault backend of provider existing: a privileged pod on the node, or the user's own power commands. */
export type BackendName = 'agent' | 'command';

/** What a provider can do, before any cluster exists. */
export interface ProviderCapabilities {
  /** Node actions its clusters do themselves, in the order messages list them. */
  readonly nodeActions: readonly NodeAction[];
  /** Node actions each fault backend (`fault.backend`) adds; absent when the provider acts on its nodes itself. */
  readonly backends?: Readonly<Record<BackendName, readonly NodeAction[]>>;
  /**
   * The validation message for a fault type none of whose primitives it can do, given the types it can
   * (lib/spec/faults.ts); absent: the generic one.
   */
  cannotInject?(type: string, injectable: readonly string[]): string;
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Every provider's capabilities, by name. */
export const PROVIDERS = {
  kind: {
    nodeActions: [
      'pause', 'stop', 'restart', 'disconnect', 'partition-api-server', 'stop-kubelet', 'restart-kubelet', 'stop-runtime', 'delete-node-object',
      'shutdown', 'taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain',
    ],
  },
  kwok: {
    // No machine, kubelet or runtime: whatever silences a node is heartbeat loss, as the control plane sees it.
    nodeActions: ['stop-heartbeat', 'delete-node-object', 'taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain'],
    cannotInject: (type: string, injectable: readonly string[]) => `${type} cannot be simulated with provider kwok; use ${orList(injectable)} (all become heartbeat loss)`,
  },
  existing: {
    nodeActions: ['taint-out-of-service', 'force-delete-pods', 'cordon', 'label-node', 'unlabel-node', 'evict-pods', 'drain', 'delete-node-object'],
    // command powers a machine off and on; agent acts inside the node: systemd units, iptables, reboot.
    backends: { agent: ['stop-kubelet', 'restart-kubelet', 'stop-runtime', 'disconnect', 'partition-api-server', 'restart'], command: ['stop'] },
  },
} as const satisfies Record<string, ProviderCapabilities>;

/** A provider: `kind` (Docker containers as nodes), `kwok` (simulated nodes), `existing` (a cluster you run). */
export type ProviderName = keyof typeof PROVIDERS;

/** The node actions of `provider`'s clusters with `backend` (`provider` or absent: the provider's own only). */
export function providerActions(provider: ProviderName, backend?: BackendName | 'provider'): readonly NodeAction[] {
  const capabilities: ProviderCapabilities = PROVIDERS[provider];
  const added = backend === undefined || backend === 'provider' ? [] : (capabilities.backends?.[backend] ?? []);
  return [...capabilities.nodeActions, ...added];
}
