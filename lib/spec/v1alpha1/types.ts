// What users write in an experiment file (rebootlab.dev/v1alpha1): every field optional unless
// required, durations as Go-duration strings. schema/experiment.schema.json is generated from this file.

/**
 * A Go duration string with a unit, e.g. `40s`, `500ms`, `5m`, `1m30s`. A bare number is an error.
 * @pattern ^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$
 */
export type Duration = string;

/**
 * A DNS-1123 label: lowercase letters, digits and `-`, starting and ending with a letter or digit, at most 63 characters.
 * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
 * @maxLength 63
 */
export type DnsLabel = string;

/** A rebootlab experiment: a cluster, workloads, one fault, what to observe and what to expect. */
export interface Experiment {
  apiVersion: 'rebootlab.dev/v1alpha1';
  kind: 'Experiment';
  metadata: Metadata;
  cluster?: Cluster;
  /** Workloads deployed before the fault. */
  workloads?: Workload[];
  fault: Fault;
  /** Timed follow-up actions after the fault, e.g. delete the Node object 60 s after a power-off. */
  steps?: Step[];
  /**
   * Traffic probers: HTTP requests through a workload's Service or DNS queries to the cluster DNS at a fixed rate,
   * what clients see during the fault (`probes[].name` in the results and expectations, e.g. `probes.web.errorSeconds < 5`).
   */
  probes?: TrafficProbe[];
  observe?: Observe;
  /** Assertions on the result, e.g. `pods[workload=web].outcome == restarted-in-place`. */
  expect?: string[];
  /**
   * Runs the experiment once per combination: dotted settings path (e.g.
   * `cluster.controllerManager.nodeMonitorGracePeriod`) → values. Each value replaces the one in the
   * file, which must be valid on its own.
   */
  matrix?: { [path: string]: (string | number | boolean)[] };
  /**
   * How many times each variant runs; matrix combinations × repeat is at most 1000 runs (each takes minutes).
   * @minimum 1
   * @maximum 1000
   * @asType integer
   */
  repeat?: number;
}

/**
 * A traffic prober, what a Service's clients see during the fault. `type: http` (default): GET / on the workload
 * server through the Service of workload `service` (which needs `service: {port}`). `type: dns`: one UDP query per
 * request for `query` to the cluster DNS (the pods behind Service kube-system/kube-dns), as a pod's stub resolver
 * sends it (a new socket, so a new source port, per query). Either is sent through a node port of a node that is
 * not a fault target, so kube-proxy there routes each request as it would for a client in the cluster; for DNS
 * rebootlab adds a NodePort Service `rebootlab-dns` in kube-system with kube-dns's selector for the run, since the
 * cluster DNS Service's ClusterIP is reachable only from inside the cluster.
 */
export interface TrafficProbe {
  name: DnsLabel;
  /** http (default): HTTP GET through a workload's Service; dns: UDP DNS queries to the cluster DNS. */
  type?: 'http' | 'dns';
  /** type http: the workload whose Service is probed (required). Not for type dns. */
  service?: DnsLabel;
  /**
   * type dns: the name to resolve (an A query), default `kubernetes.default.svc.cluster.local`, which CoreDNS
   * answers from its own cache of the API (no upstream server involved).
   * @maxLength 253
   * @pattern ^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*\.?$
   */
  query?: string;
  /**
   * type dns: before the fault, move one replica of the cluster DNS onto the (first) fault target if none runs
   * there: every other node is cordoned, one replica elsewhere is deleted, its replacement waited for Ready on the
   * target, and the nodes are uncordoned (each cordon undone on Ctrl-C and by `doctor --restore`). Default false.
   */
  placeReplicaOnTarget?: boolean;
  /**
   * Requests started per second, default 20; above 0, at most 1000 (each request is a new TCP connection or UDP
   * socket from the rebootlab process: bench/prober-load.ts measures 50/s).
   * @exclusiveMinimum 0
   * @maximum 1000
   */
  ratePerSecond?: number;
  /** A request unanswered after this long fails as `timeout`, default 1s. */
  timeout?: Duration;
  /** The node whose node port is used, default the first worker that is not a fault target. */
  node?: string;
}

/** Name and description of the experiment. */
export interface Metadata {
  name: DnsLabel;
  description?: string;
}

/**
 * The cluster to create, or (provider `existing`) the cluster to use as it is. Unset timing settings take the
 * Kubernetes 1.34 defaults.
 */
