// Fills in every default of a validated v1alpha1 experiment and converts durations to milliseconds.
// Timing defaults come from DEFAULT_TIMEOUT_SETTINGS (Kubernetes 1.34, sources cited in settings.ts).
import { parseDurationMs } from '../common/units.js';
import { DEFAULT_KUBERNETES_VERSION } from '../common/versions.js';
import { CLIENT_RATE_FLAGS, DEFAULT_TIMEOUT_SETTINGS, type TimeoutSettings } from './settings.js';
import {
  API_VERSION,
  DEFAULT_AGENT_IMAGE,
  KUBELET_FIELDS,
  DEFAULT_WORKLOAD_IMAGE,
  type FaultBackend,
  type ClusterSpec,
  type Experiment,
  type FaultSpec,
  type FaultTarget,
  type JobSpec,
  type ObserveSpec,
  type FailureScheduleSpec,
  type ProbeSpec,
  type StepArgs,
  type StepSpec,
  type TrafficProbeSpec,
  type WorkloadSpec,
} from './types.js';
import { stepArgsRule } from './steps.js';
import type * as v1 from './v1alpha1/types.js';

/** Default kind cluster name. */
export const DEFAULT_CLUSTER_NAME = 'rebootlab';
/** Default Kubernetes version: the newest supported patch (versions.json, lib/common/versions.ts). */
export { DEFAULT_KUBERNETES_VERSION };
/** Default worker count (kind workers or kwok nodes). */
export const DEFAULT_WORKERS = 2;
/** Default volume size, a Kubernetes quantity. */
export const DEFAULT_VOLUME_SIZE = '64Mi';
/** Default observation timeout after fault injection, milliseconds (10 minutes). */
export const DEFAULT_OBSERVE_TIMEOUT_MS = 600_000;
/** Default traffic prober rate, requests per second. */
export const DEFAULT_PROBE_RATE_PER_SECOND = 20;
/** Default traffic prober timeout, milliseconds (a client's typical short timeout). */
export const DEFAULT_PROBE_TIMEOUT_MS = 1_000;
/**
 * Default name a DNS prober resolves: the API server's Service, which every cluster has and CoreDNS's kubernetes
 * plugin answers from its own cache (no upstream), in the kubeadm default cluster domain `cluster.local`
 * (kubeadm's DefaultServiceDNSDomain, cmd/kubeadm/app/apis/kubeadm/v1beta4/defaults.go, v1.34.4).
 */
export const DEFAULT_DNS_PROBE_QUERY = 'kubernetes.default.svc.cluster.local';
/** Default settle time after recovery, milliseconds. */
export const DEFAULT_SETTLE_MS = 5_000;

/**
 * Resolves a validated user experiment: every default filled in, durations in milliseconds.
 * @throws Error if `user` was not validated first (a duration without unit reaching here is a bug).
 */
export function resolveExperiment(user: v1.Experiment): Experiment {
  return {
    apiVersion: API_VERSION,
    kind: 'Experiment',
    metadata: { name: user.metadata.name, description: user.metadata.description ?? '' },
    cluster: resolveCluster(user.cluster ?? {}),
    workloads: (user.workloads ?? []).map(resolveWorkload),
    fault: resolveFault(user.fault),
    steps: resolveSteps(user.steps ?? []),
    probes: (user.probes ?? []).map(resolveTrafficProbe),
    observe: resolveObserve(user.observe ?? {}),
    expect: [...(user.expect ?? [])],
  };
}

/** A traffic prober with its defaults; `service` is required for http probes (checked by validation). */
function resolveTrafficProbe(p: v1.TrafficProbe): TrafficProbeSpec {
  const base = { name: p.name, ratePerSecond: p.ratePerSecond ?? DEFAULT_PROBE_RATE_PER_SECOND, timeoutMs: ms(p.timeout, DEFAULT_PROBE_TIMEOUT_MS), node: p.node ?? null };
  if (p.type === 'dns') return { ...base, type: 'dns', query: p.query ?? DEFAULT_DNS_PROBE_QUERY, placeReplicaOnTarget: p.placeReplicaOnTarget ?? false };
  if (p.service === undefined) throw new Error(`probes.${p.name}: an http probe without service reached resolveExperiment (validation must reject it)`);
  return { ...base, type: 'http', service: p.service };
}

