// The resolved experiment: what every module after spec/ codes against. Every field is set and
// every duration is a number of milliseconds (`...Ms`); `null` means "none" where a field is optional.
import type { FaultType, PartitionScope } from './faults.js';
import type { ProviderName } from './providers.js';
import type { TimeoutSettings } from './settings.js';
import type { StepAction } from './steps.js';

export type { FaultType, ProviderName, StepAction };

/** API version of experiment files and of results. */
export const API_VERSION = 'rebootlab.dev/v1alpha1';
/** Image run by workloads that do not name one; built from hack/ by the toolchain. */
export const DEFAULT_WORKLOAD_IMAGE = 'rebootlab/workload:v1';

/**
 * Name of the one container in every workload pod rebootlab builds (lib/workloads/pod-template.ts): here, below
 * workloads, so that validation can check a Job's podFailurePolicy `onExitCodes.containerName` against it.
 */
export const WORKLOAD_CONTAINER_NAME = 'workload';

/** Image of the fault agent pod when the experiment names none: public, with nsenter (util-linux) and iptables installable. */
export const DEFAULT_AGENT_IMAGE = 'debian:bookworm-slim';
/** Kubernetes workload kinds rebootlab can deploy. */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Pod' | 'Job';
/**
 * Where a workload's pods go: `target` = preferred node affinity to the fault target node(s), so
 * replacements can still be scheduled elsewhere; `spread` = topology spread across workers; `any` = scheduler's choice.
 */
export type Placement = 'target' | 'spread' | 'any';
/**
 * Volume kinds; `emptyDir-memory` is an emptyDir with `medium: Memory`, `pvc` uses the default StorageClass,
 * `attachable` a claim of rebootlab's CSI driver whose volumes need a VolumeAttachment (lib/workloads/csi-driver.ts).
 */
export type VolumeType = 'emptyDir' | 'emptyDir-memory' | 'hostPath' | 'pvc' | 'local-pv' | 'attachable';

/** Volume types backed by a PersistentVolumeClaim (a volumeClaimTemplate for a StatefulSet, `<workload>-data` otherwise). */
export const CLAIMED_VOLUME_TYPES: readonly VolumeType[] = ['pvc', 'local-pv', 'attachable'];
/** What a network-partition cuts the node off from (lib/spec/faults.ts). */
export type { PartitionScope } from './faults.js';
/** When observation ends: once every workload recovered (then `settle`), or after a fixed duration. */
export type ObserveUntil = 'recovered' | 'duration';

/** A Kubernetes toleration (core/v1 Toleration); `tolerationSeconds` is in seconds, the upstream unit. */
export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

/** Extra command-line flags per control-plane component, flag name without `--` → value. */
export interface ComponentExtraArgs {
  controllerManager: Record<string, string>;
  apiServer: Record<string, string>;
  scheduler: Record<string, string>;
}

/** The named KubeletConfiguration fields an experiment can set (`cluster.kubelet`). */
export const KUBELET_FIELDS = ['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'nodeLeaseDurationSeconds', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'] as const;
/** One of {@link KUBELET_FIELDS}. */
export type KubeletField = (typeof KUBELET_FIELDS)[number];

