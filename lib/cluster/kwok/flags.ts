// Command lines of the kwok tier's processes (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kwok), rendered from the cluster spec: pure, so the timeout flags can be unit-tested.
import { formatGoDuration } from '../../common/units.js';
import type { ClusterSpec } from '../../spec/types.js';
import type { ClusterFiles } from './paths.js';

/** Loopback ports chosen for one cluster (all bound to 127.0.0.1). */
export interface ClusterPorts {
  /** etcd client port (plain HTTP on loopback). */
  etcdClient: number;
  /** etcd peer port (single member, loopback). */
  etcdPeer: number;
  /** kube-apiserver HTTPS port. */
  apiServer: number;
}

/** Extra client-side speed-ups for large simulated clusters; none of them changes node-failure timing. */
export interface ScaleOptions {
  /**
   * Lift client rate limits (kube-controller-manager and kube-scheduler `--kube-api-qps=5000
   * --kube-api-burst=10000`, kube-apiserver without max-inflight limits or priority and fairness),
   * as kwokctl's `--disable-qps-limits` does. Default false: the Kubernetes defaults of kind (kcm qps 20).
   * The node lifecycle controller paces taints with its own limiter (`--node-eviction-rate`), not with client QPS.
   */
  unlimitedQps: boolean;
}

/** `{name: value}` → `['--name=value', ...]`, in insertion order. */
function toArgs(flags: Record<string, string>): string[] {
  return Object.entries(flags).map(([k, v]) => `--${k}=${v}`);
}

/** etcd v3.6 flags: one member, data under `files.etcdDataDir`, loopback only, no fsync (data is throwaway). */
export function etcdArgs(files: ClusterFiles, ports: ClusterPorts): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return toArgs({
    name: 'rebootlab',
    'data-dir': files.etcdDataDir,
    'listen-client-urls': client,
    'advertise-client-urls': client,
    'listen-peer-urls': peer,
    'initial-advertise-peer-urls': peer,
    'initial-cluster': `rebootlab=${peer}`,
    // A simulated cluster's state is discarded with it; fsync would only slow 1000-node runs down.
    'unsafe-no-fsync': 'true',
    'quota-backend-bytes': String(8 * 1024 ** 3),
  });
}

/**
 * kube-apiserver flags. The DefaultTolerationSeconds admission plugin (enabled by default) reads
 * `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds` (seconds; default 300,
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/) exactly as on kind.
 * `spec.extraArgs.apiServer` is appended last and wins.
 */
export function apiServerArgs(spec: ClusterSpec, files: ClusterFiles, ports: ClusterPorts, scale: ScaleOptions): string[] {
  const flags: Record<string, string> = {
    'advertise-address': '127.0.0.1',
    // From v1.37 the lease endpoint reconciler refuses a loopback advertise address at start ("cannot use public IP
    // 127.0.0.1 with endpoint reconciler", pkg/controlplane/instance.go, leaseEndpointReconciler.ValidateIP). No pod
    // of a simulated cluster reaches the API server through the kubernetes Service, so it needs no endpoints.
    'endpoint-reconciler-type': 'none',
    'bind-address': '127.0.0.1',
    'secure-port': String(ports.apiServer),
    'etcd-servers': `http://127.0.0.1:${ports.etcdClient}`,
    'cert-dir': files.pkiDir,
    'tls-cert-file': files.serverCert,
    'tls-private-key-file': files.serverKey,
    'client-ca-file': files.caCert,
    'service-account-issuer': 'https://kubernetes.default.svc.cluster.local',
    'service-account-key-file': files.serviceAccountKey,
    'service-account-signing-key-file': files.serviceAccountKey,
    'service-cluster-ip-range': '10.96.0.0/16',
    'authorization-mode': 'RBAC',
    'allow-privileged': 'true',
    'default-not-ready-toleration-seconds': String(spec.settings.apiServer.defaultNotReadyTolerationSeconds),
    'default-unreachable-toleration-seconds': String(spec.settings.apiServer.defaultUnreachableTolerationSeconds),
  };
  if (scale.unlimitedQps) {
    Object.assign(flags, { 'max-requests-inflight': '0', 'max-mutating-requests-inflight': '0', 'enable-priority-and-fairness': 'false' });
  }
  return toArgs({ ...flags, ...spec.extraArgs.apiServer });
}