function resolveCluster(cluster: v1.Cluster): ClusterSpec {
  const provider = cluster.provider ?? 'kind';
  if (provider === 'existing') return resolveExistingCluster(cluster);
  return {
    provider,
    name: cluster.name ?? DEFAULT_CLUSTER_NAME,
    kubernetesVersion: cluster.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION,
    nodeImage: cluster.nodeImage ?? null,
    workers: (provider === 'kwok' ? cluster.nodes ?? cluster.workers : cluster.workers) ?? DEFAULT_WORKERS,
    zones: [...(cluster.zones ?? [])],
    workerLabels: { ...(cluster.workerLabels ?? {}) },
    settings: resolveSettings(cluster),
    extraArgs: {
      controllerManager: { ...clientRateFlags(cluster.controllerManager), ...cluster.controllerManager?.extraArgs },
      apiServer: { ...cluster.apiServer?.extraArgs },
      scheduler: { ...cluster.scheduler?.extraArgs },
    },
    kubeletExtraConfig: { ...cluster.kubelet?.extraConfig },
    kubeletFieldsSet: KUBELET_FIELDS.filter((field) => cluster.kubelet?.[field] !== undefined),
    existing: null,
  };
}

/**
 * kube-controller-manager's client rate limits as flags (`kube-api-qps`, `kube-api-burst`), from the named
 * settings kubeAPIQPS and kubeAPIBurst; absent ones stay unset (the component's defaults, 20 and 30). They travel
 * with extraArgs because both providers already pass those to the component; the settings carry them too, for the
 * analysis (the node lifecycle controller's writes share one throttled client, lib/analyze/predict-zones.ts).
 */
function clientRateFlags(cm: v1.ControllerManager | undefined): Record<string, string> {
  const flags: Record<string, string> = {};
  for (const [setting, flag] of CLIENT_RATE_FLAGS) if (cm?.[setting] !== undefined) flags[flag] = String(cm[setting]);
  return flags;
}

/**
 * An existing cluster: named after its context, settings from `cluster.assume` (what rebootlab reads back from
 * the cluster replaces them, lib/cluster/existing/settings.ts). The kubeconfig path stays as written until
 * anchorPaths (lib/spec/paths.ts) makes it absolute.
 */
function resolveExistingCluster(cluster: v1.Cluster): ClusterSpec {
  return {
    provider: 'existing',
    name: cluster.context ?? '',
    kubernetesVersion: DEFAULT_KUBERNETES_VERSION,
    nodeImage: null,
    workers: 0,
    zones: [],
    workerLabels: {},
    settings: resolveSettings(cluster.assume ?? {}),
    extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} },
    kubeletExtraConfig: {},
    kubeletFieldsSet: [],
    existing: { kubeconfig: cluster.kubeconfig ?? '', context: cluster.context ?? '' },
  };
}

/** kubeAPIQPS and kubeAPIBurst as written (only in `cluster.controllerManager`, not in `assume`), absent ones left out. */
function clientRateSettings(cm: v1.ControllerManager | v1.AssumedSettings['controllerManager'] | Record<string, never>): Pick<TimeoutSettings['controllerManager'], 'kubeAPIQPS' | 'kubeAPIBurst'> {
  const rates = cm as { kubeAPIQPS?: number; kubeAPIBurst?: number };
  const settings: Pick<TimeoutSettings['controllerManager'], 'kubeAPIQPS' | 'kubeAPIBurst'> = {};
  for (const [setting] of CLIENT_RATE_FLAGS) if (rates[setting] !== undefined) settings[setting] = rates[setting];
  return settings;
}

