// The one table of the Kubernetes mechanisms the causal model (lib/analyze/predict*.ts) and the forecast
// (lib/analyze/forecast/) rest on: for each, its upstream file and function and, per range of versions, what it does.
// Read from each version's source (docs/versions-mechanisms.md, ~/go/pkg/mod/k8s.io/kubernetes@<v>/). A new
// Kubernetes minor is one edit here: a behaviour row with `since` where a mechanism changed.
import { SUPPORTED_KUBERNETES_VERSIONS, SUPPORTED_KUBERNETES_VERSIONS_TEXT } from '../common/versions.js';
import type { MechanismRef } from './event-types.js';

/** What a mechanism does from Kubernetes `since` (`v1.35`) on, until the next behaviour's `since`. */
export interface MechanismBehaviour {
  /** The first minor it applies to, `vMAJOR.MINOR`. */
  since: string;
  /** One line: what it does, and (for a change) the feature gate and the source that say so. */
  what: string;
}

/** A mechanism: upstream file(s) and function(s), and its behaviours, oldest first (the first is the base). */
export interface MechanismEntry {
  /** Upstream file (kubernetes/kubernetes unless it names another module). */
  file: string;
  /** Function(s) in that file. */
  function: string;
  behaviours: readonly MechanismBehaviour[];
}

const base = (since: string, what: string): MechanismBehaviour[] => [{ since, what }];

