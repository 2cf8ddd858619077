// The cluster provider interface (STYLE §3, after kind's providers.Provider): how a run gets a cluster
// and acts on its nodes. Implementations live in lib/cluster/<provider>/.
import type { NodeAction } from '../spec/providers.js';
import type { ClusterSpec, FaultBackend, ProviderName } from '../spec/types.js';
import type { TimeoutSettings } from '../spec/settings.js';

/** A reversible primitive on one node; the vocabulary and each provider's share of it are in lib/spec/providers.ts. */
export type { NodeAction, ProviderName };

/** What a node action runs and how it is undone, as a person reads it (`rebootlab plan`); `undo` null when there is nothing to undo. */
export interface PlannedAction {
  act: string;
  undo: string | null;
}

/** Which pods on a node `evict-pods` and `drain` ask the Eviction API to evict. */
export interface PodSelection {
  /** Only pods of this namespace; null = every namespace. */
  namespace: string | null;
  /** Only pods carrying every one of these labels (equality-based); empty = every pod. */
  matchLabels: Record<string, string>;
}

/** Arguments of the node actions that take some; the others ignore them. */
export interface NodeActionArgs {
  /** `label-node`: the label to set (value may be ""); `unlabel-node`: the key to remove (`value` ignored). */
  label?: { key: string; value: string };
  /** `evict-pods` / `drain`: which pods; default every pod on the node (DaemonSet, mirror, finished and agent pods are never evicted). */
  pods?: PodSelection;
  /**
   * `evict-pods` / `drain`: how long an eviction a PodDisruptionBudget refuses (HTTP 429) is retried, milliseconds;
   * 0 = one attempt. A refusal that outlasts it is journaled and reported, not an error.
   */
  retryForMs?: number;
}

/** What one `evict-pods` / `drain` found for one pod, journaled as an `eviction` phase (the same from YAML steps and scripts). */
export interface EvictionAttempt {
  node: string;
  namespace: string;
  pod: string;
  uid: string;
  /**
   * `evicted`: the Eviction API accepted it (HTTP 201); `refused`: it answered 429 to every attempt (a
   * PodDisruptionBudget allowed no disruption) until the retry time ran out; `gone`: the pod no longer existed (404).
   */
  outcome: 'evicted' | 'refused' | 'gone';
  /** Eviction requests sent for this pod. */
  attempts: number;
  /** Of those, refused with HTTP 429. */
  refusals: number;
  /** First and last request sent: Unix epoch milliseconds, client clock. */
  firstAttemptAtMs: number;
  lastAttemptAtMs: number;
  /** The API server's message of the last refusal (e.g. `Cannot evict pod as it would violate the pod's disruption budget.`), or null. */
  message: string | null;
  /** False for the record of a first refusal, written while the attempts go on; true once the outcome is final. */
  final: boolean;
}

/** Undoes one applied NodeAction. Idempotent: a second call does nothing. @throws InfraError if restoring fails. */
export type Undo = (() => Promise<void>) & {
  /** What was done and what the undo will do; filled in while acting and undoing. */
  readonly record?: ActionRecord;
};

/** A command line that restores one node by hand, e.g. `['docker', 'unpause', 'kind-worker']`. */
export type RestoreCommand = readonly string[];

/** Facts about one applied NodeAction, for the journal. IPs are the node container's address on the cluster network. */
export interface ActionRecord {
  node: string;
  action: NodeAction;
  /** Docker container of the node (kind: the node name). */
  container: string;
  /** Container IP before acting; null when it had none (stopped, disconnected). */
  ipBefore: string | null;
  /** Container IP right after the action returned; null when it has none. */
  ipAfter: string | null;
  /** Container IP right after the undo returned; null until undone or when it has none. */
  ipAfterUndo: string | null;
  /** Commands that restore the node by hand if this process dies before undoing (pending-restore.json). */
  restoreCommands: RestoreCommand[];
  /** Client clock when the action's command returned: Unix epoch, milliseconds. */
  actedAtMs: number | null;
  /** Client clock when the undo's command returned: Unix epoch, milliseconds. */
  undoneAtMs: number | null;
  /** `label-node` / `unlabel-node`: the label's value before acting (null: absent), which the undo puts back. */
  labelBefore?: { key: string; value: string | null };
}

