// Checks the schema cannot express: cross-field rules, fault requirements, control-plane targets,
// removed or shadowed flags, duplicate names, and the expectation grammar.
import { hasControlOrBidi, type InputIssue } from '../common/errors.js';
import { parseDurationMs } from '../common/units.js';
import { cannotInjectMessage, FAULT_TYPES, FAULTS, faultRecord, injectableFaultTypes, isFaultType, SCOPED_FAULT_TYPES, takesScope, type FaultRecord, type PartitionScope } from './faults.js';
import { PROVIDERS, type ProviderCapabilities, type ProviderName } from './providers.js';
import { DEFAULT_TIMEOUT_SETTINGS, heartbeatIntervalMs, statusPostIntervalMs } from './settings.js';
import {
  NAMED_KUBELET_FIELDS, NAMED_SETTING_FLAGS, REMOVED_FLAGS, SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT, isSupportedKubernetesVersion,
  minorVersion,
} from './flag-rules.js';
import { DEFAULT_KUBERNETES_VERSION } from './defaults.js';
import { WORKLOAD_CONTAINER_NAME } from './types.js';
import { parseExpectation } from './expectation.js';
import { checkExistingCluster, checkManifestWorkloads } from './existing-check.js';
import { clusterNodeNames } from './node-names.js';
import { formatPath, issueAt, type FieldPath, type SourceDocument } from './source.js';
import { checkSteps } from './step-check.js';
import { labelKeyProblem, labelValueProblem, PROTECTED_NODE_LABELS } from './label-syntax.js';

type Obj = Record<string, unknown>;
/**
 * Reports one issue at `path`. `reads` marks a rule that combines fields (critical pods ≤ grace period, duration ≤
 * timeout): the fields it read besides its own value at `path`, so that it can be dropped when one of them, or that
 * value, is itself refused.
 */
type Report = (path: FieldPath, message: string, atKey?: boolean, reads?: readonly FieldPath[]) => void;

/**
 * Runs every semantic check on the document `data` (plain JS); tolerant of values the schema check rejects.
 * `refused`: dotted paths ({@link formatPath}) the schema check already has an issue at, e.g.
 * `cluster.kubelet.shutdownGracePeriod` for `30x`.
 * @returns the issues in check order; a rule that combines fields is left out when a field it reads is in `refused`
 *   or has an issue of its own here: a bad value is reported once, at its root, not again by every rule reading it.
 */
export function checkSemantics(source: SourceDocument, data: unknown, refused: ReadonlySet<string> = new Set()): InputIssue[] {
  const found: { issue: InputIssue; reads?: string[] }[] = [];
  const report: Report = (path, message, atKey, reads) => found.push({ issue: issueAt(source, path, message, { atKey }), reads: reads && [path, ...reads].map(formatPath) });
  if (isObj(data)) runChecks(data, report);
  // A derived rule reading a refused value (read as absent or a default) would only repeat the root cause, wrongly.
  const roots = new Set([...refused, ...found.filter((f) => f.reads === undefined).map((f) => f.issue.path)]);
  return found.filter((f) => !f.reads?.some((p) => roots.has(p))).map((f) => f.issue);
}

function runChecks(data: Obj, report: Report): void {
  const cluster = isObj(data.cluster) ? data.cluster : {};
  checkCluster(cluster, report);
  checkWorkloads(data.workloads, String(cluster.provider ?? 'kind'), report);
  if (isObj(data.fault)) checkFault(data.fault, cluster, report);
  if (isObj(data.observe)) checkObserve(data.observe, isObj(data.fault) ? data.fault : {}, report);
  checkSteps(data.steps, isObj(data.fault) ? data.fault : {}, isObj(data.observe) ? data.observe : {}, cluster, report);
  checkExpectations(data.expect, data.workloads, cluster, report, data.probes);
  checkProbes(data.probes, data.workloads, cluster, report, data.fault);
  if (isObj(data.fault)) checkFaultOnProvider(data.fault, cluster, report);
  if (cluster.provider === 'kwok') checkSimulated(data, report);
  checkExistingCluster(cluster, isObj(data.fault) ? data.fault : {}, report);
  checkManifestWorkloads(data.workloads, report);
}

/**
 * A fault type needs a provider that can do one of its primitive sets (lib/spec/faults.ts, lib/spec/providers.ts):
 * e.g. simulated nodes (kwok) have no machine, kubelet process or runtime, so a reboot, kubelet restart or runtime
 * stop cannot be expressed there (the other faults become heartbeat loss). Providers whose nodes are reached through
 * a fault backend (existing) are checked per backend (lib/spec/existing-check.ts). Reject before any cluster is created.
 */
function checkFaultOnProvider(fault: Obj, cluster: Obj, report: Report): void {
  const provider = cluster.provider ?? 'kind';
  if (typeof provider !== 'string' || !Object.hasOwn(PROVIDERS, provider) || !isFaultType(fault.type)) return; // the schema check names them
  const capabilities: ProviderCapabilities = PROVIDERS[provider as ProviderName];
  if (capabilities.backends !== undefined) return;
  if (!injectableFaultTypes(provider as ProviderName).includes(fault.type)) report(['fault', 'type'], cannotInjectMessage(fault.type, provider as ProviderName));
  else if (fault.type === 'shutdown') checkGracefulShutdown(cluster, report);
}

/**
 * A graceful shutdown needs the kubelet's graceful node shutdown: without shutdownGracePeriod the kubelet takes no
 * inhibitor lock, rebootlab starts no logind (lib/cluster/kind/logind.ts) and `systemctl poweroff` is a plain power-off.
 */