/** Every mechanism the models use, by id. Files are in kubernetes/kubernetes unless a module is named. */
export const MECHANISMS = {
  'node-health': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'monitorNodeHealth, tryUpdateNodeHealth',
    behaviours: [
      { since: 'v1.27', what: 'Ready→Unknown at the first monitor pass more than --node-monitor-grace-period after the last heartbeat the controller\'s informer cache saw (Lease renewTime or status post)' },
      {
        since: 'v1.37',
        what: 'NodeControllerLeaseCircuitBreaker (Beta, on; pkg/features/kube_features.go v1.37.2): before marking a node Unknown the controller GETs its live Lease and skips the node for that pass when it is newer than the cache (tryUpdateNodeHealth, v1.37.2 line 963); a node whose heartbeats stopped has the same Lease live and cached, so its window is unchanged, and a node that renewed just before the pass is no longer marked Unknown from a stale cache',
      },
    ],
  },
  'kubelet-runtime-health': {
    file: 'pkg/kubelet/runtime.go, pkg/kubelet/kubelet.go', function: 'runtimeState.runtimeErrors (maxWaitForContainerRuntime 30 s), updateRuntimeUp (every 5 s), syncNodeStatus',
    behaviours: base('v1.27', 'the kubelet reports Ready=False once its runtime has failed its status check for 30 s'),
  },
  'kubelet-graceful-shutdown': {
    file: 'pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go, pkg/kubelet/nodeshutdown/nodeshutdown_manager.go',
    function: 'managerImpl.start (PrepareForShutdown(true): go syncNodeStatus, processShutdownEvent), podManager.killPods',
    behaviours: [
      { since: 'v1.34', what: 'with shutdownGracePeriod > 0 and logind on the system D-Bus when it starts, the kubelet holds a delay inhibitor lock; at logind\'s PrepareForShutdown(true) it syncs its node status at once (Ready=False, "node is shutting down") and kills its pods, regular ones within shutdownGracePeriod − shutdownGracePeriodCriticalPods, critical ones in the rest, each marked Failed, reason Terminated, DisruptionTarget=True (TerminationByKubelet), then releases the lock; but it reads InhibitDelayMaxSec once, right after its asynchronous ReloadLogindConf: when logind has not reloaded yet, start fails ("node shutdown manager was unable to update logind InhibitDelayMaxSec"), the kubelet logs "Failed to start node shutdown manager" and runs without it until it restarts, and a shutdown is then a plain power-off for its pods (read in v1.34.4)' },
      { since: 'v1.35', what: 'with shutdownGracePeriod > 0 and logind on the system D-Bus when it starts, the kubelet holds a delay inhibitor lock; at logind\'s PrepareForShutdown(true) it syncs its node status at once (Ready=False, "node is shutting down") and kills its pods, regular ones within shutdownGracePeriod − shutdownGracePeriodCriticalPods, critical ones in the rest, each marked Failed, reason Terminated, DisruptionTarget=True (TerminationByKubelet), then releases the lock; InhibitDelayMaxSec is re-read with backoff (5 tries from 100 ms) after ReloadLogindConf, so a slow logind reload no longer leaves the manager off (read in v1.35.4, v1.36.3 and v1.37.2: the same shutdown path, v1.37 adds only context plumbing and closes a previous D-Bus connection on reconnect)' },
    ],
  },
  'kubelet-status': {
    file: 'pkg/kubelet/kubelet_node_status.go, pkg/kubelet/kubelet.go', function: 'syncNodeStatus (every nodeStatusUpdateFrequency, jitter 4 %), fastStatusUpdateOnce',
    behaviours: base('v1.27', 'the kubelet posts its node status every nodeStatusUpdateFrequency and at once on start'),
  },
  'kubelet-ready-again': {
    file: 'pkg/kubelet/kubelet_node_status.go, k8s.io/client-go tools/cache/reflector.go, k8s.io/apimachinery pkg/util/net/http.go',
    function: 'tryUpdateNodeStatus (patch against the kubelet\'s own Node informer), updateRuntimeUp (every 5 s), reflector backoff, HTTP/2 health check (30 s idle + 15 s ping), client-go transport dialer (30 s)',
    behaviours: base('v1.27', 'after a fault ends the kubelet posts Ready=True at its first status sync once its Node informer shows the controller\'s Ready=Unknown: after a partition that closed its connection, at the reflector\'s retry (up to 60 s; 15 s more when the partition dropped packets, a dial then hanging until the 30 s dialer timeout); after a shorter partition, at the next TCP retransmission; after a freeze, at the next sync; after a runtime stop, at the next 5 s runtime check (read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2: tryUpdateNodeStatus reads kl.nodeLister first in each; the reflector\'s backoff is a wait.Backoff from client-go v0.36 on, with the same 0.8 s to 30 s, jitter 1)'),
  },
  'kubelet-restart-readiness': {
    file: 'pkg/kubelet/prober/prober_manager.go, pkg/kubelet/prober/worker.go', function: 'UpdatePodStatus, setReadyStateOnKubeletRestart, worker.doProbe',
    behaviours: [
      { since: 'v1.27', what: 'a restarted kubelet has no readiness result for its running containers: it reports a container with a readiness probe not ready until that probe\'s first run (worker.doProbe sets the probe\'s initial Failure; the worker first sleeps a random part of periodSeconds)' },
      {
        since: 'v1.35',
        what: 'ChangeContainerStatusOnKubeletRestart deprecated and off (KEP-4781; pkg/features/kube_features.go v1.35.4): a container started more than 10 s before the kubelet (kubeletRestartGracePeriod) of a pod that was Ready keeps its readiness until its next probe; a younger container is reset as before',
      },
    ],
  },
  'kubelet-admission': {
    file: 'pkg/kubelet/kubelet.go, pkg/kubelet/lifecycle/predicate.go, pkg/scheduler/eventhandlers.go',
    function: 'HandlePodAdditions → rejectPod; predicateAdmitHandler.Admit, generalFilter; AdmissionCheck (GetRequiredNodeAffinity(pod).Match)',
    behaviours: base('v1.27', 'a restarted kubelet admits every non-terminal pod bound to it again, against its Node as its informer has it (the pod source waits for that informer to sync), and rejects one whose required node affinity the Node no longer matches: Event NodeAffinity, status Failed, so it no longer counts for its controller; a removed label alone does nothing to a running pod (IgnoredDuringExecution) (read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2)'),
  },
  'eviction-api': {
    file: 'pkg/registry/core/pod/storage/eviction.go', function: 'EvictionREST.Create (checkAndDecrement on the PodDisruptionBudget)',
    behaviours: base('v1.27', 'an Eviction of a pod no PodDisruptionBudget selects deletes it at once (a deletionTimestamp); one a budget selects only while the budget\'s disruptionsAllowed is above 0, else HTTP 429 Too Many Requests (read in v1.37.2)'),
  },
  'no-schedule-taint': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'doNoScheduleTaintingPass',
    behaviours: base('v1.27', 'a NoSchedule taint for a Ready condition Unknown or False, not rate limited'),
  },
  'no-execute-taint': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go',
    function: 'processTaintBaseEviction, doNoExecuteTaintingPass, handleDisruption, ComputeZoneState, SwapLimiter',
    behaviours: base('v1.34', 'the NoExecute taint queued in the pass that marks the node (kubernetes/kubernetes PR 120816), written by the 100 ms tainting loop when its zone\'s token bucket allows'),
  },
  'no-execute-taint-swap': {
    file: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/util/node/controller_utils.go',
    function: 'monitorNodeHealth, processTaintBaseEviction, SwapNodeControllerTaint',
    behaviours: base('v1.34', 'a node already tainted not-ready:NoExecute (the kubelet reported Ready=False, say a graceful shutdown) that the monitor pass marks Unknown has the taint swapped for unreachable:NoExecute at once in that pass, without a zone token (and unreachable for not-ready likewise when it reports False again) (read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2: processTaintBaseEviction is the same in all four)'),
  },
  'taint-eviction': {
    file: 'pkg/controller/tainteviction/taint_eviction.go', function: 'processPodOnNode, getMinTolerationTime (first matching toleration per taint)',
    behaviours: [
      { since: 'v1.29', what: 'a pod is deleted tolerationSeconds after the taint eviction controller sees a NoExecute taint it tolerates (at once for one it does not)' },
      { since: 'v1.35', what: 'a cancelled countdown can no longer fire (TimedWorker.Cancel, timed_workers.go v1.35.4: a race of microseconds); timing unchanged' },
    ],
  },
  'default-tolerations': {
    file: 'plugin/pkg/admission/defaulttolerationseconds/admission.go', function: 'Admit',
    behaviours: base('v1.27', 'pods get not-ready and unreachable NoExecute tolerations of --default-*-toleration-seconds'),
  },
  'pod-gc': {
    file: 'pkg/controller/podgc/gc_controller.go', function: 'gcOrphaned (quarantineTime 40 s, gcCheckPeriod 20 s), gcTerminating (out-of-service taint)',
    behaviours: base('v1.28', 'pods of a deleted Node deleted after its 40 s quarantine, checked every 20 s; terminating pods of an out-of-service NotReady node force-deleted at the next pass'),
  },
  'replicaset': {
    file: 'pkg/controller/replicaset/replica_set.go', function: 'manageReplicas (a pod with a deletionTimestamp, Failed or Succeeded no longer counts: controller.FilterActivePods)',
    behaviours: [
      { since: 'v1.27', what: 'a replacement is created once the old pod has a deletionTimestamp or is terminal (Failed or Succeeded)' },
      { since: 'v1.36', what: 'StaleControllerConsistencyReplicaSet (Beta, on): a sync waits until the informers have seen the controller\'s own writes (syncReplicaSet EnsureReady, requeued from 5 ms): one informer round trip at most, inside the replacement window' },
    ],
  },
  'statefulset': {
    file: 'pkg/controller/statefulset/stateful_set_control.go', function: 'updateStatefulSet (one pod per identity: recreated once the old one is gone)',
    behaviours: [
      { since: 'v1.27', what: 'a pod of the same name is created only once the old pod is deleted' },
      { since: 'v1.36', what: 'StaleControllerConsistencyStatefulSet (Beta, on): a sync waits until the informers have seen the controller\'s own pod writes (stateful_set.go sync EnsureReady): one informer round trip at most, inside the replacement window' },
    ],
  },
  'job': {
    file: 'pkg/controller/job/job_controller.go, pkg/controller/job/backoff_utils.go', function: 'manageJob (podReplacementPolicy TerminatingOrFailed by default), getRemainingTime (pod failure backoff)',
    behaviours: [
      { since: 'v1.29', what: 'a replacement is created as soon as the old pod is terminating or Failed (podReplacementPolicy TerminatingOrFailed without podFailurePolicy; only once Failed or gone with Failed, the default with a podFailurePolicy), after the pod failure backoff (10 s doubling per failure since the last success, capped at 10 min, from the last failure\'s finish time); none once the Job failed (backoffLimit or a FailJob rule)' },
      { since: 'v1.36', what: 'StaleControllerConsistencyJob (Beta, on): syncJob waits until the pod and Job informers have seen the controller\'s own writes (requeued from 5 ms): one informer round trip at most, inside the replacement window' },
    ],
  },
  'job-index-backoff': {
    file: 'pkg/controller/job/job_controller.go, pkg/controller/job/backoff_utils.go, pkg/controller/job/indexed_job_utils.go',
    function: 'manageJob (getPodCreationInfoForIndependentIndexes), getRemainingTimePerIndex, getIndexAbsoluteFailureCount, getPodsWithDelayedDeletionPerIndex, isIndexFailed',
    behaviours: base('v1.34', 'an Indexed Job with backoffLimitPerIndex replaces each index after its own pod failure backoff: 10 s × 2^(the failed pod\'s job-index-failure-count + job-index-ignored-failure-count annotations), capped at 10 min, from that pod\'s finish time; the Job\'s backoff record is not used, so N indexes lost at once each wait about 10 s (a NonIndexed Job: 10 s × 2^(N − 1)); an index whose failure matches a FailIndex rule, or whose counted failures reached backoffLimitPerIndex, is failed and not replaced (read in v1.34.4, v1.35.4, v1.36.3 and v1.37.2: the same; v1.37.2 only drops the JobBackoffLimitPerIndex gate check, GA and locked on since v1.33)'),
  },
  'job-failed': {
    file: 'pkg/controller/job/job_controller.go, pkg/controller/controller_utils.go',
    function: 'syncJob (exceedsBackoffLimit, getFailJobMessage: FailureTarget), trackJobStatusAndRemoveFinalizers, enactJobFinished (Failed), isPodFailed, enqueueSyncJobBatched (SyncJobBatchPeriod 1 s); CountTerminatingPods, IsPodTerminating',
    behaviours: base('v1.34', 'the first sync that counts more failures than backoffLimit (or a failure matching a FailJob rule: getFailJobMessage) adds FailureTarget=True and deletes the Job\'s active pods (deleteActivePods); Failed=True follows, in that sync or a later one, only once no pod is uncounted and none is terminating (a deletionTimestamp, not Succeeded or Failed: IsPodTerminating): enactJobFinished, unconditional in v1.37.2, behind delayTerminalCondition (JobManagedBy or JobPodReplacementPolicy, the latter GA and locked on since v1.34: pkg/features/kube_features.go v1.36.3) in v1.36.3; its lastTransitionTime is the controller\'s clock then. Pod updates reach syncJob batched by SyncJobBatchPeriod (1 s)'),
  },
  'pod-start': {
    file: 'pkg/scheduler, pkg/kubelet/kubelet.go, pkg/kubelet/prober', function: 'schedule, SyncPod, readiness probe worker',
    behaviours: base('v1.27', 'a new pod is scheduled, started and Ready at its first readiness probe'),
  },
  'endpoint-slice': {
    file: 'pkg/controller/endpointslice/endpointslice_controller.go, pkg/controller/nodelifecycle/node_lifecycle_controller.go', function: 'syncService (endpoint ready = pod Ready), MarkPodsNotReady',
    behaviours: [
      { since: 'v1.27', what: 'an endpoint is ready while its pod is Ready; the node lifecycle controller marks an Unknown node\'s pods Ready=False in that pass' },
      { since: 'v1.35', what: 'pod events pass a pod queue (pod → Services) before the Service queue (podQueueWorker, v1.35.4): one more queue hop, milliseconds' },
    ],
  },
  'attach-detach': {
    file: 'pkg/controller/volume/attachdetach/reconciler/reconciler.go, pkg/volume/csi/csi_attacher.go, pkg/kubelet/volumemanager/reconciler, pkg/util/goroutinemap/exponentialbackoff',
    function: 'reconcile (maxWaitForUnmountDuration 6 min, hasOutOfServiceTaint), attachDesiredVolumes and reportMultiAttachError, waitForVolumeAttachDetachStatusWithLister; the kubelet\'s VerifyControllerAttachedVolume retried 0.5 s doubling to 2m2s',
    behaviours: [
      { since: 'v1.28', what: 'a volume still reported in use by an unhealthy node is force-detached maxWaitForUnmountDuration (6 min) after its pod left the desired state, at once with the out-of-service taint; a pod desired elsewhere meanwhile gets a FailedAttachVolume "Multi-Attach error" Event' },
      { since: 'v1.37', what: 'the Multi-Attach FailedAttachVolume Event reads "Waiting for detach" (reportMultiAttachError, reconciler.go v1.37.2 line 396); timing unchanged' },
    ],
  },
  'node-delete': {
    file: 'rebootlab lib/faults (node-delete: stop the node, delete its Node object)', function: 'runFault',
    behaviours: base('any', 'rebootlab stops the node and deletes its Node object'),
  },
  'fault-command': {
    file: 'rebootlab lib/faults/inject.ts', function: 'runFault (timed restore after the command returned + duration)',
    behaviours: base('any', 'the fault command, and its restore after the fault\'s duration'),
  },
  'step': {
    file: 'rebootlab lib/faults/steps.ts', function: 'runSteps (force-delete-pods: every pod bound to the node deleted with grace period 0)',
    behaviours: base('any', 'a follow-up step of the experiment acts while it runs'),
  },
  'standalone-pod': {
    file: 'pkg/controller (no controller owns the pod)', function: 'none',
    behaviours: base('any', 'nothing recreates a pod without a controller'),
  },
  'kube-proxy': {
    file: 'pkg/proxy (iptables/nftables proxier)', function: 'syncProxyRules after an EndpointSlice change',
    behaviours: base('v1.27', 'Service rules follow the EndpointSlices within a sync'),
  },
} as const satisfies Record<string, MechanismEntry>;