/** The timing settings of a user cluster section, defaults from DEFAULT_TIMEOUT_SETTINGS. Durations in milliseconds. */
export function resolveSettings(cluster: v1.Cluster | v1.AssumedSettings): TimeoutSettings {
  const d = DEFAULT_TIMEOUT_SETTINGS;
  const cm = cluster.controllerManager ?? {};
  const api = cluster.apiServer ?? {};
  const kubelet = cluster.kubelet ?? {};
  return {
    controllerManager: {
      nodeMonitorPeriodMs: ms(cm.nodeMonitorPeriod, d.controllerManager.nodeMonitorPeriodMs),
      nodeMonitorGracePeriodMs: ms(cm.nodeMonitorGracePeriod, d.controllerManager.nodeMonitorGracePeriodMs),
      nodeStartupGracePeriodMs: ms(cm.nodeStartupGracePeriod, d.controllerManager.nodeStartupGracePeriodMs),
      nodeEvictionRate: cm.nodeEvictionRate ?? d.controllerManager.nodeEvictionRate,
      secondaryNodeEvictionRate: cm.secondaryNodeEvictionRate ?? d.controllerManager.secondaryNodeEvictionRate,
      unhealthyZoneThreshold: cm.unhealthyZoneThreshold ?? d.controllerManager.unhealthyZoneThreshold,
      largeClusterSizeThreshold: cm.largeClusterSizeThreshold ?? d.controllerManager.largeClusterSizeThreshold,
      ...clientRateSettings(cm),
    },
    apiServer: {
      defaultNotReadyTolerationSeconds: api.defaultNotReadyTolerationSeconds ?? d.apiServer.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: api.defaultUnreachableTolerationSeconds ?? d.apiServer.defaultUnreachableTolerationSeconds,
    },
    kubelet: {
      nodeStatusUpdateFrequencyMs: ms(kubelet.nodeStatusUpdateFrequency, d.kubelet.nodeStatusUpdateFrequencyMs),
      // The kubelet defaults nodeStatusReportFrequency to nodeStatusUpdateFrequency when only that one is set
      // (pkg/kubelet/apis/config/v1beta1/defaults.go SetDefaults_KubeletConfiguration, v1.34.4), else to 5m.
      nodeStatusReportFrequencyMs: ms(kubelet.nodeStatusReportFrequency, kubelet.nodeStatusUpdateFrequency !== undefined ? ms(kubelet.nodeStatusUpdateFrequency, 0) : d.kubelet.nodeStatusReportFrequencyMs),
      nodeLeaseDurationSeconds: kubelet.nodeLeaseDurationSeconds ?? d.kubelet.nodeLeaseDurationSeconds,
      shutdownGracePeriodMs: ms(kubelet.shutdownGracePeriod, d.kubelet.shutdownGracePeriodMs),
      shutdownGracePeriodCriticalPodsMs: ms(kubelet.shutdownGracePeriodCriticalPods, d.kubelet.shutdownGracePeriodCriticalPodsMs),
    },
  };
}

function resolveWorkload(workload: v1.Workload): WorkloadSpec {
  if (workload.manifest !== undefined) return manifestPlaceholder(workload.name, workload.manifest);
  if (workload.selector !== undefined) return selectedPods(workload.name, workload.namespace!, workload.selector);
  const replicas = workload.kind === 'DaemonSet' ? null : workload.kind === 'Pod' ? 1 : (workload.replicas ?? 1);
  const pdb = workload.podDisruptionBudget;
  return {
    name: workload.name,
    kind: workload.kind!,
    replicas,
    placement: workload.placement ?? 'target',
    image: workload.image ?? DEFAULT_WORKLOAD_IMAGE,
    tolerations: workload.tolerations ? workload.tolerations.map((t) => ({ ...t })) : null,
    requiredNodeLabels: { ...(workload.requiredNodeLabels ?? {}) },
    volume: workload.volume ? { type: workload.volume.type, size: workload.volume.size ?? DEFAULT_VOLUME_SIZE } : null,
    dataProbe: workload.dataProbe ?? false,
    podDisruptionBudget: pdb ? { minAvailable: pdb.minAvailable ?? null, maxUnavailable: pdb.maxUnavailable ?? null } : null,
    service: workload.service ? { port: workload.service.port } : null,
    readinessProbe: workload.readinessProbe ? resolveProbe(workload.readinessProbe) : null,
    livenessProbe: workload.livenessProbe ? resolveProbe(workload.livenessProbe) : null,
    failReadiness: resolveSchedule(workload.failReadiness),
    failLiveness: resolveSchedule(workload.failLiveness),
    terminationGracePeriodSeconds: workload.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
    manifest: null,
    job: workload.kind === 'Job' ? resolveJob(workload.job ?? {}, replicas ?? 1) : null,
    selected: null,
  };
}