function checkGracefulShutdown(cluster: Obj, report: Report): void {
  const kubelet = isObj(cluster.kubelet) ? cluster.kubelet : {};
  const grace = durationMs(kubelet.shutdownGracePeriod);
  if (grace === null || grace <= 0) {
    report(['fault', 'type'], 'shutdown is graceful only with the kubelet\'s graceful node shutdown; set cluster.kubelet.shutdownGracePeriod (e.g. 30s)', false, [['cluster', 'kubelet', 'shutdownGracePeriod']]);
  }
}

/**
 * Simulated nodes (kwok) have no disk and run no container: volumes and data probes have nothing to write to.
 * Reject before any cluster is created rather than failing mid-run.
 */
function checkSimulated(data: Obj, report: Report): void {
  if (Array.isArray(data.workloads)) {
    data.workloads.forEach((w, i) => {
      if (!isObj(w)) return;
      if (w.volume !== undefined) report(['workloads', i, 'volume'], 'simulated nodes (provider kwok) have no disk; remove the volume or use provider kind');
      for (const probe of ['readinessProbe', 'livenessProbe', 'failReadiness', 'failLiveness']) {
        if (w[probe] !== undefined) report(['workloads', i, probe], 'simulated pods (provider kwok) run no container to probe; remove it or use provider kind');
      }
      if (w.dataProbe === true) report(['workloads', i, 'dataProbe'], 'simulated pods (provider kwok) run no container to probe; remove dataProbe or use provider kind');
    });
  }
  const cluster = isObj(data.cluster) ? data.cluster : {};
  if (cluster.nodeImage !== undefined) report(['cluster', 'nodeImage'], 'is for provider kind; kwok runs no node image');
}

/**
 * Whether `image` can be an image reference given to Docker, kind or a pod (`workloads[].image`, `cluster.nodeImage`):
 * not empty (an empty nodeImage silently booted the default image), no space, control or bidirectional formatting
 * character, and not starting with "-" (it would be read as an option of docker or kind).
 */
function isImageReference(image: string): boolean {
  return image !== '' && !/\s/.test(image) && !hasControlOrBidi(image) && !image.startsWith('-');
}
const IMAGE_REFERENCE_PROBLEM = 'is not an image reference (empty, starting with "-", or holding a space, control or bidirectional formatting character), e.g. registry.example/app:v1';

/**
 * Most kind workers an experiment may ask for. Each node is a privileged container running systemd, containerd
 * and a kubelet (≈ 0.3–0.5 GiB and a steady share of a core); past about ten, timings measure the host's overload.
 */
export const MAX_KIND_WORKERS = 10;

/**
 * A map of labels (`cluster.workerLabels`, `workloads[].requiredNodeLabels`): every key and value valid; labels put on
 * nodes (`protect`) never a key the kubelet sets or rebootlab reads.
 */
function checkLabelMap(labels: unknown, path: FieldPath, report: Report, protect: boolean): void {
  if (!isObj(labels)) return;
  for (const [key, value] of Object.entries(labels)) {
    const problem = labelKeyProblem(key) ?? (typeof value === 'string' ? labelValueProblem(value) : null);
    if (problem) report([...path, key], problem, true);
    else if (protect && PROTECTED_NODE_LABELS.includes(key)) report([...path, key], `${key} is set by the kubelet or read by rebootlab; use a label of your own`, true);
  }
}

/**
 * A failure schedule of the workload server: `every` needs a `for` shorter than it (the server refuses to start
 * otherwise), and one that fails from the start for ever would keep the pods from ever becoming Ready.
 */
function checkFailureSchedule(schedule: unknown, path: FieldPath, report: Report): void {
  if (!isObj(schedule)) return;
  const after = durationMs(schedule.after);
  const forMs = durationMs(schedule.for);
  const every = durationMs(schedule.every);
  if (every !== null && (forMs === null || forMs >= every)) report([...path, 'every'], 'needs for: shorter than every (how long each failure lasts)', false, [[...path, 'for']]);
  if (after === 0 && forMs === null) report([...path, 'after'], 'failing from the start for ever, the pods never become Ready and the workloads never deploy; start later (e.g. after: 30s) or give for:', false, [[...path, 'for']]);
  if (forMs === 0 || every === 0) report([...path, forMs === 0 ? 'for' : 'every'], 'must be greater than 0s');
}