/** A mechanism's id. */
export type MechanismId = keyof typeof MECHANISMS;

/** `v1.35.4`, `1.35`, `v1.35.4-gke.100` → 1035 (major × 1000 + minor); null for anything else. */
function minorKey(version: string): number | null {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  return m ? Number(m[1]) * 1000 + Number(m[2]) : null;
}

/** `vMAJOR.MINOR` of `version`, or the text itself when it is not a version. */
function minorText(version: string): string {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  return m ? `v${m[1]}.${m[2]}` : version;
}

/**
 * The behaviour of mechanism `id` on Kubernetes `version` (any patch or build suffix: `v1.35.4-gke.100` reads as
 * v1.35) and the range of versions it holds for (`v1.35+`, `v1.27 to v1.34`, `v1.34` for one minor). A version older than a mechanism's
 * first row gets that row; text that is not a version gets the newest.
 */
export function behaviourFor(id: MechanismId, version: string): { behaviour: MechanismBehaviour; versions: string } {
  const rows: readonly MechanismBehaviour[] = MECHANISMS[id].behaviours;
  const key = minorKey(version);
  let index = rows.length - 1;
  if (key !== null) {
    index = 0;
    rows.forEach((r, i) => {
      const since = minorKey(r.since);
      if (since !== null && since <= key) index = i;
    });
  }
  const next = rows[index + 1];
  const nextKey = next ? minorKey(next.since) : null;
  const before = nextKey === null ? null : `v${Math.floor(nextKey / 1000)}.${(nextKey % 1000) - 1}`;
  const since = rows[index]!.since;
  return { behaviour: rows[index]!, versions: since === 'any' ? 'any' : before === null ? `${since}+` : before === since ? since : `${since} to ${before}` };
}