/** Hooks into {@link Cluster.act}. */
export interface ActHooks {
  /**
   * Called after the undo is known and BEFORE the node is touched, so a caller can register it with
   * the fault guard (and write pending-restore.json). If it throws, act() does not act and rethrows.
   */
  beforeAct?(undo: Undo, record: ActionRecord): void | Promise<void>;
  /**
   * Called synchronously the instant the action's command returned (record.actedAtMs set), before
   * any follow-up query such as reading the new IP: the moment to mark `fault-injected`.
   */
  afterAct?(record: ActionRecord): void;
  /** `evict-pods` / `drain`: called at each pod's first refusal and once its outcome is final. Must not throw. */
  onEviction?(attempt: EvictionAttempt): void;
}

/** A cluster node as seen by the provider. */
export interface ClusterNode {
  /** Kubernetes node name (kind: also the container name). */
  name: string;
  role: 'control-plane' | 'worker';
  /** The node's address on the cluster network (Docker network `kind`), or null when disconnected or stopped. */
  internalIP: string | null;
  /** Container state (`running`, `paused`, `exited`, ...) for kind; `running` for simulated nodes. */
  state: string;
}

/** The flags read back from a running cluster, plus the settings they amount to. */
export interface EffectiveSettings {
  /** Timeout settings in effect (milliseconds / seconds as in TimeoutSettings); the requested value fills a gap only when `missing` names it. */
  settings: TimeoutSettings;
  /** kube-controller-manager flags from its static pod, flag name without `--` → value. */
  controllerManagerFlags: Record<string, string>;
  /** kube-apiserver flags from its static pod, flag name without `--` → value. */
  apiServerFlags: Record<string, string>;
  /** Each kubelet's `/configz` `kubeletconfig` object, by node name. */
  kubeletConfigs: Record<string, Record<string, unknown>>;
  /** Settings paths (e.g. `kubelet.nodeLeaseDurationSeconds`) that could not be read and hold the Kubernetes default. */
  missing: string[];
  /** Settings paths whose value differs between kubelets, with the first node's value kept. */
  inconsistent: string[];
}

/** Progress sink of long provider steps (cluster creation). */
export interface Status {
  /** One line of progress, e.g. `creating cluster rebootlab (kind v0.33.0)`. */
  step(message: string): void;
}

/** Control-plane components that run as kubeadm static pods on kind. */
export type ControlPlaneComponent = 'kube-controller-manager' | 'kube-scheduler' | 'kube-apiserver';

/** A component a reconfiguration restarted: a control-plane static pod, or the kubelets. */
export type ReconfiguredComponent = ControlPlaneComponent | 'kubelet';

/** What {@link Cluster.reconfigure} changed. */
export interface Reconfiguration {
  /** Components whose configuration was rewritten (and which therefore restart); empty when nothing changed. */
  restarted: ReconfiguredComponent[];
  /** Client clock when the last file was written: Unix epoch, milliseconds. Components restarted after it. */
  writtenAtMs: number;
}