function checkCluster(cluster: Obj, report: Report): void {
  const provider = cluster.provider ?? 'kind';
  checkLabelMap(cluster.workerLabels, ['cluster', 'workerLabels'], report, true);
  if (provider === 'kind' && cluster.nodes !== undefined) report(['cluster', 'nodes'], 'is for provider kwok; with kind use cluster.workers');
  if (typeof cluster.nodeImage === 'string' && !isImageReference(cluster.nodeImage)) report(['cluster', 'nodeImage'], IMAGE_REFERENCE_PROBLEM);
  if (provider === 'kind' && typeof cluster.workers === 'number' && Number.isFinite(cluster.workers) && cluster.workers > MAX_KIND_WORKERS) {
    report(['cluster', 'workers'], `${cluster.workers} kind nodes is more than one machine runs well (each is a container with systemd, containerd and a kubelet); use at most ${MAX_KIND_WORKERS}, or provider kwok for simulated nodes`);
  }
  // With kwok, `workers` also counts the simulated workers, so one file runs on both providers (--set cluster.provider=kwok).
  if (provider === 'kwok' && cluster.workers !== undefined && cluster.nodes !== undefined) {
    report(['cluster', 'workers'], 'give either cluster.workers or cluster.nodes with provider kwok, not both');
  }
  const version = typeof cluster.kubernetesVersion === 'string' ? cluster.kubernetesVersion : DEFAULT_KUBERNETES_VERSION;
  const minor = minorVersion(version);
  if (typeof cluster.kubernetesVersion === 'string' && /^v[0-9]+\.[0-9]+\.[0-9]+$/.test(version) && !isSupportedKubernetesVersion(version)) {
    // One patch per minor is supported (versions.json): name it when the user asked for another patch of that minor.
    const samePatchLine = SUPPORTED_KUBERNETES_VERSIONS.find((v) => minorVersion(v) === minor);
    report(['cluster', 'kubernetesVersion'], `rebootlab cannot run Kubernetes ${version}; it runs ${SUPPORTED_KUBERNETES_VERSIONS_TEXT}${samePatchLine ? ` (for v1.${minor} use ${samePatchLine})` : ''}`);
  }
  // Node names are DNS-1123 labels (at most 63 characters): `<name>-control-plane` must be one.
  if (provider !== 'existing' && typeof cluster.name === 'string' && cluster.name.length + '-control-plane'.length > 63) {
    report(['cluster', 'name'], `is ${cluster.name.length} characters; node "${cluster.name}-control-plane" would exceed the 63 characters of a node name, so use at most ${63 - '-control-plane'.length}`);
  }
  for (const component of ['controllerManager', 'apiServer', 'scheduler'] as const) {
    const section = cluster[component];
    if (!isObj(section) || !isObj(section.extraArgs)) continue;
    for (const [flag, value] of Object.entries(section.extraArgs)) {
      const path = ['cluster', component, 'extraArgs', flag];
      const bare = flag.replace(/^-+/, '');
      if (!FLAG_NAME.test(bare)) {
        report(path, 'is not a flag name (lowercase letters, digits and "-", e.g. node-monitor-period)', true);
        continue;
      }
      if (typeof value === 'string' && hasControlOrBidi(value)) report(path, 'holds a control or bidirectional formatting character (a line break, tab, escape or U+202E); a flag value is one line of text shown as written');
      if (bare !== flag) report(path, `write the flag name without dashes: "${bare}"`, true);
      const removed = REMOVED_FLAGS[component].find((r) => r.flag === bare);
      if (removed && minor !== null && minor >= removed.removedInMinor) {
        report(path, `--${bare} was removed in Kubernetes v1.${removed.removedInMinor} (cluster uses ${version}); ${removed.instead}`, true);
      }
      const named = NAMED_SETTING_FLAGS[component][bare];
      if (named) report(path, `--${bare} has a named setting; use ${named}`, true);
    }
  }
  const kubelet = cluster.kubelet;
  if (isObj(kubelet) && isObj(kubelet.extraConfig)) {
    for (const field of Object.keys(kubelet.extraConfig)) {
      if (!KUBELET_FIELD_NAME.test(field)) {
        report(['cluster', 'kubelet', 'extraConfig', field], 'is not a KubeletConfiguration field name (letters and digits, e.g. maxPods)', true);
        continue;
      }
      const named = NAMED_KUBELET_FIELDS[field];
      if (named) report(['cluster', 'kubelet', 'extraConfig', field], `has a named setting; use ${named}`, true);
    }
  }
  const cm = isObj(cluster.controllerManager) ? cluster.controllerManager : {};
  for (const field of ['nodeMonitorPeriod', 'nodeMonitorGracePeriod', 'nodeStartupGracePeriod']) {
    if (durationMs(cm[field]) === 0) report(['cluster', 'controllerManager', field], 'must be greater than 0s');
  }
  checkMonitorPeriod(cm, report);
  const kl = isObj(kubelet) ? kubelet : {};
  for (const field of ['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency']) {
    if (durationMs(kl[field]) === 0) report(['cluster', 'kubelet', field], 'must be greater than 0s');
  }
  checkHeartbeat(cm, kl, report);
  checkShutdownPeriods(kl, report);
}

/**
 * The kubelet refuses its configuration, and the node never joins, when shutdownGracePeriodCriticalPods exceeds
 * shutdownGracePeriod or either is between 0 and 1 s (k8s.io/kubernetes v1.37.2
 * pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration): refused here instead.
 */
function checkShutdownPeriods(kl: Obj, report: Report): void {
  const graceMs = durationMs(kl.shutdownGracePeriod);
  const criticalMs = durationMs(kl.shutdownGracePeriodCriticalPods);
  const rule = 'the kubelet refuses it (ValidateKubeletConfiguration)';
  for (const [field, valueMs] of [['shutdownGracePeriod', graceMs], ['shutdownGracePeriodCriticalPods', criticalMs]] as const) {
    if (valueMs !== null && valueMs > 0 && valueMs < 1000) report(['cluster', 'kubelet', field], `must be 0s or at least 1s: ${rule}`);
  }
  if (criticalMs !== null && criticalMs > (graceMs ?? 0)) {
    report(['cluster', 'kubelet', 'shutdownGracePeriodCriticalPods'], `(${criticalMs / 1000}s) must not exceed shutdownGracePeriod (${(graceMs ?? 0) / 1000}s), the part of it reserved for critical pods: ${rule}`, false, [['cluster', 'kubelet', 'shutdownGracePeriod']]);
  }
}

/** A command-line flag name (after any leading dashes): kube-controller-manager, kube-apiserver and kube-scheduler flags are all lowercase words joined by "-". */
const FLAG_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A KubeletConfiguration (v1beta1) field name: lowerCamelCase. */
const KUBELET_FIELD_NAME = /^[a-z][A-Za-z0-9]*$/;

/**
 * The node lifecycle controller looks at every node once per --node-monitor-period
 * (k8s.io/kubernetes v1.34.4 pkg/controller/nodelifecycle/node_lifecycle_controller.go Run: wait.UntilWithContext(monitorNodeHealth,
 * nodeMonitorPeriod)), and marks a node NotReady at the first pass after --node-monitor-grace-period without a
 * heartbeat. A period as long as the grace period makes detection wait for the next pass, up to a whole period
 * later, so the grace period no longer decides it: the period must be shorter.
 */