/** The resolved cluster: what the cluster provider creates. */
export interface ClusterSpec {
  provider: ProviderName;
  /** Cluster name (kind cluster name; node containers are `<name>-control-plane`, `<name>-worker`, ...). */
  name: string;
  /** Kubernetes version with a leading `v`, e.g. `v1.34.4`. */
  kubernetesVersion: string;
  /** Node image override (kind), or null to use the image for `kubernetesVersion`. */
  nodeImage: string | null;
  /** Number of worker nodes: kind containers, or simulated nodes with kwok. Always ≥ 1. */
  workers: number;
  /** Zone names assigned round-robin to workers as `topology.kubernetes.io/zone`; empty = no zone labels. */
  zones: string[];
  /** Labels every worker registers with (kind node labels; kwok Node labels); empty = none. */
  workerLabels: Record<string, string>;
  /** The node-failure timing settings requested (defaults filled in from DEFAULT_TIMEOUT_SETTINGS). */
  settings: TimeoutSettings;
  /** Extra flags per control-plane component (validated: no removed flags, none that a named setting covers). */
  extraArgs: ComponentExtraArgs;
  /** Extra KubeletConfiguration (kubelet.config.k8s.io/v1beta1) fields merged into the kubelet config. */
  kubeletExtraConfig: Record<string, unknown>;
  /**
   * The named kubelet settings the experiment itself sets (`cluster.kubelet.<field>`, matrix values included): only
   * these are written into the kubelet's configuration, so the kubelet applies its own defaults to the others, some
   * of which depend on what is set (nodeStatusReportFrequency defaults to nodeStatusUpdateFrequency when only that
   * one is set: pkg/kubelet/apis/config/v1beta1/defaults.go, v1.34.4). `settings.kubelet` mirrors those defaults.
   * Always set by resolution; absent only in run.json files written before it (every named field was written then).
   */
  kubeletFieldsSet?: KubeletField[];
  /** provider existing: where to reach it; null for kind and kwok. `settings` then holds `cluster.assume`. */
  existing: ExistingClusterRef | null;
}

/** A cluster rebootlab did not create: a kubeconfig file and one of its contexts. */
export interface ExistingClusterRef {
  /** Absolute path of the kubeconfig file. */
  kubeconfig: string;
  /** Context name in that file. */
  context: string;
}

/**
 * How a fault reaches a node: `provider` = the cluster provider's own primitives (kind: Docker, kwok: heartbeats);
 * `agent` = a privileged pod on the node (lib/cluster/existing/agent.ts); `command` = the user's power commands,
 * `off` then, as the undo, `on` (placeholders `{node}`, `{providerID}`, `{zone}`, `{internalIP}`).
 */
export type FaultBackend =
  | { kind: 'provider' }
  | { kind: 'agent'; image: string; healAfterMs: number | null }
  | { kind: 'command'; off: string; on: string };

/** A volume mounted at /data in every pod of a workload. */
export interface VolumeSpec {
  type: VolumeType;
  /** Kubernetes quantity, e.g. `64Mi` (default). Used for pvc/local-pv capacity and emptyDir sizeLimit. */
  size: string;
}

/** A PodDisruptionBudget for a workload: exactly one of the two is non-null (integer or percentage string). */
export interface PodDisruptionBudgetSpec {
  minAvailable: number | string | null;
  maxUnavailable: number | string | null;
}

/** One workload to deploy before the fault, in namespace-scoped order of the file. */
export interface WorkloadSpec {
  /** DNS-1123 label, unique within the experiment; also the Kubernetes object name. */
  name: string;
  kind: WorkloadKind;
  /** Desired pods: 1 for Pod, null for DaemonSet (one per node), parallelism for Job. */
  replicas: number | null;
  placement: Placement;
  /** Container image; DEFAULT_WORKLOAD_IMAGE unless overridden. */
  image: string;
  /** Tolerations replacing the pod's own; null keeps the apiserver-added defaults (DefaultTolerationSeconds). */
  tolerations: Toleration[] | null;
  /** Required node affinity: labels (key → value) a node must carry; empty = none. */
  requiredNodeLabels: Record<string, string>;
  volume: VolumeSpec | null;
  /** Write a marker file to the volume before the fault and check it after. Requires `volume`. */
  dataProbe: boolean;
  podDisruptionBudget: PodDisruptionBudgetSpec | null;
  /** The ClusterIP Service named after the workload, or null for none (a StatefulSet then gets a headless one). */
  service: ServiceSpec | null;
  /** Readiness probe timing; null = rebootlab's built-in probe (GET /healthz every 1 s, failureThreshold 1). */
  readinessProbe: ProbeSpec | null;
  /** Liveness probe timing; null = no liveness probe. */
  livenessProbe: ProbeSpec | null;
  /** When the workload server fails its readiness endpoint (counted from the container's start); null = never. */
  failReadiness: FailureScheduleSpec | null;
  /** When it fails its liveness endpoint; null = never. */
  failLiveness: FailureScheduleSpec | null;
  /** Seconds between SIGTERM and SIGKILL on pod deletion (Kubernetes default 30). */
  terminationGracePeriodSeconds: number;
  /**
   * Set for a workload from the user's manifest: the objects rebootlab applies for it (its controller, and for the
   * first controller of a manifest also the other objects: Services, ConfigMaps, ...), as parsed. Every other field
   * then describes the controller as read (kind, replicas) or is unused. Null for built-in workloads.
   */
  manifest: { file: string; objects: Record<string, unknown>[] } | null;
  /** kind Job: its JobSpec fields; null for other kinds. Always set by resolution; absent only in run.json files written before it. */
  job?: JobSpec | null;
  /**
   * Set for pods already running (`namespace` + `selector`): rebootlab reads their controllers at the start of a run
   * (lib/workloads/selected.ts) and never creates, changes or deletes them. Every other field is then unused.
   * Null for built-in and manifest workloads.
   */
  selected: SelectedPods | null;
}