/** A running cluster that this run owns. */
export interface Cluster {
  readonly name: string;
  readonly provider: ProviderName;
  /** One kubeconfig file per cluster; the user's kubeconfig and current context are never touched. */
  readonly kubeconfigPath: string;
  readonly supportedActions: ReadonlySet<NodeAction>;
  /** Nodes with role and current address. @throws InfraError if Docker fails. */
  nodes(): Promise<ClusterNode[]>;
  /** Read back the flags actually in effect (static pod specs, kubelet configz). @throws InfraError. */
  effectiveSettings(): Promise<EffectiveSettings>;
  /**
   * Apply a reversible primitive to one node; resolves, once the command returned, to its undo. `args` are those of
   * `label-node`, `unlabel-node`, `evict-pods` and `drain` (required for the label actions).
   * @throws InputError for an action not in supportedActions, a node this cluster does not own, or missing args;
   *   InfraError when the command fails (the undo has then already been handed to beforeAct).
   */
  act(node: string, action: NodeAction, hooks?: ActHooks, args?: NodeActionArgs): Promise<Undo>;
  /**
   * Put another spec's timeout flags and kubelet settings into effect without recreating the cluster
   * (same nodes, version and image). Absent when the provider cannot (then a new cluster is made).
   * Returns once the files are written; the caller waits for the restarted components.
   * @param previous the spec the cluster was configured with, or null when unknown (flags are then only set).
   * @throws InfraError when a node is down or a file cannot be rewritten.
   */
  reconfigure?(spec: ClusterSpec, previous: ClusterSpec | null): Promise<Reconfiguration>;
  /**
   * Load images built on this machine (`docker image ls`) into every node's container runtime, e.g. rebootlab/csi:v1
   * before rebootlab's attachable CSI driver is deployed. Absent when the provider has no node runtime of its own to
   * load into (kwok: simulated nodes; existing clusters pull from their registries).
   * @throws InfraError naming an image that is not built here (hint: `npm run toolchain`), or when loading fails.
   */
  loadImages?(images: readonly string[]): Promise<void>;
  /**
   * This cluster acting on nodes through a fault backend (`fault.backend`: an agent pod, the user's commands).
   * Absent when the provider acts on its nodes itself (kind, kwok). @throws InputError for a backend it cannot use.
   */
  withBackend?(backend: FaultBackend): Cluster;
}

/** A way to get a cluster; as small as kind's provider interface. */
export interface ClusterProvider {
  readonly name: ProviderName;
  /** @throws InfraError naming the missing tool (docker, kind, kwokctl) and `Run: npm run toolchain`. */
  ensureAvailable(): Promise<void>;
  /**
   * Checks, before any cluster exists, that clusters of this Kubernetes version can be made here: the toolchain
   * built it (kind: the node image rebootlab/node:<version>, or kindest/node:<version> pullable; kwok: that
   * version's kube-apiserver, kube-controller-manager, kube-scheduler and etcd). Absent when the provider creates
   * nothing (existing).
   * @throws InfraError (exit 3) "Kubernetes v1.36.3 is not built here ..." with the hint
   *   `Run: npm run toolchain -- --kubernetes v1.36.3`.
   */
  checkKubernetesVersion?(kubernetesVersion: string): Promise<void>;
  /** Create a cluster for `spec` and wait for its API server. @throws InfraError; the half-made cluster is deleted. */
  create(spec: ClusterSpec, status: Status): Promise<Cluster>;
  /**
   * Reattach to a cluster rebootlab created (--reuse-cluster).
   * @throws InputError if it does not exist, or (one line) if rebootlab did not create it.
   */
  attach(name: string): Promise<Cluster>;
  /**
   * Delete the cluster and its kubeconfig file; no error when it does not exist.
   * @throws InputError (one line) for a cluster rebootlab did not create; InfraError.
   */
  delete(name: string): Promise<void>;
  /**
   * Let cluster `name` outlive the process that created it (`rebootlab cluster create`, `--keep-cluster`). Only for
   * providers whose clusters otherwise end with that process (kwok's watchdog); kind clusters outlive it anyway.
   */
  keep?(name: string): Promise<void>;
  /** Names of the existing clusters of this provider that rebootlab created (others are never listed). @throws InfraError. */
  list(): Promise<string[]>;
  /**
   * What `action` on a node of this provider's clusters runs, through `backend`, and how it is undone, as its own
   * command lines (those it runs and keeps in pending-restore.json), `{node}` for the node: `rebootlab plan`.
   * Touches nothing. @throws InputError for an action the provider (with that backend) cannot do.
   */
  describeAction(action: NodeAction, backend: FaultBackend, cluster: ClusterSpec): PlannedAction;
}