function checkMonitorPeriod(cm: Obj, report: Report): void {
  // Only a period the file sets: a grace period shorter than the default 5s period already breaks the heartbeat rule.
  const periodMs = durationMs(cm.nodeMonitorPeriod);
  const graceMs = durationMs(cm.nodeMonitorGracePeriod) ?? DEFAULT_TIMEOUT_SETTINGS.controllerManager.nodeMonitorGracePeriodMs;
  if (periodMs === null || periodMs <= 0 || graceMs <= 0 || periodMs < graceMs) return;
  report(['cluster', 'controllerManager', 'nodeMonitorPeriod'], `nodeMonitorPeriod (${periodMs / 1000}s) must be shorter than nodeMonitorGracePeriod (${graceMs / 1000}s): the controller checks each node once per period, so a longer one, not the grace period, would decide when a node is NotReady`, false, [['cluster', 'controllerManager', 'nodeMonitorGracePeriod']]);
}

/**
 * The heartbeat rule: nodeMonitorGracePeriod must be longer than the longest silence between two heartbeats of a
 * healthy kubelet plus nodeMonitorPeriod; otherwise the node lifecycle controller marks healthy nodes Unknown
 * between two heartbeats. Why: it restarts a node's grace period at the first monitor pass (every
 * nodeMonitorPeriod) that sees a heartbeat, a newer Lease renewTime or a changed Ready lastHeartbeatTime
 * (pkg/controller/nodelifecycle/node_lifecycle_controller.go, tryUpdateNodeHealth, v1.34.4), so two passes that see
 * consecutive heartbeats are up to (heartbeat interval + nodeMonitorPeriod) apart. The heartbeat interval is the
 * smaller of the Lease renew interval (0.25 × nodeLeaseDurationSeconds) and the unchanged status post interval
 * (nodeStatusReportFrequency rounded up to nodeStatusUpdateFrequency), each + 4 % jitter
 * (lib/spec/settings.ts heartbeatIntervalMs). nodeStatusUpdateFrequency alone says nothing: with node Leases the
 * kubelet need not post its status for minutes. The issue is reported at the first of the involved settings the file sets.
 */
function checkHeartbeat(cm: Obj, kl: Obj, report: Report): void {
  const d = DEFAULT_TIMEOUT_SETTINGS;
  const graceMs = durationMs(cm.nodeMonitorGracePeriod) ?? d.controllerManager.nodeMonitorGracePeriodMs;
  const monitorMs = durationMs(cm.nodeMonitorPeriod) ?? d.controllerManager.nodeMonitorPeriodMs;
  const updateMs = durationMs(kl.nodeStatusUpdateFrequency);
  // The kubelet's own defaulting (pkg/kubelet/apis/config/v1beta1/defaults.go): report = update when only update is set.
  const reportMs = durationMs(kl.nodeStatusReportFrequency) ?? updateMs ?? d.kubelet.nodeStatusReportFrequencyMs;
  const leaseSeconds = typeof kl.nodeLeaseDurationSeconds === 'number' ? kl.nodeLeaseDurationSeconds : d.kubelet.nodeLeaseDurationSeconds;
  // A monitor period not shorter than the grace period has its own, clearer rule (the monitor-period rule above).
  if (graceMs <= 0 || leaseSeconds <= 0 || (cm.nodeMonitorPeriod !== undefined && monitorMs >= graceMs)) return;
  const kubelet = { ...d.kubelet, nodeStatusUpdateFrequencyMs: updateMs ?? d.kubelet.nodeStatusUpdateFrequencyMs, nodeStatusReportFrequencyMs: reportMs, nodeLeaseDurationSeconds: leaseSeconds };
  const heartbeatMs = heartbeatIntervalMs(kubelet);
  if (graceMs > heartbeatMs + monitorMs) return;
  const path = cm.nodeMonitorGracePeriod !== undefined ? ['cluster', 'controllerManager', 'nodeMonitorGracePeriod']
    : kl.nodeLeaseDurationSeconds !== undefined ? ['cluster', 'kubelet', 'nodeLeaseDurationSeconds']
      : cm.nodeMonitorPeriod !== undefined ? ['cluster', 'controllerManager', 'nodeMonitorPeriod'] : ['cluster', 'kubelet', 'nodeStatusReportFrequency'];
  const seconds = (v: number) => `${Math.round(v) / 1000}s`;
  const from = heartbeatMs === statusPostIntervalMs(kubelet)
    ? `status posts every ${seconds(heartbeatMs)}: nodeStatusReportFrequency ${seconds(reportMs)} checked every nodeStatusUpdateFrequency ${seconds(kubelet.nodeStatusUpdateFrequencyMs)}, + 4% jitter`
    : `Lease renewals every ${seconds(heartbeatMs)}: 0.25 × nodeLeaseDurationSeconds ${leaseSeconds}, + 4% jitter`;
  const reads: FieldPath[] = [
    ...['nodeMonitorGracePeriod', 'nodeMonitorPeriod'].map((f) => ['cluster', 'controllerManager', f]),
    ...['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'nodeLeaseDurationSeconds'].map((f) => ['cluster', 'kubelet', f]),
  ];
  report(path, `nodeMonitorGracePeriod (${seconds(graceMs)}) must be longer than the longest silence between two heartbeats of a healthy node (${from}) plus nodeMonitorPeriod (${seconds(monitorMs)}), ${seconds(heartbeatMs + monitorMs)} in all, or healthy nodes are marked NotReady between heartbeats; raise the grace period or lower nodeLeaseDurationSeconds`, false, reads);
}

function checkWorkloads(workloads: unknown, provider: string, report: Report): void {
  if (!Array.isArray(workloads)) return;
  const seen = new Map<string, number>();
  workloads.forEach((workload, index) => {
    if (!isObj(workload)) return;
    const at = (field: string): FieldPath => ['workloads', index, field];
    if (typeof workload.name === 'string') {
      const first = seen.get(workload.name);
      if (first !== undefined) report(at('name'), `duplicate workload name "${workload.name}" (also workloads[${first}])`);
      else seen.set(workload.name, index);
    }
    if ((workload.kind === 'DaemonSet' || workload.kind === 'Pod') && workload.replicas !== undefined) {
      report(at('replicas'), `is not allowed for a ${workload.kind} (${workload.kind === 'Pod' ? 'always one pod' : 'one pod per node'})`);
    }
    if (workload.dataProbe === true && workload.volume === undefined) report(at('dataProbe'), 'needs a volume to write the marker to; add workloads[].volume');
    checkLabelMap(workload.requiredNodeLabels, at('requiredNodeLabels'), report, false);
    for (const field of ['failReadiness', 'failLiveness'] as const) checkFailureSchedule(workload[field], at(field), report);
    if (workload.failLiveness !== undefined && workload.livenessProbe === undefined) report(at('failLiveness'), 'needs a livenessProbe to fail; add workloads[].livenessProbe');
    const volumeType = isObj(workload.volume) ? workload.volume.type : undefined;
    if ((volumeType === 'pvc' || volumeType === 'attachable') && workload.kind !== 'StatefulSet' && workload.kind !== 'Pod' && workload.kind !== 'Deployment') {
      report([...at('volume'), 'type'], `${volumeType} is supported for StatefulSet, Deployment and Pod, not ${String(workload.kind)}`);
    }
    // rebootlab deploys its CSI driver (an image of its node image) only into kind clusters it builds; kwok nodes have
    // no disk at all (checkSimulated says so).
    if (volumeType === 'attachable' && provider === 'existing') {
      report([...at('volume'), 'type'], 'attachable volumes come from rebootlab\'s own CSI driver, which it deploys only on kind clusters it creates; use provider kind, or a workload manifest with your cluster\'s own StorageClass');
    }
    const liveness = workload.livenessProbe;
    if (isObj(liveness) && liveness.successThreshold !== undefined && liveness.successThreshold !== 1) {
      report([...at('livenessProbe'), 'successThreshold'], `must be 1 for a liveness probe (Kubernetes API rule), got ${JSON.stringify(liveness.successThreshold)}`);
    }
    checkJob(workload, at, report);
    const pdb = workload.podDisruptionBudget;
    if (isObj(pdb) && (pdb.minAvailable === undefined) === (pdb.maxUnavailable === undefined)) {
      report(at('podDisruptionBudget'), 'give exactly one of minAvailable and maxUnavailable');
    }
    if (isObj(pdb)) {
      for (const field of ['minAvailable', 'maxUnavailable']) {
        // policy/v1 IntOrString: an int32, or a percentage of at most 100% (k8s.io/kubernetes v1.34.4 pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec, IsNotMoreThan100Percent).
        const value = pdb[field];
        const ok = value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= INT32_MAX) || (typeof value === 'string' && /^[0-9]{1,3}%$/.test(value) && Number(value.slice(0, -1)) <= 100);
        if (!ok) report([...at('podDisruptionBudget'), field], `expected an integer ≥ 0 or a percentage from 0% to 100% like "50%", got ${JSON.stringify(value)}`);
      }
    }
    if (typeof workload.image === 'string' && !isImageReference(workload.image)) report(at('image'), IMAGE_REFERENCE_PROBLEM);
    if (Array.isArray(workload.tolerations)) {
      workload.tolerations.forEach((toleration, t) => {
        if (isObj(toleration)) checkToleration(toleration, [...at('tolerations'), t], report);
      });
    }
  });
}