export interface Cluster {
  /**
   * kind (default): Docker containers as nodes; kwok: simulated nodes; existing: a cluster you already have,
   * reached through `kubeconfig` and `context`, never created, deleted or reconfigured.
   */
  provider?: 'kind' | 'kwok' | 'existing';
  /** provider existing: the kubeconfig file (relative to the experiment file; `~/` is your home). */
  kubeconfig?: string;
  /** provider existing: the context of `kubeconfig` to use; faults need `--allow-faults-on <context>`. */
  context?: string;
  /**
   * provider existing: the settings rebootlab cannot read back (a managed control plane hides its flags; a
   * kubelet without configz access). A value read from the cluster wins; unset and unreadable ones take the
   * Kubernetes 1.34 defaults.
   */
  assume?: AssumedSettings;
  /** Cluster name, default `rebootlab`. */
  name?: DnsLabel;
  /**
   * Kubernetes version: one of the supported versions (versions.json: v1.37.2, v1.36.3, v1.35.4, v1.34.4); default the
   * newest.
   * @pattern ^v[0-9]+\.[0-9]+\.[0-9]+$
   */
  kubernetesVersion?: string;
  /** kind node image override, e.g. `kindest/node:v1.34.4`. */
  nodeImage?: string;
  /**
   * Worker nodes, default 2: kind containers (at most 10), or simulated nodes with kwok when `nodes` is not given
   * (at most 8191: the kwok nodes' pod CIDRs, 10.64.0.0/24 upward, reach the Service range 10.96.0.0/16 after that).
   * @minimum 1
   * @maximum 8191
   * @asType integer
   */
  workers?: number;
  /**
   * Simulated nodes (kwok), default 2, at most 8191 (see `workers`).
   * @minimum 1
   * @maximum 8191
   * @asType integer
   */
  nodes?: number;
  /** Zone names, assigned round-robin to workers as `topology.kubernetes.io/zone`. */
  zones?: DnsLabel[];
  /**
   * Labels every worker gets when it registers (kind: node labels of the kind config; kwok: on each simulated Node),
   * e.g. `{rebootlab.dev/pool: blue}` for workloads' `requiredNodeLabels`. The kubelet sets them only at registration:
   * a step that removes one is not undone by a kubelet restart.
   */
  workerLabels?: { [key: string]: string };
  controllerManager?: ControllerManager;
  apiServer?: ApiServer;
  kubelet?: Kubelet;
  scheduler?: Scheduler;
}

/** Timing settings of a cluster rebootlab does not configure (provider existing), as the cluster runs them. */
export interface AssumedSettings {
  controllerManager?: Omit<ControllerManager, 'extraArgs' | 'kubeAPIQPS' | 'kubeAPIBurst'>;
  apiServer?: Omit<ApiServer, 'extraArgs'>;
  kubelet?: Omit<Kubelet, 'extraConfig'>;
}

/** kube-controller-manager settings (node lifecycle controller). */
export interface ControllerManager {
  /** `--node-monitor-period`, default 5s. */
  nodeMonitorPeriod?: Duration;
  /** `--node-monitor-grace-period`, default 50s (since 1.32). */
  nodeMonitorGracePeriod?: Duration;
  /** `--node-startup-grace-period`, default 1m. */
  nodeStartupGracePeriod?: Duration;
  /**
   * `--node-eviction-rate`, nodes per second, default 0.1 (a float32 flag).
   * @minimum 0
   * @maximum 3.4028234663852886e+38
   */
  nodeEvictionRate?: number;
  /**
   * `--secondary-node-eviction-rate`, nodes per second, default 0.01 (a float32 flag).
   * @minimum 0
   * @maximum 3.4028234663852886e+38
   */
  secondaryNodeEvictionRate?: number;
  /**
   * `--unhealthy-zone-threshold`, fraction in (0, 1], default 0.55.
   * @exclusiveMinimum 0
   * @maximum 1
   */
  unhealthyZoneThreshold?: number;
  /**
   * `--large-cluster-size-threshold`, nodes, default 50 (an int32 flag).
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  largeClusterSizeThreshold?: number;
  /**
   * `--kube-api-qps`: requests per second kube-controller-manager's clients may send to kube-apiserver, default 20
   * (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/). Not a timing
   * setting of the node lifecycle controller (its taints are paced by nodeEvictionRate), but with hundreds of nodes
   * the default throttles the controllers that create and replace pods; raise it with kubeAPIBurst for large kwok
   * clusters. kind and kwok only. A float32 flag.
   * @exclusiveMinimum 0
   * @maximum 3.4028234663852886e+38
   */
  kubeAPIQPS?: number;
  /**
   * `--kube-api-burst`: requests kube-controller-manager's clients may send at once above kubeAPIQPS, default 30
   * (same reference). kind and kwok only. An int32 flag.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  kubeAPIBurst?: number;
  /** Further flags, name without `--` → value. */
  extraArgs?: { [flag: string]: string };
}

