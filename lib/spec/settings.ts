// The node-failure timing settings of a cluster, resolved: every field set, every duration in milliseconds.
// Used for the requested settings (from the experiment) and the effective ones (read back from the cluster).

/**
 * Timeout settings that decide when a failed node is noticed and its pods evicted.
 * Durations are milliseconds; rates are nodes per second. Defaults (Kubernetes 1.34) in brackets:
 * - kube-controller-manager (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/):
 *   nodeMonitorPeriodMs `--node-monitor-period` [5000]; nodeMonitorGracePeriodMs `--node-monitor-grace-period`
 *   [50000 since 1.32, KEP-4662; 40000 before]; nodeStartupGracePeriodMs `--node-startup-grace-period` [60000];
 *   nodeEvictionRate `--node-eviction-rate` [0.1]; secondaryNodeEvictionRate `--secondary-node-eviction-rate` [0.01];
 *   unhealthyZoneThreshold `--unhealthy-zone-threshold` [0.55, a fraction]; largeClusterSizeThreshold
 *   `--large-cluster-size-threshold` [50 nodes].
 * - kube-apiserver (DefaultTolerationSeconds admission plugin): defaultNotReadyTolerationSeconds
 *   `--default-not-ready-toleration-seconds` [300]; defaultUnreachableTolerationSeconds
 *   `--default-unreachable-toleration-seconds` [300]. These keep the upstream unit, seconds.
 * - kubelet (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/): nodeStatusUpdateFrequencyMs
 *   [10000]; nodeStatusReportFrequencyMs [300000]; nodeLeaseDurationSeconds [40, seconds, renewed every
 *   25% = 10 s]; shutdownGracePeriodMs [0]; shutdownGracePeriodCriticalPodsMs [0].
 */
export interface TimeoutSettings {
  controllerManager: {
    nodeMonitorPeriodMs: number;
    nodeMonitorGracePeriodMs: number;
    nodeStartupGracePeriodMs: number;
    nodeEvictionRate: number;
    secondaryNodeEvictionRate: number;
    unhealthyZoneThreshold: number;
    largeClusterSizeThreshold: number;
  };
  apiServer: {
    defaultNotReadyTolerationSeconds: number;
    defaultUnreachableTolerationSeconds: number;
  };
  kubelet: {
    nodeStatusUpdateFrequencyMs: number;
    nodeStatusReportFrequencyMs: number;
    nodeLeaseDurationSeconds: number;
    shutdownGracePeriodMs: number;
    shutdownGracePeriodCriticalPodsMs: number;
  };
}

/** Kubernetes 1.34 defaults; see TimeoutSettings for the source of each. */
export const DEFAULT_TIMEOUT_SETTINGS: TimeoutSettings = {
  controllerManager: {
    nodeMonitorPeriodMs: 5_000,
    nodeMonitorGracePeriodMs: 50_000,
    nodeStartupGracePeriodMs: 60_000,
    nodeEvictionRate: 0.1,
    secondaryNodeEvictionRate: 0.01,
    unhealthyZoneThreshold: 0.55,
    largeClusterSizeThreshold: 50,
  },
  apiServer: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
  kubelet: {
    nodeStatusUpdateFrequencyMs: 10_000,
    nodeStatusReportFrequencyMs: 300_000,
    nodeLeaseDurationSeconds: 40,
    shutdownGracePeriodMs: 0,
    shutdownGracePeriodCriticalPodsMs: 0,
  },
};