/** Largest int32, the range of Kubernetes' int32 fields and IntOrString integers. */
const INT32_MAX = 2_147_483_647;

/**
 * The API server's toleration rules (k8s.io/kubernetes v1.34.4 pkg/apis/core/validation/validation.go ValidateTolerations):
 * `operator: Exists` takes no value; an empty key needs `operator: Exists`; `tolerationSeconds` needs
 * `effect: NoExecute`. A pod breaking one is refused when created, in the middle of a run.
 */
function checkToleration(toleration: Obj, path: FieldPath, report: Report): void {
  const operator = toleration.operator ?? 'Equal';
  if (operator === 'Exists' && typeof toleration.value === 'string' && toleration.value !== '') {
    report([...path, 'value'], 'must be empty with operator: Exists (the API server refuses it); remove value or use operator: Equal');
  }
  if ((toleration.key === undefined || toleration.key === '') && operator !== 'Exists') {
    report([...path, 'operator'], 'must be Exists when key is empty (the API server refuses it); add a key or write operator: Exists');
  }
  // ValidateTolerations (pkg/apis/core/validation/validation.go, v1.37.2; the same rule in v1.34.4 to v1.36.3): a key is
  // a label key, an Equal toleration's value a label value; otherwise the API server refuses the pod during the run.
  const keyProblem = typeof toleration.key === 'string' && toleration.key !== '' ? labelKeyProblem(toleration.key) : null;
  if (keyProblem !== null) report([...path, 'key'], `${keyProblem} (the API server refuses the pod)`);
  const valueProblem = operator === 'Equal' && typeof toleration.value === 'string' ? labelValueProblem(toleration.value) : null;
  if (valueProblem !== null) report([...path, 'value'], `${valueProblem} (the API server refuses the pod's toleration)`);
  if (toleration.tolerationSeconds !== undefined && toleration.effect !== 'NoExecute') {
    report([...path, 'tolerationSeconds'], 'needs effect: NoExecute (only a NoExecute taint evicts; the API server refuses it otherwise)');
  }
}