/** The batch/v1 JobSpec fields of a Job workload, resolved; parallelism is the workload's `replicas`. */
export interface JobSpec {
  /** `spec.completions` (default: the parallelism). */
  completions: number;
  /** `spec.backoffLimit` (Kubernetes default 6). */
  backoffLimit: number;
  /** `spec.podReplacementPolicy` as written, or null: the API server defaults it (Failed with a podFailurePolicy, else TerminatingOrFailed). */
  podReplacementPolicy: 'TerminatingOrFailed' | 'Failed' | null;
  /** `spec.podFailurePolicy` as written (batch/v1 shape), or null. */
  podFailurePolicy: { rules: Record<string, unknown>[] } | null;
  /** `spec.completionMode`; absent means NonIndexed (the Kubernetes default). */
  completionMode?: 'NonIndexed' | 'Indexed';
  /** `spec.backoffLimitPerIndex` (Indexed only); absent or null when not set (then the pod failure backoff is the Job's). */
  backoffLimitPerIndex?: number | null;
  /** `spec.maxFailedIndexes` (with backoffLimitPerIndex); absent or null when not set. */
  maxFailedIndexes?: number | null;
}

/** Pods already running that make a workload: those in `namespace` carrying every label of `matchLabels`. */
export interface SelectedPods {
  namespace: string;
  matchLabels: Record<string, string>;
}

/** A ClusterIP Service selecting a workload's pods. */
export interface ServiceSpec {
  /** Service port; the target is the workload server's port 8080 (WORKLOAD_HTTP_PORT). */
  port: number;
}

/** A probe on the workload server (HTTP GET, or exec of its client); every other field in seconds or counts, as in core/v1 Probe. */
export interface ProbeSpec {
  handler: 'httpGet' | 'exec';
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
  successThreshold: number;
  initialDelaySeconds: number;
}

/** A failure schedule of the workload server, milliseconds since the container's start. */
export interface FailureScheduleSpec {
  afterMs: number;
  /** How long each failure lasts; null = for ever. */
  forMs: number | null;
  /** Period of the repetition; null = once. */
  everyMs: number | null;
}

/** Which node(s) the fault hits. Control-plane nodes only if `FaultSpec.allowControlPlane`. */
export type FaultTarget =
  | { kind: 'node'; node: string }
  | { kind: 'worker-with-most-pods' }
  | { kind: 'selector'; selector: Record<string, string> };

/** The fault to inject. */
export interface FaultSpec {
  type: FaultType;
  target: FaultTarget;
  /** Number of nodes to hit (≥ 1); with `worker-with-most-pods`, the `count` workers with most pods. */
  count: number;
  /** How long the fault lasts, milliseconds; null for reboot, and for node-delete without a duration. */
  durationMs: number | null;
  /** Delay between injecting the fault on successive nodes, milliseconds (0 = all at once). */
  staggerMs: number;
  /**
   * What a network-partition cuts: `node` (everything: kind leaves the Docker network) or `control-plane` (only the
   * traffic between the node and the API server endpoints); `node` for every other fault type.
   */
  scope: PartitionScope;
  allowControlPlane: boolean;
  backend: FaultBackend;
}

/**
 * What a step's node action takes (lib/cluster/provider.ts NodeActionArgs has the same shape): the label of
 * `label-node` / `unlabel-node`, the pods of `evict-pods` / `drain` and how long their refused evictions are retried.
 */
