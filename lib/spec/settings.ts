// The node-failure timing settings of a cluster, resolved: every field set, every duration in milliseconds.
// Used for the requested settings (from the experiment) and the effective ones (read back from the cluster).

/**
 * Timeout settings that decide when a failed node is noticed and its pods evicted.
 * Durations are milliseconds; rates are nodes per second. Defaults (Kubernetes 1.34) in brackets:
 * - kube-controller-manager (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/):
 *   nodeMonitorPeriodMs `--node-monitor-period` [5000]; nodeMonitorGracePeriodMs `--node-monitor-grace-period`
 *   [50000 since 1.32 (kubernetes/kubernetes PR 126287, for issue 121793); 40000 before]; nodeStartupGracePeriodMs `--node-startup-grace-period` [60000];
 *   nodeEvictionRate `--node-eviction-rate` [0.1]; secondaryNodeEvictionRate `--secondary-node-eviction-rate` [0.01];
 *   unhealthyZoneThreshold `--unhealthy-zone-threshold` [0.55, a fraction]; largeClusterSizeThreshold
 *   `--large-cluster-size-threshold` [50 nodes].
 * - kube-apiserver (DefaultTolerationSeconds admission plugin): defaultNotReadyTolerationSeconds
 *   `--default-not-ready-toleration-seconds` [300]; defaultUnreachableTolerationSeconds
 *   `--default-unreachable-toleration-seconds` [300]. These keep the upstream unit, seconds.
 * - kubelet (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/): nodeStatusUpdateFrequencyMs
 *   [10000]; nodeStatusReportFrequencyMs [300000, or nodeStatusUpdateFrequencyMs when only that is set]; nodeLeaseDurationSeconds [40, seconds, renewed every
 *   25% = 10 s]; shutdownGracePeriodMs [0]; shutdownGracePeriodCriticalPodsMs [0].
 */
export interface TimeoutSettings {
  /** kube-controller-manager flags of the node lifecycle controller (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/). */
  controllerManager: {
    /** `--node-monitor-period`: how often node health is checked, milliseconds. Default 5000 (5s). */
    nodeMonitorPeriodMs: number;
    /**
     * `--node-monitor-grace-period`: silence after which a node is marked Unknown (NotReady), milliseconds.
     * Default 50000 (50s) since Kubernetes 1.32 (kubernetes/kubernetes PR 126287, fixing issue 121793: client-go
     * drops a dead HTTP/2 connection only after its health check, HTTP2_READ_IDLE_TIMEOUT_SECONDS 30 +
     * HTTP2_PING_TIMEOUT_SECONDS 15 = 45 s, longer than the old 40 s, so healthy nodes flapped NotReady); 40000 before.
     */
    nodeMonitorGracePeriodMs: number;
    /** `--node-startup-grace-period`: silence allowed for a starting node, milliseconds. Default 60000 (1m). */
    nodeStartupGracePeriodMs: number;
    /** `--node-eviction-rate`: nodes per second whose pods are evicted in a healthy zone. Default 0.1. */
    nodeEvictionRate: number;
    /** `--secondary-node-eviction-rate`: nodes per second when a zone is unhealthy. Default 0.01. */
    secondaryNodeEvictionRate: number;
    /** `--unhealthy-zone-threshold`: fraction of NotReady nodes that makes a zone unhealthy, in (0, 1]. Default 0.55. */
    unhealthyZoneThreshold: number;
    /** `--large-cluster-size-threshold`: nodes above which a zone counts as large. Default 50. */
    largeClusterSizeThreshold: number;
    /**
     * `--kube-api-qps`: requests per second each controller's client may send (client-go token bucket), or absent
     * when not set (the default, {@link KUBE_API_QPS_DEFAULT}). The node lifecycle controller's own status, taint and
     * Event writes share one such client, so a monitor pass with many writes delays its taints.
     */
    kubeAPIQPS?: number;
    /** `--kube-api-burst`: requests above kubeAPIQPS each controller's client may send at once, or absent (default {@link KUBE_API_BURST_DEFAULT}). */
    kubeAPIBurst?: number;
  };
  /** kube-apiserver flags of the DefaultTolerationSeconds admission plugin (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/); upstream unit, seconds. */
  apiServer: {
    /** `--default-not-ready-toleration-seconds`: tolerationSeconds added for node.kubernetes.io/not-ready, seconds. Default 300. */
    defaultNotReadyTolerationSeconds: number;
    /** `--default-unreachable-toleration-seconds`: tolerationSeconds added for node.kubernetes.io/unreachable, seconds. Default 300. */
    defaultUnreachableTolerationSeconds: number;
  };
  /** KubeletConfiguration fields (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/). */
  kubelet: {
    /** `nodeStatusUpdateFrequency`: how often the kubelet computes node status, milliseconds. Default 10000 (10s). */
    nodeStatusUpdateFrequencyMs: number;
    /**
     * `nodeStatusReportFrequency`: how often an unchanged status is posted, milliseconds. Default 300000 (5m), or
     * nodeStatusUpdateFrequency when only that one is set (pkg/kubelet/apis/config/v1beta1/defaults.go, v1.34.4).
     */
    nodeStatusReportFrequencyMs: number;
    /** `nodeLeaseDurationSeconds`: Lease duration, seconds; renewed every 25% of it. Default 40 (renewal every 10 s). */
    nodeLeaseDurationSeconds: number;
    /** `shutdownGracePeriod`: graceful node shutdown time, milliseconds. Default 0 (disabled). */
    shutdownGracePeriodMs: number;
    /** `shutdownGracePeriodCriticalPods`: part of shutdownGracePeriod reserved for critical pods, milliseconds. Default 0. */
    shutdownGracePeriodCriticalPodsMs: number;
  };
}