/** kube-apiserver settings (DefaultTolerationSeconds admission plugin). */
export interface ApiServer {
  /**
   * `--default-not-ready-toleration-seconds`, seconds, default 300.
   * @minimum 0
   * @maximum 9007199254740991
   * @asType integer
   */
  defaultNotReadyTolerationSeconds?: number;
  /**
   * `--default-unreachable-toleration-seconds`, seconds, default 300.
   * @minimum 0
   * @maximum 9007199254740991
   * @asType integer
   */
  defaultUnreachableTolerationSeconds?: number;
  /** Further flags, name without `--` → value. */
  extraArgs?: { [flag: string]: string };
}

/** kubelet settings (KubeletConfiguration v1beta1). */
export interface Kubelet {
  /** `nodeStatusUpdateFrequency`, default 10s. */
  nodeStatusUpdateFrequency?: Duration;
  /** `nodeStatusReportFrequency`, default 5m. */
  nodeStatusReportFrequency?: Duration;
  /**
   * `nodeLeaseDurationSeconds`, seconds, default 40; the lease is renewed every quarter of it. An int32.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  nodeLeaseDurationSeconds?: number;
  /** `shutdownGracePeriod`, default 0s (graceful node shutdown off). */
  shutdownGracePeriod?: Duration;
  /** `shutdownGracePeriodCriticalPods`, default 0s. */
  shutdownGracePeriodCriticalPods?: Duration;
  /** Further KubeletConfiguration fields. */
  extraConfig?: { [field: string]: unknown };
}

/** kube-scheduler settings. */
export interface Scheduler {
  /** Further flags, name without `--` → value. */
  extraArgs?: { [flag: string]: string };
}

/**
 * A workload deployed before the fault: a built-in one (`kind`), or your own objects (`manifest`: a multi-document
 * YAML file or a kustomize directory, relative to the experiment file), applied into namespace `rebootlab`; each
 * Deployment, StatefulSet, DaemonSet, Job and Pod in it is a workload of its own name, its pods grouped under it.
 * Or pods already running (`namespace` + `selector`): rebootlab follows them and never creates, changes or deletes them.
 */
export interface Workload {
  name: DnsLabel;
  /** A built-in workload; give one of `kind`, `manifest` or `selector`. */
  kind?: 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Pod' | 'Job';
  /** Your own manifest: a YAML file (documents separated by `---`) or a kustomize directory (`kubectl kustomize`). */
  manifest?: string;
  /**
   * Pods already running: the namespace they run in, with `selector`. Not `rebootlab`, the namespace rebootlab
   * creates and deletes.
   */
  namespace?: DnsLabel;
  /**
   * Pods already running: an equality-based label selector, `k=v,k2=v2`, of the pods in `namespace` that make the
   * workload. Their controllers (ownerReferences) give its kind and desired pods.
   */
  selector?: string;
  /**
   * Desired pods, default 1; not for DaemonSet or Pod. At most 10,000: the most pods rebootlab's observer was
   * measured watching (bench/observer-scale.ts); past it the run measures rebootlab's own load.
   * @minimum 1
   * @maximum 10000
   * @asType integer
   */
  replicas?: number;
  /** target (default): prefer the fault target node(s); spread: across workers; any: scheduler's choice. */
  placement?: 'target' | 'spread' | 'any';
  /** Container image, default `rebootlab/workload:v1`. */
  image?: string;
  /** Tolerations replacing the defaults the apiserver adds. */
  tolerations?: Toleration[];
  /**
   * Labels a node must carry for the pods to run there: required node affinity
   * (`requiredDuringSchedulingIgnoredDuringExecution`, each key `In` its value). Checked by the scheduler, and by a
   * kubelet when it admits the pod, again after a restart (a pod whose node lost the label is then rejected, reason
   * NodeAffinity).
   */
  requiredNodeLabels?: { [key: string]: string };
  volume?: Volume;
  /** Write a marker file to the volume before the fault, check it after. Needs `volume`. */
  dataProbe?: boolean;
  podDisruptionBudget?: PodDisruptionBudget;
  /** A ClusterIP Service named after the workload, selecting its pods; none by default. */
  service?: Service;
  /**
   * HTTP GET /healthz on the workload server (port 8080), or an exec probe asking it (`handler: exec`). Unset:
   * rebootlab's own probe (every 1 s, one failure marks the pod not ready), so readiness follows the container
   * closely. Set: unset fields take the Kubernetes defaults.
   */
  readinessProbe?: Probe;
  /** HTTP GET /livez on the workload server (port 8080), or an exec probe; none by default. Unset fields take the Kubernetes defaults. */
  livenessProbe?: Probe;
  /**
   * Make the workload server fail its readiness endpoint on a schedule counted from the container's start: from
   * `after` on, for `for` (for ever when unset), again every `every`. The pod then turns not ready on a Ready node,
   * e.g. to see what a kubelet restart does to a pod that was not ready (case C19).
   */
  failReadiness?: FailureSchedule;
  /** The same for the liveness endpoint (needs `livenessProbe`): the kubelet restarts the container, whose schedule starts again. */
  failLiveness?: FailureSchedule;
  /**
   * Seconds between SIGTERM and SIGKILL when a pod is deleted, default 30 (the Kubernetes default,
   * https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#lifecycle). An int64.
   * @minimum 0
   * @maximum 9007199254740991
   * @asType integer
   */
  terminationGracePeriodSeconds?: number;
  /** kind Job only: the Job's own fields (batch/v1 JobSpec); its parallelism is `replicas`. */
  job?: JobSettings;
}