export interface StepArgs {
  /** `label-node`: key and value to set; `unlabel-node`: the key (value ""). */
  label?: { key: string; value: string };
  /** `evict-pods` / `drain`: namespace (null: every namespace) and labels the pods must carry (empty: any). */
  pods?: { namespace: string | null; matchLabels: Record<string, string> };
  /** `evict-pods` / `drain`: retry refused evictions this long, milliseconds (0: one attempt). */
  retryForMs?: number;
}

/** A timed follow-up action after the fault; what each action does and takes is its record in lib/spec/steps.ts. */
export interface StepSpec {
  /** Time since time zero, the start of the first fault command (first target), milliseconds. */
  afterMs: number;
  action: StepAction;
  /** Node to act on; null = every fault target. */
  node: string | null;
  /** The action's arguments; empty for actions that take none. */
  args: StepArgs;
}


/** How long to observe after the fault. */
export interface ObserveSpec {
  until: ObserveUntil;
  /** Fixed observation time after fault injection, milliseconds; set iff `until` is `duration`. */
  durationMs: number | null;
  /** Give up (infrastructure failure) after this long since fault injection, milliseconds. Default 600000 (10 min). */
  timeoutMs: number;
  /** Extra observation after recovery, milliseconds. Default 5000. */
  settleMs: number;
}

/** A resolved, validated experiment (one variant of a matrix). */
export interface Experiment {
  apiVersion: typeof API_VERSION;
  kind: 'Experiment';
  metadata: { name: string; description: string };
  cluster: ClusterSpec;
  workloads: WorkloadSpec[];
  fault: FaultSpec;
  /** Follow-up actions in the order they run (by `afterMs`, ties in file order); empty when none. */
  steps: StepSpec[];
  /** Traffic probers; empty when none. */
  probes: TrafficProbeSpec[];
  observe: ObserveSpec;
  /** Assertion texts, each already validated by parseExpectation (lib/spec/expectation.ts); parse again to evaluate. */
  expect: string[];
}

/** A traffic prober, resolved (see v1alpha1 TrafficProbe): an HTTP prober of a workload's Service, or a DNS prober. */
export type TrafficProbeSpec = HttpProbeSpec | DnsProbeSpec;

/** What every traffic prober has. */
export interface ProbeSpecBase {
  name: string;
  /** Requests started per second. */
  ratePerSecond: number;
  /** Milliseconds before an unanswered request counts as `timeout`. */
  timeoutMs: number;
  /** The node whose node port is used, or null for the first worker that is not a fault target. */
  node: string | null;
}

/** GET / through the Service of a workload. */
export interface HttpProbeSpec extends ProbeSpecBase {
  /** Always set by resolution; absent from the resolved experiments of run.json files written before DNS probes. */
  type?: 'http';
  /** The workload whose Service is probed. */
  service: string;
}

/** UDP DNS queries to the cluster DNS (the pods behind kube-system/kube-dns) through a node port. */
export interface DnsProbeSpec extends ProbeSpecBase {
  type: 'dns';
  /** The name resolved (an A query). */
  query: string;
  /** Move one cluster DNS replica onto the first fault target before the fault (see v1alpha1 TrafficProbe). */
  placeReplicaOnTarget: boolean;
}

/** One run of an experiment: a matrix combination × a repeat index. */
export interface Variant {
  /** `metadata.name`, plus `--<setting>-<value>` per matrix axis; safe as a directory name. */
  variantName: string;
  /** 0-based index within `repeat`. */
  repeatIndex: number;
  /** The matrix values of this variant: dotted settings path → value as written. Empty without a matrix. */
  matrixValues: Record<string, unknown>;
  experiment: Experiment;
}

/** An experiment file loaded and validated: the file path, every variant, and the base experiment. */
export interface LoadedExperiment {
  file: string;
  /** The experiment without matrix values applied. */
  experiment: Experiment;
  /** Dotted settings path → values, in file order; empty without `matrix`. */
  matrix: Record<string, unknown[]>;
  /** How many times each variant runs (≥ 1). */
  repeat: number;
  /** matrix × repeat expanded, matrix-major order. */
  variants: Variant[];
}