/** Kubernetes' Job backoffLimit default (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-backoff-failure-policy). */
export const DEFAULT_JOB_BACKOFF_LIMIT = 6;

/**
 * Kubernetes' Job backoffLimit default when backoffLimitPerIndex is set: math.MaxInt32, so only the per-index limit
 * fails indexes (pkg/apis/batch/v1/defaults.go SetDefaults_Job, the same in v1.34.4, v1.35.4, v1.36.3 and v1.37.2).
 */
export const JOB_BACKOFF_LIMIT_WITH_PER_INDEX = 2147483647;

function resolveJob(job: v1.JobSettings, parallelism: number): JobSpec {
  const perIndex = job.backoffLimitPerIndex ?? null;
  return {
    completions: job.completions ?? parallelism,
    backoffLimit: job.backoffLimit ?? (perIndex !== null ? JOB_BACKOFF_LIMIT_WITH_PER_INDEX : DEFAULT_JOB_BACKOFF_LIMIT),
    podReplacementPolicy: job.podReplacementPolicy ?? null,
    podFailurePolicy: job.podFailurePolicy ? { rules: job.podFailurePolicy.rules.map((r) => structuredClone(r) as unknown as Record<string, unknown>) } : null,
    completionMode: job.completionMode ?? 'NonIndexed',
    backoffLimitPerIndex: perIndex,
    maxFailedIndexes: job.maxFailedIndexes ?? null,
  };
}

/**
 * A manifest workload before its file is read: lib/spec/manifests.ts replaces it with one workload per controller
 * in the file (load.ts, once the path is known relative to the experiment file).
 */
function manifestPlaceholder(name: string, file: string): WorkloadSpec {
  return {
    name, kind: 'Deployment', replicas: null, placement: 'any', image: '', tolerations: null, requiredNodeLabels: {}, volume: null, dataProbe: false,
    podDisruptionBudget: null, service: null, readinessProbe: null, livenessProbe: null, failReadiness: null, failLiveness: null,
    terminationGracePeriodSeconds: DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, manifest: { file, objects: [] }, job: null, selected: null,
  };
}

/**
 * Pods already running, chosen by `namespace` and equality-based `selector` (`k=v,k2=v2`, validated). Kind and
 * replicas are placeholders: the pods' controllers give them at the start of a run (lib/workloads/selected.ts).
 */
function selectedPods(name: string, namespace: string, selector: string): WorkloadSpec {
  return {
    name, kind: 'Deployment', replicas: null, placement: 'any', image: '', tolerations: null, requiredNodeLabels: {}, volume: null, dataProbe: false,
    podDisruptionBudget: null, service: null, readinessProbe: null, livenessProbe: null, failReadiness: null, failLiveness: null,
    terminationGracePeriodSeconds: DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, manifest: null, job: null,
    selected: { namespace, matchLabels: parseEqualitySelector(selector) },
  };
}

/** `k=v,k2==v2` → `{k: 'v', k2: 'v2'}` (blanks trimmed); the text was validated (semantic-check.ts). */
export function parseEqualitySelector(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const part of text.split(',')) {
    const [key, value] = part.split(/==?/, 2).map((x) => x.trim());
    if (key) labels[key] = value ?? '';
  }
  return labels;
}

/**
 * Pod `terminationGracePeriodSeconds` when unset, seconds: 30, the API default
 * (https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#lifecycle).
 */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

/**
 * Probe fields when unset: periodSeconds 10, timeoutSeconds 1, failureThreshold 3, successThreshold 1,
 * initialDelaySeconds 0 — the core/v1 Probe defaults
 * (https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#Probe; SetDefaults_Probe in
 * pkg/apis/core/v1/defaults.go upstream).
 */
export const DEFAULT_PROBE: Readonly<ProbeSpec> = { handler: 'httpGet', periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1, initialDelaySeconds: 0 };