/**
 * `job` belongs to kind Job; the API rules of batch/v1 Job validation (pkg/apis/batch/validation/validation.go
 * validateJobSpec, validatePodReplacementPolicy, validatePodFailurePolicyRule; the same in v1.34.4, v1.35.4, v1.36.3
 * and v1.37.2) that an experiment can break: podReplacementPolicy must be Failed with a podFailurePolicy, each rule
 * has exactly one of onExitCodes and onPodConditions, backoffLimitPerIndex and maxFailedIndexes need completionMode
 * Indexed, maxFailedIndexes needs backoffLimitPerIndex and is at most completions, and FailIndex needs
 * backoffLimitPerIndex; and an `onExitCodes.containerName` must be the workload's one container
 * ({@link WORKLOAD_CONTAINER_NAME}). Each finding is one line naming the field.
 */
function checkJob(workload: Obj, at: (field: string) => FieldPath, report: Report): void {
  const job = workload.job;
  if (job === undefined) return;
  if (workload.kind !== 'Job') {
    report(at('job'), `is only for kind Job, not ${String(workload.kind ?? 'a manifest or selected workload')}`, true);
    return;
  }
  if (!isObj(job)) return;
  const policy = job.podFailurePolicy;
  if (isObj(policy) && job.podReplacementPolicy === 'TerminatingOrFailed') {
    report([...at('job'), 'podReplacementPolicy'], 'must be Failed (or unset) when podFailurePolicy is set (Kubernetes API rule)');
  }
  const indexed = job.completionMode === 'Indexed';
  const perIndex = typeof job.backoffLimitPerIndex === 'number';
  if (perIndex && !indexed) {
    report([...at('job'), 'backoffLimitPerIndex'], 'needs completionMode: Indexed (Kubernetes API rule: a NonIndexed Job has no indexes); add completionMode: Indexed or remove backoffLimitPerIndex');
  }
  if (typeof job.maxFailedIndexes === 'number') {
    if (!indexed) report([...at('job'), 'maxFailedIndexes'], 'needs completionMode: Indexed and backoffLimitPerIndex (Kubernetes API rule); add them or remove maxFailedIndexes');
    else if (!perIndex) report([...at('job'), 'maxFailedIndexes'], 'needs backoffLimitPerIndex (Kubernetes API rule: only a per-index limit fails indexes); add backoffLimitPerIndex or remove maxFailedIndexes');
    const completions = typeof job.completions === 'number' ? job.completions : typeof workload.replicas === 'number' ? workload.replicas : 1;
    if (job.maxFailedIndexes > completions) report([...at('job'), 'maxFailedIndexes'], `(${job.maxFailedIndexes}) must be at most completions (${completions}) (Kubernetes API rule)`);
  }
  if (typeof job.completions === 'number' && typeof workload.replicas === 'number' && job.completions < workload.replicas) {
    report([...at('job'), 'completions'], `(${job.completions}) is below replicas (${workload.replicas}): the Job controller would run only ${job.completions} pod(s) at once, while rebootlab places and predicts replicas pods; set replicas to at most completions`, false, [at('replicas')]);
  }
  if (isObj(policy) && Array.isArray(policy.rules)) {
    // The API server's own rules (k8s.io/kubernetes v1.37.2 pkg/apis/batch/validation/validation.go
    // validatePodFailurePolicy, validatePodFailurePolicyRuleOnExitCodes), so a Job is refused before any cluster.
    if (policy.rules.length > MAX_POD_FAILURE_POLICY_RULES) report([...at('job'), 'podFailurePolicy', 'rules'], `has ${policy.rules.length} rules; the Kubernetes API allows at most ${MAX_POD_FAILURE_POLICY_RULES}`);
    policy.rules.forEach((rule, i) => {
      if (!isObj(rule)) return;
      const path = [...at('job'), 'podFailurePolicy', 'rules', i];
      if ((rule.onExitCodes === undefined) === (rule.onPodConditions === undefined)) report(path, 'give exactly one of onExitCodes and onPodConditions');
      if (rule.action === 'FailIndex' && !perIndex) report([...path, 'action'], 'FailIndex needs an Indexed Job with backoffLimitPerIndex (Kubernetes API rule); set job.completionMode: Indexed and job.backoffLimitPerIndex, or use FailJob, Ignore or Count');
      if (isObj(rule.onExitCodes)) checkExitCodes(rule.onExitCodes, [...path, 'onExitCodes'], report);
      // A rule on another container never matches: the Job's pods run one container, and the API would not say so.
      const container = isObj(rule.onExitCodes) ? rule.onExitCodes.containerName : undefined;
      if (typeof container === 'string' && container !== WORKLOAD_CONTAINER_NAME) {
        report([...path, 'onExitCodes', 'containerName'], `${JSON.stringify(container)} is no container of this Job's pods: the workload's container is named "${WORKLOAD_CONTAINER_NAME}"; write containerName: ${WORKLOAD_CONTAINER_NAME} or leave it out`);
      }
    });
  }
}

/** At most this many podFailurePolicy rules (maxPodFailurePolicyRules, pkg/apis/batch/validation, v1.37.2). */
const MAX_POD_FAILURE_POLICY_RULES = 20;
/** At most this many exit codes per onExitCodes rule (maxPodFailurePolicyOnExitCodesValues, same file). */
const MAX_EXIT_CODES = 255;

