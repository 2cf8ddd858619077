// The Kubernetes mechanisms the forecast reads, each with its upstream file and function and the versions it applies
// to. Every forecast item names one. Version awareness (issue 25): a mechanism that changes between versions gets
// one row per range; today every row holds for the versions rebootlab builds (v1.34 behaviour).
import type { MechanismRef } from './types.js';

/** Every mechanism the forecast uses, by id. Files are in kubernetes/kubernetes unless a module is named. */
export const MECHANISMS = {
  'node-health': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'monitorNodeHealth, tryUpdateNodeHealth', versions: 'v1.27+',
  },
  'kubelet-runtime-health': {
    file: 'pkg/kubelet/runtime.go, pkg/kubelet/kubelet.go', function: 'runtimeState.runtimeErrors (maxWaitForContainerRuntime 30 s), updateRuntimeUp (every 5 s), syncNodeStatus', versions: 'v1.27+',
  },
  'kubelet-status': {
    file: 'pkg/kubelet/kubelet_node_status.go, pkg/kubelet/kubelet.go', function: 'syncNodeStatus (every nodeStatusUpdateFrequency, jitter 4 %), fastStatusUpdateOnce', versions: 'v1.27+',
  },
  'no-schedule-taint': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'doNoScheduleTaintingPass', versions: 'v1.27+',
  },
  'no-execute-taint': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go',
    function: 'processTaintBaseEviction, doNoExecuteTaintingPass, handleDisruption, ComputeZoneState, SwapLimiter', versions: 'v1.27+',
  },
  'taint-eviction': {
    file: 'pkg/controller/tainteviction/taint_eviction.go', function: 'processPodOnNode, getMinTolerationTime (first matching toleration per taint)', versions: 'v1.29+',
  },
  'default-tolerations': {
    file: 'plugin/pkg/admission/defaulttolerationseconds/admission.go', function: 'Admit', versions: 'v1.27+',
  },
  'pod-gc': {
    file: 'pkg/controller/podgc/gc_controller.go', function: 'gcOrphaned (quarantineTime 40 s, gcCheckPeriod 20 s), gcTerminating (out-of-service taint)', versions: 'v1.28+',
  },
  'replicaset': {
    file: 'pkg/controller/replicaset/replica_set.go', function: 'manageReplicas (a pod with a deletionTimestamp or Failed no longer counts)', versions: 'v1.27+',
  },
  'statefulset': {
    file: 'pkg/controller/statefulset/stateful_set_control.go', function: 'updateStatefulSet (one pod per identity: recreated once the old one is gone)', versions: 'v1.27+',
  },
  'job': {
    file: 'pkg/controller/job/job_controller.go', function: 'manageJob (podReplacementPolicy TerminatingOrFailed by default)', versions: 'v1.29+',
  },
  'pod-start': {
    file: 'pkg/scheduler, pkg/kubelet/kubelet.go, pkg/kubelet/prober', function: 'schedule, SyncPod, readiness probe worker', versions: 'v1.27+',
  },
  'endpoint-slice': {
    file: 'pkg/controller/endpointslice/endpointslice_controller.go, pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'syncService (endpoint ready = pod Ready), MarkPodsNotReady', versions: 'v1.27+',
  },
  'node-delete': {
    file: 'rebootlab lib/faults (node-delete: stop the node, delete its Node object)', function: 'runFault', versions: 'any',
  },
  'fault-command': {
    file: 'rebootlab lib/faults/inject.ts', function: 'runFault (timed restore after the command returned + duration)', versions: 'any',
  },
  'kube-proxy': {
    file: 'pkg/proxy (iptables/nftables proxier)', function: 'syncProxyRules after an EndpointSlice change', versions: 'v1.27+',
  },
} as const satisfies Record<string, Omit<MechanismRef, 'id'>>;

/** A mechanism's id. */
export type MechanismId = keyof typeof MECHANISMS;

/**
 * Whether mechanism `ref` applies to Kubernetes `version` (e.g. `v1.34.4`): its `versions` is `any` or `vX.Y+` with
 * X.Y at most the version's. Unknown version text counts as applying.
 */
export function appliesTo(ref: Pick<MechanismRef, 'versions'>, version: string): boolean {
  const since = /^v(\d+)\.(\d+)\+$/.exec(ref.versions);
  const running = /^v?(\d+)\.(\d+)/.exec(version);
  if (!since || !running) return true;
  return Number(running[1]) * 1000 + Number(running[2]) >= Number(since[1]) * 1000 + Number(since[2]);
}

/** The reference of mechanism `id` for a forecast item. */
export function mechanism(id: MechanismId): MechanismRef {
  return { id, ...MECHANISMS[id] };
}