function resolveProbe(probe: v1.Probe): ProbeSpec {
  return {
    handler: probe.handler ?? DEFAULT_PROBE.handler,
    periodSeconds: probe.periodSeconds ?? DEFAULT_PROBE.periodSeconds,
    timeoutSeconds: probe.timeoutSeconds ?? DEFAULT_PROBE.timeoutSeconds,
    failureThreshold: probe.failureThreshold ?? DEFAULT_PROBE.failureThreshold,
    successThreshold: probe.successThreshold ?? DEFAULT_PROBE.successThreshold,
    initialDelaySeconds: probe.initialDelaySeconds ?? DEFAULT_PROBE.initialDelaySeconds,
  };
}

function resolveSchedule(schedule: v1.FailureSchedule | undefined): FailureScheduleSpec | null {
  if (!schedule) return null;
  return { afterMs: ms(schedule.after, 0), forMs: schedule.for === undefined ? null : ms(schedule.for, 0), everyMs: schedule.every === undefined ? null : ms(schedule.every, 0) };
}

function resolveFault(fault: v1.Fault): FaultSpec {
  return {
    type: fault.type,
    target: resolveTarget(fault.target),
    count: fault.count ?? 1,
    durationMs: fault.duration === undefined ? null : ms(fault.duration, 0),
    staggerMs: ms(fault.stagger, 0),
    scope: fault.scope ?? 'node',
    allowControlPlane: fault.allowControlPlane ?? false,
    backend: resolveBackend(fault.backend, fault.duration === undefined ? null : ms(fault.duration, 0)),
  };
}

/** The fault backend as written (the agent heals the node after `durationMs`); the agent image defaults to DEFAULT_AGENT_IMAGE. `on` is checked present by validation. */
function resolveBackend(backend: v1.Fault['backend'], durationMs: number | null): FaultBackend {
  if (backend === undefined) return { kind: 'provider' };
  if (backend === 'agent') return { kind: 'agent', image: DEFAULT_AGENT_IMAGE, healAfterMs: durationMs };
  if ('agent' in backend) return { kind: 'agent', image: backend.agent.image ?? DEFAULT_AGENT_IMAGE, healAfterMs: durationMs };
  return { kind: 'command', off: backend.command.off, on: backend.command.on ?? '' };
}

/** Steps sorted by time (a stable sort keeps file order for ties), each with its action's arguments. */
function resolveSteps(steps: v1.Step[]): StepSpec[] {
  return steps
    .map((step) => ({ afterMs: ms(step.after, 0), action: step.action, node: step.node ?? null, args: resolveStepArgs(step) }))
    .sort((a, b) => a.afterMs - b.afterMs);
}

/** The arguments of a (validated) step: `label` split at its first `=`, the pod selection and retry time of evictions. */
function resolveStepArgs(step: v1.Step): StepArgs {
  const rule = stepArgsRule(step.action);
  if (rule === undefined) return {};
  if ('label' in rule) {
    const text = step.label ?? '';
    const at = text.indexOf('=');
    return { label: at < 0 ? { key: text, value: '' } : { key: text.slice(0, at), value: text.slice(at + 1) } };
  }
  return {
    pods: { namespace: step.namespace ?? null, matchLabels: step.selector === undefined ? {} : parseEqualitySelector(step.selector) },
    retryForMs: ms(step.timeout, rule.pods.defaultRetryMs),
  };
}

/** Turns a user target (node name, `worker-with-most-pods`, `{selector: "k=v,..."}`, or nothing) into a FaultTarget. */
export function resolveTarget(target: v1.Fault['target']): FaultTarget {
  if (target === undefined || target === 'worker-with-most-pods') return { kind: 'worker-with-most-pods' };
  if (typeof target === 'string') return { kind: 'node', node: target };
  return { kind: 'selector', selector: parseEqualitySelector(target.selector) };
}

function resolveObserve(observe: v1.Observe): ObserveSpec {
  const until = observe.until ?? 'recovered';
  return {
    until,
    durationMs: until === 'duration' && observe.duration !== undefined ? ms(observe.duration, 0) : null,
    timeoutMs: ms(observe.timeout, DEFAULT_OBSERVE_TIMEOUT_MS),
    settleMs: ms(observe.settle, DEFAULT_SETTLE_MS),
  };
}

function ms(duration: string | undefined, fallbackMs: number): number {
  if (duration === undefined) return fallbackMs;
  const parsed = parseDurationMs(duration);
  if (parsed === null) throw new Error(`unvalidated duration ${JSON.stringify(duration)}`);
  return parsed;
}
