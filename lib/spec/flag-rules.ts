// Component flags that extraArgs must not carry: flags Kubernetes removed (by version), and flags
// that a named experiment setting already covers (so the recorded settings stay the truth).

/** A flag removed from a component, and what to use instead. */
export interface RemovedFlag {
  flag: string;
  /** First minor version (1.x) without the flag. */
  removedInMinor: number;
  instead: string;
}

/**
 * Flags removed upstream, per component key of `cluster.*.extraArgs`.
 * - `--pod-eviction-timeout` (kube-controller-manager): removed in v1.27 (CHANGELOG-1.27, "Urgent Upgrade Notes");
 *   eviction is taint-based, timed by tolerationSeconds. Only flags whose removal version is certain are listed.
 */
export const REMOVED_FLAGS: Record<'controllerManager' | 'apiServer' | 'scheduler', readonly RemovedFlag[]> = {
  controllerManager: [
    {
      flag: 'pod-eviction-timeout',
      removedInMinor: 27,
      instead:
        'pods are evicted by NoExecute taints: set workloads[].tolerations tolerationSeconds, or cluster.apiServer.defaultUnreachableTolerationSeconds (--default-unreachable-toleration-seconds)',
    },
  ],
  apiServer: [],
  scheduler: [],
};

/** Flags (per component) that a named setting covers: flag → settings path to use instead. */
export const NAMED_SETTING_FLAGS: Record<'controllerManager' | 'apiServer' | 'scheduler', Readonly<Record<string, string>>> = {
  controllerManager: {
    'node-monitor-period': 'cluster.controllerManager.nodeMonitorPeriod',
    'node-monitor-grace-period': 'cluster.controllerManager.nodeMonitorGracePeriod',
    'node-startup-grace-period': 'cluster.controllerManager.nodeStartupGracePeriod',
    'node-eviction-rate': 'cluster.controllerManager.nodeEvictionRate',
    'secondary-node-eviction-rate': 'cluster.controllerManager.secondaryNodeEvictionRate',
    'unhealthy-zone-threshold': 'cluster.controllerManager.unhealthyZoneThreshold',
    'large-cluster-size-threshold': 'cluster.controllerManager.largeClusterSizeThreshold',
    'kube-api-qps': 'cluster.controllerManager.kubeAPIQPS',
    'kube-api-burst': 'cluster.controllerManager.kubeAPIBurst',
  },
  apiServer: {
    'default-not-ready-toleration-seconds': 'cluster.apiServer.defaultNotReadyTolerationSeconds',
    'default-unreachable-toleration-seconds': 'cluster.apiServer.defaultUnreachableTolerationSeconds',
  },
  scheduler: {},
};

/** KubeletConfiguration fields that a named setting covers: field → settings path to use instead. */
export const NAMED_KUBELET_FIELDS: Readonly<Record<string, string>> = {
  nodeStatusUpdateFrequency: 'cluster.kubelet.nodeStatusUpdateFrequency',
  nodeStatusReportFrequency: 'cluster.kubelet.nodeStatusReportFrequency',
  nodeLeaseDurationSeconds: 'cluster.kubelet.nodeLeaseDurationSeconds',
  shutdownGracePeriod: 'cluster.kubelet.shutdownGracePeriod',
  shutdownGracePeriodCriticalPods: 'cluster.kubelet.shutdownGracePeriodCriticalPods',
};

/** The minor version of `v1.34.4` (34), or null if `version` is not `v<major>.<minor>.<patch>`. */
export function minorVersion(version: string): number | null {
  const match = /^v1\.([0-9]+)\.[0-9]+$/.exec(version);
  return match ? Number(match[1]) : null;
}

// The supported versions are one table, versions.json, read by lib/common/versions.ts (and hack/lib.sh).
export { isSupportedKubernetesVersion, SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT } from '../common/versions.js';