/**
 * The batch/v1 JobSpec fields an experiment can set (https://kubernetes.io/docs/concepts/workloads/controllers/job/).
 * The Job's pods run the workload server, which never exits: they run until the fault takes them.
 */
export interface JobSettings {
  /**
   * `spec.completions`, default `replicas` (the parallelism).
   * @minimum 1
   * @asType integer
   */
  completions?: number;
  /**
   * `spec.backoffLimit`: failed pods before the Job fails, default 6.
   * @minimum 0
   * @asType integer
   */
  backoffLimit?: number;
  /**
   * `spec.podReplacementPolicy`: `TerminatingOrFailed` replaces a pod as soon as it is terminating (the default
   * without podFailurePolicy), `Failed` only once it is Failed (the default, and the only value, with podFailurePolicy).
   */
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  /** `spec.podFailurePolicy`; the pods then get restartPolicy Never (an API rule). */
  podFailurePolicy?: PodFailurePolicy;
  /**
   * `spec.completionMode`: `NonIndexed` (the default) or `Indexed`, where each pod gets a completion index
   * (0 to completions − 1) and a lost pod is replaced by one of the same index.
   */
  completionMode?: 'NonIndexed' | 'Indexed';
  /**
   * `spec.backoffLimitPerIndex` (Indexed only): failures of one index before that index is marked failed. With it
   * the pod failure backoff is per index (10 s doubling per failure of that index), not per Job, and backoffLimit
   * defaults to 2147483647. Allows podFailurePolicy rules with action `FailIndex`.
   * @minimum 0
   * @asType integer
   */
  backoffLimitPerIndex?: number;
  /**
   * `spec.maxFailedIndexes` (needs backoffLimitPerIndex): more failed indexes than this fail the Job
   * (MaxFailedIndexesExceeded). At most completions.
   * @minimum 0
   * @asType integer
   */
  maxFailedIndexes?: number;
}

/** batch/v1 PodFailurePolicy: the first rule that matches a failed pod decides what its failure does. */
export interface PodFailurePolicy {
  /** @minItems 1 */
  rules: PodFailurePolicyRule[];
}

/** One rule of a PodFailurePolicy: an action, on exit codes or on pod conditions (give exactly one of the two). */
export interface PodFailurePolicyRule {
  /** `Ignore`: not counted against backoffLimit; `Count`: counted; `FailJob`: the Job fails; `FailIndex`: its index fails, not replaced (needs backoffLimitPerIndex). */
  action: 'Ignore' | 'Count' | 'FailJob' | 'FailIndex';
  onExitCodes?: {
    /** The container whose exit code counts: only `workload`, the one container of rebootlab's pods; default any. */
    containerName?: string;
    operator: 'In' | 'NotIn';
    /** @minItems 1 */
    values: number[];
  };
  /** e.g. `[{type: DisruptionTarget}]`: the pod was evicted, preempted or garbage-collected (KEP-3329). */
  onPodConditions?: { type: string; status?: 'True' | 'False' | 'Unknown' }[];
}