/** onExitCodes as the API validates it: int32 values, none 0 for In, no duplicate, in increasing order, at most 255. */
function checkExitCodes(onExitCodes: Obj, path: FieldPath, report: Report): void {
  const values = onExitCodes.values;
  if (!Array.isArray(values)) return;
  if (values.length > MAX_EXIT_CODES) report([...path, 'values'], `has ${values.length} exit codes; the Kubernetes API allows at most ${MAX_EXIT_CODES}`);
  values.forEach((v, j) => {
    if (typeof v !== 'number') return;
    if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) report([...path, 'values', j], `${v} is not an exit code (a 32-bit integer)`);
    else if (onExitCodes.operator === 'In' && v === 0) report([...path, 'values', j], 'must not be 0 for the In operator (Kubernetes API rule: exit code 0 is success)');
    else if (values.indexOf(v) !== j) report([...path, 'values', j], `${v} is listed twice`);
  });
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (numbers.some((v, j) => j > 0 && numbers[j - 1]! > v)) report([...path, 'values'], 'must be in increasing order (Kubernetes API rule)');
}

function checkFault(fault: Obj, cluster: Obj, report: Report): void {
  const type = String(fault.type);
  const record: FaultRecord | undefined = faultRecord(type);
  const needsDuration = record?.duration === 'required';
  if (needsDuration && fault.duration === undefined) report(['fault', 'duration'], `is required for ${type}`);
  if (record?.duration === 'none' && fault.duration !== undefined) report(['fault', 'duration'], `a ${type} is over at once and has no duration; use type ${record.timedInstead} for a timed outage`);
  if (needsDuration && durationMs(fault.duration) === 0) report(['fault', 'duration'], 'must be greater than 0s');
  if (fault.scope !== undefined && isFaultType(type) && !takesScope(type, fault.scope as PartitionScope)) report(['fault', 'scope'], `is for ${SCOPED_FAULT_TYPES.join(', ')} (what it cuts the node off from), not ${type}`, true);
  const allowControlPlane = fault.allowControlPlane === true;
  const nodes = clusterNodeNames(cluster);
  const target = fault.target;
  if (typeof target === 'string' && target !== 'worker-with-most-pods') {
    if (target.includes('control-plane') && !allowControlPlane) {
      report(['fault', 'target'], `"${target}" is a control-plane node; set fault.allowControlPlane: true to target it`);
    } else if (nodes && !nodes.has(target)) {
      report(['fault', 'target'], `no node "${target}" in ${nodes.provider} cluster "${nodes.cluster}" (${nodes.workers} workers); its nodes are ${nodes.describe()}`);
    }
    if (typeof fault.count === 'number' && fault.count > 1) report(['fault', 'count'], `a single node name cannot give ${fault.count} nodes; use worker-with-most-pods or a selector`);
  }
  if (isObj(target) && typeof target.selector === 'string') {
    const bad = target.selector.split(',').find((part) => !/^\s*[A-Za-z0-9._/-]+\s*(=|==)\s*[A-Za-z0-9._-]*\s*$/.test(part));
    if (bad !== undefined) report(['fault', 'target', 'selector'], `"${bad}" is not key=value; write e.g. "topology.kubernetes.io/zone=zone-a"`);
    else if (/node-role\.kubernetes\.io\/control-plane/.test(target.selector) && !allowControlPlane) {
      report(['fault', 'target', 'selector'], 'selects control-plane nodes; set fault.allowControlPlane: true to target them');
    }
  }
  const workers = (cluster.provider ?? 'kind') === 'kwok' ? cluster.nodes : cluster.workers;
  const workerCount = typeof workers === 'number' ? workers : 2;
  if ((target === undefined || target === 'worker-with-most-pods') && typeof fault.count === 'number' && fault.count > workerCount) {
    report(['fault', 'count'], `${fault.count} nodes requested but the cluster has ${workerCount} workers`, false, [['cluster', 'workers']]);
  }
}

function checkObserve(observe: Obj, fault: Obj, report: Report): void {
  const until = observe.until ?? 'recovered';
  if (until === 'duration' && observe.duration === undefined) report(['observe', 'duration'], 'is required with until: duration');
  if (until === 'recovered' && observe.duration !== undefined) report(['observe', 'duration'], 'is only used with until: duration');
  if (durationMs(observe.duration) === 0) report(['observe', 'duration'], 'must be greater than 0s');
  if (durationMs(observe.timeout) === 0) report(['observe', 'timeout'], 'must be greater than 0s');
  const timeoutMs = durationMs(observe.timeout) ?? 600_000;
  const observeMs = durationMs(observe.duration);
  if (observeMs !== null && observeMs > timeoutMs) report(['observe', 'duration'], `is longer than observe.timeout (${timeoutMs / 1000}s)`, false, [['observe', 'timeout']]);
  const faultMs = durationMs(fault.duration);
  if (faultMs !== null && faultMs >= timeoutMs) report(['observe', 'timeout'], `must be longer than fault.duration (${faultMs / 1000}s)`, false, [['fault', 'duration']]);
}

/**
 * The one place expectations are parsed during validation (grammar: lib/spec/expectation.ts). A parsed
 * expectation must also name things the experiment has: `pods[workload=x]` (outside kube-system) and
 * `workloads.x` a workload of `workloads:`, and with kind `nodes[name=x]` / `pods[node=x]` a node of the
 * cluster (kind names: <cluster>-control-plane, <cluster>-worker, <cluster>-worker2, ...). Otherwise the
 * expectation could only fail after a whole run.
 */
/**
 * Traffic probers: unique names; an http probe through the Service of a workload of this experiment that has
 * `service:`, a dns probe without `service` (it queries the cluster DNS), `query` and `placeReplicaOnTarget` only on
 * dns probes; on kind only (simulated nodes carry no traffic), and never through a node the fault names (a prober there would
 * measure its own node's outage, not the Service's). A target picked at run time is checked by lib/run/probers.ts.
 */