/** kube-controller-manager `--kube-api-qps` default, requests per second (https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/). */
export const KUBE_API_QPS_DEFAULT = 20;
/** kube-controller-manager `--kube-api-burst` default, requests (same reference). */
export const KUBE_API_BURST_DEFAULT = 30;

/**
 * The optional client rate-limit settings of kube-controller-manager and their flags, [setting, flag] pairs: the
 * one table the spec (setting → flag, lib/spec/defaults.ts) and the read-back (flag → setting,
 * lib/cluster/effective-settings.ts) both use.
 */
export const CLIENT_RATE_FLAGS = [
  ['kubeAPIQPS', 'kube-api-qps'],
  ['kubeAPIBurst', 'kube-api-burst'],
] as const;

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

/**
 * Fraction of nodeLeaseDurationSeconds after which the kubelet renews its Lease (pkg/kubelet/kubelet.go
 * `nodeLeaseRenewIntervalFraction = 0.25`, v1.34.4).
 */
export const LEASE_RENEW_FRACTION = 0.25;

/**
 * Jitter the kubelet adds to its Lease renewal and node status loops, as a fraction of their period: both run under
 * `wait.JitterUntil(..., 0.04, true)` (k8s.io/component-helpers apimachinery/lease/controller.go `Run`;
 * pkg/kubelet/kubelet.go `Run` for syncNodeStatus, v1.34.4), so each period is up to 4 % longer.
 */
export const KUBELET_LOOP_JITTER = 0.04;

/** The kubelet's Lease renew interval, 25 % of nodeLeaseDurationSeconds, milliseconds (without jitter). */
export function leaseRenewIntervalMs(kubelet: TimeoutSettings['kubelet']): number {
  return kubelet.nodeLeaseDurationSeconds * 1000 * LEASE_RENEW_FRACTION;
}

/**
 * Longest interval between two status posts of a kubelet whose node status does not change, milliseconds: it checks
 * its status every `nodeStatusUpdateFrequency` U and posts it unchanged once `nodeStatusReportFrequency` F has passed
 * since the last post (pkg/kubelet/kubelet_node_status.go, tryUpdateNodeStatus / isUpdateStatusPeriodExpired,
 * v1.34.4), i.e. at the first check at least F later: ceil(F / U) checks, each up to 4 % long. After a change the
 * next unchanged post also waits a random delay in [−F/2, F/2) (calculateDelay); this is the steady state.
 * Infinity when U is 0.
 */
export function statusPostIntervalMs(kubelet: TimeoutSettings['kubelet']): number {
  const update = kubelet.nodeStatusUpdateFrequencyMs;
  if (update <= 0) return Infinity;
  return Math.ceil(kubelet.nodeStatusReportFrequencyMs / update) * update * (1 + KUBELET_LOOP_JITTER);
}

/**
 * Longest silence between two heartbeats of a healthy kubelet whose status does not change, milliseconds: the
 * smaller of its Lease renew interval and its unchanged status post interval, each with the kubelet's 4 % jitter.
 * The node lifecycle controller restarts a node's grace period on either (pkg/controller/nodelifecycle
 * node_lifecycle_controller.go, tryUpdateNodeHealth, v1.34.4: a changed Ready lastHeartbeatTime, or a newer Lease renewTime).
 */
export function heartbeatIntervalMs(kubelet: TimeoutSettings['kubelet']): number {
  return Math.min(leaseRenewIntervalMs(kubelet) * (1 + KUBELET_LOOP_JITTER), statusPostIntervalMs(kubelet));
}
