// The kubeadm ClusterConfiguration and KubeletConfiguration patches that put a cluster's timeout
// settings into effect; kind merges them into the kubeadm config it generates for every node.
import { KUBELET_FIELDS, type ClusterSpec, type KubeletField } from '../../spec/types.js';
import { formatGoDuration } from '../../common/units.js';
import { VERSIONS } from '../../common/versions.js';

/**
 * kubeadm config API version of the document kind generates, which a patch must match in shape.
 * `v1beta3`: `extraArgs` is a map `{flag: value}`. `v1beta4` (kubeadm ≥ 1.31): a list of `{name, value}`.
 */
export type KubeadmApiVersion = 'v1beta3' | 'v1beta4';

/** The kind release rebootlab's toolchain pins (versions.json). */
export const PINNED_KIND_VERSION = VERSIONS.kind;

/** `v1.34.4` → [1, 34, 4]; missing parts are 0. */
export function parseVersion(version: string): [number, number, number] {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  if (!m) return [0, 0, 0];
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function atLeast(version: string, min: string): boolean {
  const a = parseVersion(version);
  const b = parseVersion(min);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

/**
 * The kubeadm API version kind generates for a Kubernetes version. kind ≤ v0.31.0 generates `v1beta3` for every
 * Kubernetes ≥ 1.23 although kubeadm itself moved to v1beta4 in 1.31; kind v0.32.0 and v0.33.0 generate `v1beta4`
 * for Kubernetes ≥ 1.36 and `v1beta3` below (sigs.k8s.io/kind@v0.31.0 / @v0.32.0 / @v0.33.0
 * pkg/cluster/internal/kubeadm/config.go, `Config()`: `templateSource`). kind applies a patch only to documents of
 * the same kind and, when the patch names one, the same apiVersion (pkg/internal/patch/resource.go), so a patch of
 * the wrong version is silently ignored.
 */
export function kubeadmApiVersionFor(kubernetesVersion: string, kindVersion: string = PINNED_KIND_VERSION): KubeadmApiVersion {
  return atLeast(kindVersion, 'v0.32.0') && atLeast(kubernetesVersion, 'v1.36.0') ? 'v1beta4' : 'v1beta3';
}

/** kube-controller-manager flags for the spec's settings, extraArgs last (they win). Durations as Go strings. */
export function controllerManagerFlags(spec: ClusterSpec): Record<string, string> {
  const s = spec.settings.controllerManager;
  return {
    'node-monitor-period': formatGoDuration(s.nodeMonitorPeriodMs),
    'node-monitor-grace-period': formatGoDuration(s.nodeMonitorGracePeriodMs),
    'node-startup-grace-period': formatGoDuration(s.nodeStartupGracePeriodMs),
    'node-eviction-rate': String(s.nodeEvictionRate),
    'secondary-node-eviction-rate': String(s.secondaryNodeEvictionRate),
    'unhealthy-zone-threshold': String(s.unhealthyZoneThreshold),
    'large-cluster-size-threshold': String(s.largeClusterSizeThreshold),
    ...spec.extraArgs.controllerManager,
  };
}

/** kube-apiserver flags for the spec's settings (seconds, the upstream unit), extraArgs last. */
export function apiServerFlags(spec: ClusterSpec): Record<string, string> {
  const s = spec.settings.apiServer;
  return {
    'default-not-ready-toleration-seconds': String(s.defaultNotReadyTolerationSeconds),
    'default-unreachable-toleration-seconds': String(s.defaultUnreachableTolerationSeconds),
    ...spec.extraArgs.apiServer,
  };
}

function extraArgsIn(flags: Record<string, string>, apiVersion: KubeadmApiVersion): unknown {
  if (apiVersion === 'v1beta3') return { ...flags };
  return Object.entries(flags).map(([name, value]) => ({ name, value }));
}

/** The kubeadm `ClusterConfiguration` merge patch as an object (serialise it to YAML for kind). */
export function clusterConfigurationPatch(spec: ClusterSpec, apiVersion: KubeadmApiVersion): Record<string, unknown> {
  const patch: Record<string, unknown> = {
    apiVersion: `kubeadm.k8s.io/${apiVersion}`,
    kind: 'ClusterConfiguration',
    controllerManager: { extraArgs: extraArgsIn(controllerManagerFlags(spec), apiVersion) },
    apiServer: { extraArgs: extraArgsIn(apiServerFlags(spec), apiVersion) },
  };
  if (Object.keys(spec.extraArgs.scheduler).length > 0) {
    patch['scheduler'] = { extraArgs: extraArgsIn(spec.extraArgs.scheduler, apiVersion) };
  }
  return patch;
}

/**
 * True when the kubelet of `kubernetesVersion` refuses to start on a cgroup v1 host unless told otherwise:
 * `failCgroupV1` defaults to true from v1.35 (false in v1.34): k8s.io/kubernetes pkg/kubelet/apis/config/v1beta1/
 * defaults.go `SetDefaults_KubeletConfiguration`, checked in pkg/kubelet/apis/config/validation/validation_linux.go.
 */
export function kubeletFailsOnCgroupV1ByDefault(kubernetesVersion: string): boolean {
  return atLeast(kubernetesVersion, 'v1.35.0');
}

/**
 * The named kubelet settings as KubeletConfiguration fields, for those the experiment sets (spec.kubeletFieldsSet)
 * only: durations as Go strings, nodeLeaseDurationSeconds in seconds. A field left out takes the kubelet's own
 * default, which for nodeStatusReportFrequency depends on whether nodeStatusUpdateFrequency is set
 * (pkg/kubelet/apis/config/v1beta1/defaults.go, v1.34.4): writing every field would build another cluster than the one described.
 */
export function kubeletNamedFields(spec: ClusterSpec): Partial<Record<KubeletField, string | number>> {
  const k = spec.settings.kubelet;
  const all: Record<KubeletField, string | number> = {
    nodeStatusUpdateFrequency: formatGoDuration(k.nodeStatusUpdateFrequencyMs),
    nodeStatusReportFrequency: formatGoDuration(k.nodeStatusReportFrequencyMs),
    nodeLeaseDurationSeconds: k.nodeLeaseDurationSeconds,
    shutdownGracePeriod: formatGoDuration(k.shutdownGracePeriodMs),
    shutdownGracePeriodCriticalPods: formatGoDuration(k.shutdownGracePeriodCriticalPodsMs),
  };
  const fields: Partial<Record<KubeletField, string | number>> = {};
  for (const field of spec.kubeletFieldsSet ?? KUBELET_FIELDS) fields[field] = all[field];
  return fields;
}

/**
 * The `KubeletConfiguration` (kubelet.config.k8s.io/v1beta1) merge patch: the status/lease/shutdown timing fields
 * the experiment sets (kubeletNamedFields) plus `kubeletExtraConfig`. kind generates one KubeletConfiguration
 * document, which kubeadm init uploads to the `kubelet-config` ConfigMap that joining nodes download, so every node
 * gets it. From v1.35 it also sets `failCgroupV1: false` ({@link kubeletFailsOnCgroupV1ByDefault}): kind nodes inherit
 * the host's cgroup mode, and on a cgroup v1 host (this machine, ../shared/ENVIRONMENT.md) the kubelet would otherwise
 * exit at start; on a cgroup v2 host the field changes nothing. `kubeletExtraConfig` can set it back.
 */
export function kubeletConfigurationPatch(spec: ClusterSpec): Record<string, unknown> {
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    ...kubeletNamedFields(spec),
    ...(kubeletFailsOnCgroupV1ByDefault(spec.kubernetesVersion) ? { failCgroupV1: false } : {}),
    ...spec.kubeletExtraConfig,
  };
}