/** A ClusterIP Service in front of a workload's pods. */
export interface Service {
  /**
   * Port the Service listens on; traffic goes to the workload server's port 8080.
   * @minimum 1
   * @maximum 65535
   * @asType integer
   */
  port: number;
}

/** When the workload server fails a probe endpoint, counted from the container's start. */
export interface FailureSchedule {
  /** From this long after the container started, e.g. `30s`. */
  after: Duration;
  /** For this long; unset: for ever. */
  for?: Duration;
  /** Again every this long (needs `for`, shorter than it), e.g. `for: 5s, every: 30s`. */
  every?: Duration;
}

/**
 * A probe on the workload server: HTTP GET (default), or `handler: exec`, a command in the container that asks the
 * server the same (`/rebootlab-workload get http://127.0.0.1:8080/healthz`); an exec probe runs through the container
 * runtime (CRI ExecSync), so it fails while the runtime is down even though the server answers. Defaults are those of
 * the Kubernetes API (core/v1 Probe, https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#Probe); its timing fields are int32.
 */
export interface Probe {
  /** `httpGet` (default) or `exec`. */
  handler?: 'httpGet' | 'exec';
  /**
   * Seconds between probes, default 10.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  periodSeconds?: number;
  /**
   * Seconds before a probe times out, default 1.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  timeoutSeconds?: number;
  /**
   * Consecutive failures that mark the container not ready (readiness) or restart it (liveness), default 3.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  failureThreshold?: number;
  /**
   * Consecutive successes after a failure that count as success, default 1; must be 1 for a liveness probe.
   * @minimum 1
   * @maximum 2147483647
   * @asType integer
   */
  successThreshold?: number;
  /**
   * Seconds after the container started before the first probe, default 0.
   * @minimum 0
   * @maximum 2147483647
   * @asType integer
   */
  initialDelaySeconds?: number;
}

/** A Kubernetes toleration (core/v1). */
export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  /**
   * Seconds the pod stays bound after a NoExecute taint appears (needs `effect: NoExecute`). An int64.
   * @minimum 0
   * @maximum 9007199254740991
   * @asType integer
   */
  tolerationSeconds?: number;
}

/**
 * A volume mounted at /data: `emptyDir`, `emptyDir-memory`, `hostPath` (a directory of the node), `pvc` (a claim of the
 * default StorageClass), `local-pv` (a PersistentVolume bound to the fault target node), or `attachable` (provider kind
 * only): a claim of rebootlab's own CSI driver whose volumes must be attached (CSIDriver `attachRequired: true`), so
 * kube-controller-manager's attach/detach controller creates a VolumeAttachment per node and applies its Multi-Attach
 * and force-detach rules (`maxWaitForUnmountDuration`, 6 min); the data lives on the node that mounted it.
 */
export interface Volume {
  type: 'emptyDir' | 'emptyDir-memory' | 'hostPath' | 'pvc' | 'local-pv' | 'attachable';
  /**
   * Kubernetes quantity, default `64Mi`.
   * @pattern ^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$
   */
  size?: string;
}