/**
 * kube-controller-manager flags: the node lifecycle controller's settings from `spec.settings.controllerManager`
 * (`--node-monitor-period`, `--node-monitor-grace-period`, `--node-startup-grace-period` as Go durations;
 * `--node-eviction-rate`, `--secondary-node-eviction-rate` in nodes per second; `--unhealthy-zone-threshold`,
 * a fraction; `--large-cluster-size-threshold`, nodes), the same flags kind's kubeadm patch sets.
 * No leader election and no serving port (`--secure-port=0`): one instance on loopback.
 */
export function controllerManagerArgs(spec: ClusterSpec, files: ClusterFiles, scale: ScaleOptions): string[] {
  const cm = spec.settings.controllerManager;
  const flags: Record<string, string> = {
    kubeconfig: files.kubeconfig,
    'leader-elect': 'false',
    'secure-port': '0',
    'root-ca-file': files.caCert,
    'service-account-private-key-file': files.serviceAccountKey,
    'use-service-account-credentials': 'true',
    'cluster-name': spec.name,
    'node-monitor-period': formatGoDuration(cm.nodeMonitorPeriodMs),
    'node-monitor-grace-period': formatGoDuration(cm.nodeMonitorGracePeriodMs),
    'node-startup-grace-period': formatGoDuration(cm.nodeStartupGracePeriodMs),
    'node-eviction-rate': String(cm.nodeEvictionRate),
    'secondary-node-eviction-rate': String(cm.secondaryNodeEvictionRate),
    'unhealthy-zone-threshold': String(cm.unhealthyZoneThreshold),
    'large-cluster-size-threshold': String(cm.largeClusterSizeThreshold),
  };
  if (scale.unlimitedQps) Object.assign(flags, { 'kube-api-qps': '5000', 'kube-api-burst': '10000' });
  return toArgs({ ...flags, ...spec.extraArgs.controllerManager });
}

/** kube-scheduler flags: no leader election, no serving port; `spec.extraArgs.scheduler` appended last. */
export function schedulerArgs(spec: ClusterSpec, files: ClusterFiles, scale: ScaleOptions): string[] {
  const flags: Record<string, string> = { kubeconfig: files.kubeconfig, 'leader-elect': 'false', 'secure-port': '0' };
  if (scale.unlimitedQps) Object.assign(flags, { 'kube-api-qps': '5000', 'kube-api-burst': '10000' });
  return toArgs({ ...flags, ...spec.extraArgs.scheduler });
}

/** Label that puts a Node under kwok's management; removing it is the `stop-heartbeat` fault. */
export const KWOK_MANAGED_LABEL = 'rebootlab.dev/kwok-heartbeat';
/** Value of {@link KWOK_MANAGED_LABEL} on a node whose heartbeats kwok simulates. */
export const KWOK_MANAGED_VALUE = 'on';
/** Value of {@link KWOK_MANAGED_LABEL} the `stop-heartbeat` fault sets: kwok no longer selects the node. */
export const KWOK_STOPPED_VALUE = 'off';

/**
 * kwok flags. Nodes are selected by the server-side label selector `rebootlab.dev/kwok-heartbeat=on`: when the
 * label changes the API server's watch sends kwok a DELETED event, and kwok v0.7 then cancels the node's stage
 * jobs and releases its Lease (pkg/kwok/controllers/node_controller.go, watchResources). An annotation selector
 * would not do: kwok filters annotations client-side and ignores updates that stop matching.
 * `--node-lease-duration-seconds` is the kubelet's `nodeLeaseDurationSeconds`; kwok renews every 25% of it with
 * 4% jitter, as the kubelet does (pkg/kwok/controllers/controller.go, initNodeLeaseController).
 */
export function kwokArgs(spec: ClusterSpec, files: ClusterFiles): string[] {
  return toArgs({
    kubeconfig: files.kubeconfig,
    config: files.kwokConfig,
    'manage-nodes-with-label-selector': `${KWOK_MANAGED_LABEL}=${KWOK_MANAGED_VALUE}`,
    'node-lease-duration-seconds': String(spec.settings.kubelet.nodeLeaseDurationSeconds),
    cidr: '10.0.0.1/16',
  });
}