function checkProbes(probes: unknown, workloads: unknown, cluster: Obj, report: Report, fault: unknown): void {
  if (!Array.isArray(probes)) return;
  const withService = Array.isArray(workloads) ? workloads.filter((w): w is Obj => isObj(w) && isObj(w.service)).map((w) => String(w.name)) : [];
  const withServiceSet = new Set(withService);
  const nodes = clusterNodeNames(cluster);
  const seen = new Set<string>();
  probes.forEach((probe, index) => {
    if (!isObj(probe)) return;
    if (cluster.provider === 'kwok') report(['probes', index], 'simulated nodes (provider kwok) carry no traffic; remove probes or use provider kind');
    if (typeof probe.name === 'string') {
      if (seen.has(probe.name)) report(['probes', index, 'name'], `duplicate probe name "${probe.name}"`);
      seen.add(probe.name);
    }
    if (typeof probe.node === 'string' && isObj(fault) && fault.target === probe.node) {
      report(['probes', index, 'node'], `"${probe.node}" is the fault target; send through a node that stays up (omit node: to pick the first worker that is not a target)`);
    } else if (typeof probe.node === 'string' && nodes && !nodes.has(probe.node)) {
      report(['probes', index, 'node'], `no node "${probe.node}" in ${nodes.provider} cluster "${nodes.cluster}" (${nodes.workers} workers); its nodes are ${nodes.describe()}`);
    }
    if (durationMs(probe.timeout) === 0) report(['probes', index, 'timeout'], 'must be greater than 0s (every request would fail as timeout)');
    if (probe.type === 'dns') {
      if (probe.service !== undefined) report(['probes', index, 'service'], 'a dns probe queries the cluster DNS (kube-system/kube-dns), not a workload\'s Service; remove service (or use type: http)');
      if (typeof probe.query === 'string' && probe.query.split('.').some((label) => label.length > 63)) report(['probes', index, 'query'], 'a DNS label (the text between dots) has at most 63 characters (RFC 1035)');
      return;
    }
    for (const field of ['query', 'placeReplicaOnTarget']) {
      if (probe[field] !== undefined) report(['probes', index, field], `only for a dns probe; add type: dns or remove ${field}`);
    }
    if (probe.service === undefined) report(['probes', index], `an http probe needs service: the workload whose Service it probes (workloads with a Service: ${withService.length > 0 ? withService.join(', ') : 'none'}), or type: dns`);
    if (typeof probe.service === 'string' && !withServiceSet.has(probe.service)) {
      report(['probes', index, 'service'], `no workload "${probe.service}" with a Service in this experiment; add service: {port: 80} to it (workloads with a Service: ${withService.length > 0 ? withService.join(', ') : 'none'})`);
    }
  });
}

function checkExpectations(expect: unknown, workloads: unknown, cluster: Obj, report: Report, probes?: unknown): void {
  if (!Array.isArray(expect)) return;
  // A manifest's workloads are named after its controllers, known only once the file is read (lib/spec/manifests.ts).
  const fromManifest = Array.isArray(workloads) && workloads.some((w) => isObj(w) && w.manifest !== undefined);
  const names = Array.isArray(workloads) ? workloads.filter(isObj).map((w) => w.name).filter((n): n is string => typeof n === 'string') : [];
  const nameSet = new Set(names);
  const jobNames = Array.isArray(workloads) ? workloads.filter((w): w is Obj => isObj(w) && w.kind === 'Job' && typeof w.name === 'string').map((w) => w.name as string) : [];
  const known = names.length > 0 ? listed(names) : 'none (add workloads:)';
  const nodes = clusterNodeNames(cluster);
  const unknownNode = (node: string) => `no node "${node}" in ${nodes!.provider} cluster "${nodes!.cluster}" (${nodes!.workers} workers); its nodes are ${nodes!.describe()}`;
  const probeNames = Array.isArray(probes) ? probes.filter(isObj).map((p) => String(p.name)) : [];
  const probeSet = new Set(probeNames);
  expect.forEach((text, index) => {
    if (typeof text !== 'string') return;
    const parsed = parseExpectation(text);
    if (!parsed.ok) {
      report(['expect', index], parsed.message);
      return;
    }
    const subject = parsed.expectation.subject;
    if (subject.scope === 'probe' && !probeSet.has(subject.name)) {
      report(['expect', index], `probes.${subject.name}: no probe "${subject.name}" in this experiment; probes: ${probeNames.length > 0 ? listed(probeNames) : 'none (add probes:)'}`);
    } else if (subject.scope === 'job' && !fromManifest && !jobNames.includes(subject.name)) {
      const what = nameSet.has(subject.name) ? `workload "${subject.name}" is not a Job` : `no workload "${subject.name}" in this experiment`;
      report(['expect', index], `jobs.${subject.name}: ${what}; Jobs: ${jobNames.length > 0 ? listed(jobNames) : 'none (add a workload of kind: Job)'}`);
    } else if (subject.scope === 'workload' && !fromManifest && !nameSet.has(subject.name)) {
      report(['expect', index], `workloads.${subject.name}: no workload "${subject.name}" in this experiment; workloads: ${known}`);
    } else if (subject.scope === 'pods') {
      const { workload, namespace, node } = subject.selector;
      if (workload !== undefined && namespace !== 'kube-system' && !fromManifest && !nameSet.has(workload)) {
        report(['expect', index], `pods[workload=${workload}]: no workload "${workload}" in this experiment; workloads: ${known}`);
      } else if (nodes && node !== undefined && !nodes.has(node)) {
        report(['expect', index], `pods[node=${node}]: ${unknownNode(node)}`);
      }
    } else if (subject.scope === 'node' && nodes && subject.name !== null && !nodes.has(subject.name)) {
      report(['expect', index], `nodes[name=${subject.name}]: ${unknownNode(subject.name)}`);
    }
  });
}

/** Names for a message: all of them up to ten, else the first ten and how many more. */
function listed(names: readonly string[]): string {
  return names.length <= 10 ? names.join(', ') : `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`;
}

function durationMs(value: unknown): number | null {
  return typeof value === 'string' ? parseDurationMs(value) : null;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