/** The reference of mechanism `id` as it applies to Kubernetes `version`: file, function, the behaviour used and its range. */
export function mechanismFor(id: MechanismId, version: string): MechanismRef {
  const { behaviour, versions } = behaviourFor(id, version);
  return { id, file: MECHANISMS[id].file, function: MECHANISMS[id].function, versions, kubernetesVersion: version, behaviour: behaviour.what };
}

/**
 * Whether Kubernetes `version` gets the behaviour of mechanism `id` that starts at `since` (`v1.35`) or a later one.
 * Text that is not a version counts as the newest.
 */
export function hasBehaviourSince(version: string, since: string): boolean {
  const key = minorKey(version);
  return key === null || key >= minorKey(since)!;
}

/**
 * One line when `version` is outside the minors rebootlab models (those of {@link SUPPORTED_KUBERNETES_VERSIONS}),
 * saying whose mechanisms are used instead; null for a supported minor (any patch of it: the mechanisms are read per
 * minor).
 */
export function unsupportedVersionWarning(version: string): string | null {
  const key = minorKey(version);
  const minors = SUPPORTED_KUBERNETES_VERSIONS.map(minorKey).filter((k): k is number => k !== null);
  if (key !== null && minors.includes(key)) return null;
  const newest = SUPPORTED_KUBERNETES_VERSIONS[0]!;
  const nearest = key === null ? newest : SUPPORTED_KUBERNETES_VERSIONS.reduce((a, b) => (Math.abs(minorKey(b)! - key) < Math.abs(minorKey(a)! - key) ? b : a));
  return `Kubernetes ${version} is outside the versions rebootlab models (${SUPPORTED_KUBERNETES_VERSIONS_TEXT}): its mechanisms are taken as those of ${minorText(nearest)} and the predictions may not apply`;
}

/** A key of a result's mechanisms: a mechanism id, or `id@<kubeletVersion>` (see {@link mechanismKey}). */
export type MechanismKey = MechanismId | `${MechanismId}@${string}`;

/** Mechanisms keyed for a result: `id` on the cluster's version, `id@<kubeletVersion>` for a kubelet mechanism on a node of another version. */
export function mechanismKey(id: MechanismId, version: string, clusterVersion: string): MechanismKey {
  return version === clusterVersion ? id : `${id}@${version}`;
}