/** A PodDisruptionBudget: give exactly one of the two, an integer or a percentage like `50%`. */
export interface PodDisruptionBudget {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

/** The fault to inject. */
export interface Fault {
  type: 'reboot' | 'power-off' | 'freeze' | 'kubelet-stop' | 'kubelet-restart' | 'runtime-stop' | 'network-partition' | 'node-delete' | 'shutdown';
  /** A node name, `worker-with-most-pods` (default), or `{selector: "k=v,..."}`. */
  target?: string | TargetSelector;
  /**
   * Nodes to hit, default 1; at most the cluster's nodes (8191 with kwok).
   * @minimum 1
   * @maximum 8191
   * @asType integer
   */
  count?: number;
  /** How long the fault lasts; required for power-off, freeze, kubelet-stop, runtime-stop, network-partition, shutdown. */
  duration?: Duration;
  /**
   * network-partition only. `node` (default): the node is cut off from everything (kind: it leaves the Docker
   * network). `control-plane`: only the traffic between the node and the API server endpoints is dropped, inside the
   * node's network namespace (iptables): its kubelet cannot report, while its pods keep serving clients and each other.
   */
  scope?: 'node' | 'control-plane';
  /** Delay between successive nodes, default 0s. */
  stagger?: Duration;
  /**
   * Allow a control-plane node as target, default false. On provider existing the command line must allow it
   * too (`--allow-faults-on <context> --allow-control-plane`).
   */
  allowControlPlane?: boolean;
  /**
   * How the fault reaches the node. Default: the provider's own (kind: Docker; kwok: heartbeats). On provider
   * existing: `agent` (a privileged pod on the node), `{agent: {image}}`, or `{command: {off, on}}` (your own
   * power commands; `on` undoes `off`). Placeholders in commands: `{node}`, `{providerID}`, `{zone}`, `{internalIP}`.
   */
  backend?: 'agent' | AgentBackend | CommandBackend;
}

/** A privileged pod (hostPID, hostNetwork, nsenter into PID 1) pinned to the target node. */
export interface AgentBackend {
  agent: {
    /** Image with nsenter and iptables, default `debian:bookworm-slim`. */
    image?: string;
  };
}

/** Your own commands, run by `sh -c` on this machine, e.g. `gcloud compute instances stop {node}`. */
export interface CommandBackend {
  command: {
    /** Takes the node down (power-off), e.g. `virsh destroy {node}`. */
    off: string;
    /** Brings it back; the undo rebootlab registers before running `off`. Required. */
    on?: string;
  };
}

/**
 * A follow-up action at a fixed time after the fault injection, on the fault target(s) or a named node:
 * - `delete-node-object`: delete the Node from the API server (what a cloud provider does for a machine that is gone);
 * - `taint-out-of-service`: add `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` (non-graceful node
 *   shutdown, KEP-2268); `untaint-out-of-service` removes it again (needs an earlier taint-out-of-service);
 * - `force-delete-pods`: delete every pod bound to the node with grace period 0 (`kubectl delete --force`);
 * - `cordon` / `uncordon` (needs an earlier cordon): mark the node unschedulable / schedulable;
 * - `restore`: end the fault now (e.g. start the powered-off node) instead of after `fault.duration`;
 * - `label-node` (`label: key=value`) / `unlabel-node` (`label: key`): set / remove a node label (a pod's required
 *   node affinity is only checked again when its kubelet restarts and re-admits it);
 * - `evict-pods`: the Eviction API for the pods on the node (`selector`, `namespace` optional), which honours
 *   PodDisruptionBudgets: a refusal (HTTP 429) is retried for `timeout` (default 0s: one attempt), journaled and
 *   reported, never an error of the run;
 * - `drain`: cordon, then evict-pods (`timeout` default 60s), as `kubectl drain --ignore-daemonsets` without waiting
 *   for the pods to terminate; DaemonSet and mirror pods are never evicted;
 * - `restart-kubelet`: `systemctl restart kubelet` on the node (containers keep running).
 * Whatever a step leaves behind (taint, cordon, label) is undone at the end of the run.
 */
export interface Step {
  /** Time since time zero, the start of the first fault command (on the first target), e.g. `60s`. */
  after: Duration;
  action:
    | 'delete-node-object' | 'taint-out-of-service' | 'untaint-out-of-service' | 'force-delete-pods' | 'cordon' | 'uncordon' | 'restore'
    | 'label-node' | 'unlabel-node' | 'evict-pods' | 'drain' | 'restart-kubelet';
  /** Node name; default: every fault target. */
  node?: string;
  /** `label-node`: the label to set, `key=value` (e.g. `rebootlab.dev/pool=blue`); `unlabel-node`: the key to remove. */
  label?: string;
  /** `evict-pods` / `drain`: only pods with these labels, equality-based `k=v,k2=v2`; default every pod on the node. */
  selector?: string;
  /** `evict-pods` / `drain`: only pods of this namespace; default every namespace. */
  namespace?: DnsLabel;
  /**
   * `evict-pods` / `drain`: how long an eviction a PodDisruptionBudget refuses is retried (every 5 s, as kubectl
   * drain); default 0s for evict-pods (one attempt), 60s for drain. The steps after it wait.
   */
  timeout?: Duration;
}

/** Nodes chosen by label selector. */
export interface TargetSelector {
  /** Equality-based label selector, `k=v,k2=v2`. */
  selector: string;
}

/** How long to observe after the fault. */
export interface Observe {
  /** recovered (default): until every workload recovered; duration: a fixed time. */
  until?: 'recovered' | 'duration';
  /** Fixed observation time after the fault; required with `until: duration`. */
  duration?: Duration;
  /** Give up after this long, default 10m. */
  timeout?: Duration;
  /** Extra time after recovery, default 5s. */
  settle?: Duration;
}
