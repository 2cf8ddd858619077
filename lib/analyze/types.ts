// Result types of the analyzer: node, pod and workload timelines, outcomes and predicted windows.
// Every time is seconds since time zero, the start of the first fault command (the first `fault-injecting`
// journal marker; millisecond precision, negative for instants before it); `null` means "did not happen before
// the journal ended".
import type { ExpectedValue, PodOutcome } from '../spec/expectation.js';
import type { SelectedPods } from '../spec/types.js';
import type { MechanismRef, PredictedEvent, Window } from './event-types.js';
import type { JudgedForecast } from './forecast/types.js';
import type { ProbeSummary } from './probe-types.js';

export type { MechanismRef, PredictedEvent, Window };

/** The plain-words answer for one workload (lib/analyze/answers.ts). */
export interface WorkloadAnswer {
  workload: string;
  /**
   * One sentence, seconds since time zero rounded to 0.1 s, e.g. `web: both pods restarted in place on
   * rebootlab-worker, Ready again 11.6 s after the reboot — same pod objects (UIDs unchanged) re-read from the API
   * server, new sandboxes (new pod IPs), new containers (restartCount +1)`.
   */
  sentence: string;
}

/** The plain-words answer for one node the fault touched (lib/analyze/answers.ts answerNodes). */
export interface NodeAnswer {
  node: string;
  /**
   * One sentence, seconds since time zero rounded to 0.1 s, e.g. `rebootlab-worker: Ready=Unknown at 17.9 s (its
   * last Lease renewal at -1.0 s); node.kubernetes.io/unreachable NoSchedule at 18.0 s, NoExecute at 22.1 s; Ready
   * again at 122.1 s, 0.7 s after the power-on began`.
   */
  sentence: string;
}

/** The outcome of one pod; see PodOutcome in lib/spec/expectation.ts for the rules. */
export type { PodOutcome } from '../spec/expectation.js';

/**
 * A workload of the experiment: its name (the rebootlab.dev/workload label value of the pods rebootlab creates),
 * kind and replicas; for pods already running, the namespace and labels that select them.
 */
export interface WorkloadRef {
  name: string;
  /**
   * Deployment, StatefulSet, DaemonSet, Pod or Job; for selected pods, their controllers' kind as read at the start
   * of the run (a Deployment for a ReplicaSet a Deployment owns; kinds joined with `+` when they differ).
   */
  kind: string;
  /** Desired Ready pods; when absent (DaemonSet) the Ready count at the fault is used. */
  desiredReplicas?: number;
  /**
   * Name of the Service in front of the workload's pods (its EndpointSlices carry label
   * `kubernetes.io/service-name=<serviceName>`); absent when the workload has none (no endpoint timeline).
   */
  serviceName?: string;
  /** Pods already running that make the workload (lib/analyze/membership.ts); absent for pods rebootlab creates. */
  selector?: SelectedPods;
  /** The volume type of a built-in workload (`local-pv`, `pvc`, `emptyDir`, …), for the plain-words answer; absent without a volume. */
  volumeType?: string;
}

/** Final state of a run: every expectation met, one failed, or the run was interrupted (exit 0, 1, 130). */
export type RunStatus = 'passed' | 'failed' | 'interrupted';

/** Outcome of one expectation (result.json `expectations[]`). `actual` is the value compared (an array when several pods were selected). */
export interface ExpectationResult {
  text: string;
  passed: boolean;
  actual: ExpectedValue | ExpectedValue[];
  /** One line: what was compared and, on failure, which object broke it. */
  message: string;
  /**
   * The expected side as written, normalized: `in [15, 25]`, `< 60`, `== evicted-replaced`; the text when it does not
   * parse. Always set by analyze(); absent in result.json files written before it was added.
   */
  expected?: string;
  /**
   * When the compared value is an instant (a field of type `instant`, lib/spec/expectation.ts, not counted): the
   * instants the comparison accepts, seconds since time zero, an end null when open (`< 60` → from null to 60; both
   * null for `!=` and `== null`, which bound no interval). Null when the compared value is no instant (a count, a
   * span, an outcome). Always set by analyze(); absent in result.json files written before it was added.
   */
  acceptedSeconds?: { fromSeconds: number | null; toSeconds: number | null } | null;
}

/** A taint as it came and went on a node after the fault. */
export interface TaintChange {
  key: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | (string & {});
  value?: string;
  /** From the taint's server `timeAdded` (NoExecute taints carry one), else the receive time; seconds since fault. */
  addedAfterSeconds: number | null;
  /** Client receive time of the first Node version carrying it; seconds since fault. */
  addedReceivedAfterSeconds: number | null;
  /** Server RFC 3339 `timeAdded`, if the taint had one. */
  timeAdded?: string;
  /** Client receive time of the first Node version without it; seconds since fault (no server time exists). */
  removedAfterSeconds: number | null;
}

/** One node's timeline around the fault. */
export interface NodeTimeline {
  name: string;
  /** Whether a `fault-injected` marker names this node. */
  faultTarget: boolean;
  /** Seconds since fault at which the fault hit this node: 0 for the first target, later for staggered ones, null for non-targets. */
  faultInjectedAfterSeconds: number | null;
  /** Last Lease renewTime (server MicroTime) at or before detection (or before restore/end when never detected). */
  lastLeaseRenewBeforeDetection: { renewTime: string; afterSeconds: number } | null;
  /**
   * The node lifecycle controller's zone of this node at the fault (lib/analyze/zones/zone-state.ts zoneKeyOf: region
   * and zone, the legacy `failure-domain.beta.kubernetes.io/…` labels preferred where set), shown `region/zone`, or the
   * value of `topology.kubernetes.io/zone` alone when no region is set; `""` when unlabelled (the controller's single zone).
   */
  zone: string;
  /**
   * Whether the node lifecycle controller counts this node in its zone's state: false when it carries label
   * `node.kubernetes.io/exclude-disruption` (control-plane nodes count otherwise).
   */
  countsForZoneState: boolean;
  /** Ready condition status when it first left True after the fault: `Unknown` (no heartbeat) or `False`. */
  notReadyStatus: 'Unknown' | 'False' | null;
  /** Reason of that condition, e.g. `NodeStatusUnknown`, `KubeletNotReady`. */
  notReadyReason: string | null;
  /** Ready→Unknown/False by the server's lastTransitionTime (1 s resolution); seconds since fault. */
  notReadyAfterSeconds: number | null;
  /** Ready→Unknown/False by the client receive time of the Node update; seconds since fault. */
  notReadyReceivedAfterSeconds: number | null;
  /**
   * After a kubelet-reported Ready=False (notReadyStatus `False`), Ready→Unknown by the node lifecycle controller once
   * the grace period passed without heartbeats (server lastTransitionTime, 1 s resolution), before Ready again;
   * seconds since fault. Absent otherwise.
   */
  unknownAfterSeconds?: number;
  /** The same transition by the client receive time of the Node update; seconds since fault. Absent when unknownAfterSeconds is. */
  unknownReceivedAfterSeconds?: number;
  /**
   * Ready again (after being not Ready) by the server's lastTransitionTime; seconds since fault. A Ready=True status
   * whose lastTransitionTime precedes the not-Ready transition it ends (a stale status written back, as kwok v0.7.0's
   * uncancelled heartbeat job did) is timed by its receipt instead.
   */
  readyAgainAfterSeconds: number | null;
  /** Ready again by client receive time; seconds since fault. */
  readyAgainReceivedAfterSeconds: number | null;
  /** Taints added or removed after the fault, in order of appearance. */
  taints: TaintChange[];
  /**
   * First NoExecute taint the node lifecycle controller added (unreachable or not-ready; never the admin's
   * out-of-service taint), seconds since time zero (addedAfterSeconds: server timeAdded, 1 s resolution).
   */
  noExecuteTaintAfterSeconds: number | null;
  /** `node.kubernetes.io/out-of-service:NoExecute` added (a remediation step or tool), seconds since time zero. */
  outOfServiceTaintAfterSeconds: number | null;
  /** First NoSchedule taint the node lifecycle controller added (unreachable or not-ready), seconds since time zero. */
  noScheduleTaintAfterSeconds: number | null;
  internalIPBefore: string | null;
  internalIPAfter: string | null;
  internalIPChanged: boolean;
  /** Node object deleted (client receive time), seconds since fault. */
  deletedAfterSeconds: number | null;
  /** A Node of the same name with a new UID appeared after deletion (client receive time), seconds since fault. */
  recreatedAfterSeconds: number | null;
  /** Ready condition at the end of the journal. */
  readyAtEnd: boolean;
}

/**
 * Toleration seconds a pod carries for a NoExecute taint alone on its node, from its first toleration that tolerates
 * that taint (lib/analyze/tolerations.ts): a number, `null` = tolerated forever, 0 = not tolerated.
 */
export interface PodTolerations {
  /** For `node.kubernetes.io/unreachable:NoExecute`. */
  unreachableTolerationSeconds: number | null;
  /** For `node.kubernetes.io/not-ready:NoExecute`. */
  notReadyTolerationSeconds: number | null;
  /** For `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` (no default toleration is added: usually 0). */
  outOfServiceTolerationSeconds: number | null;
  /** The pod's tolerations as written in its spec. */
  tolerations: Record<string, unknown>[];
}

/** The pod that took an evicted pod's place. */
export interface Replacement {
  name: string;
  uid: string;
  /** First seen (client receive time), seconds since fault. */
  createdAfterSeconds: number;
  /** First seen with spec.nodeName set, seconds since fault. */
  scheduledAfterSeconds: number | null;
  /** First seen Ready (client receive time), seconds since fault. */
  readyAfterSeconds: number | null;
  node: string | null;
  podIP: string | null;
  /** Its containers' runtime IDs at the end (e.g. `containerd://1a2b…`), in status order; empty when none was reported. */
  containerIDs?: string[];
  /** Pending at the end: the PodScheduled message or a container's waiting reason. */
  pendingReason: string | null;
}

/**
 * What the Eviction API answered for one pod asked by an `evict-pods` or `drain` step (or a script's lab.act / drain),
 * from its `eviction` journal records. Times are client clock, seconds since time zero.
 */
export interface EvictionApiRecord {
  /** `namespace/name`. */
  pod: string;
  uid: string;
  node: string;
  /** Index of the experiment step that asked; null from a script. */
  step: number | null;
  /**
   * `evicted` (accepted, HTTP 201), `refused` (HTTP 429 to every attempt: a PodDisruptionBudget allowed no disruption,
   * until the step's retry time ran out), `gone` (404), or `pending` (refused at least once, and the journal ends
   * before the outcome: an interrupted run).
   */
  outcome: 'evicted' | 'refused' | 'gone' | 'pending';
  attempts: number;
  refusals: number;
  firstAttemptAfterSeconds: number;
  lastAttemptAfterSeconds: number;
  /** The API server's message of the last refusal, or null. */
  message: string | null;
}

/** One pod that existed when the fault was injected. */
export interface PodTimeline {
  namespace: string;
  name: string;
  uid: string;
  /** Value of label rebootlab.dev/workload, or null for pods rebootlab did not create (on a target node). */
  workload: string | null;
  /** Owner kind (ReplicaSet, StatefulSet, DaemonSet, Job) or null for a standalone pod. */
  ownerKind: string | null;
  nodeBefore: string | null;
  nodeAfter: string | null;
  podIPBefore: string | null;
  podIPAfter: string | null;
  restartCountBefore: number;
  restartCountAfter: number;
  restartCountDelta: number;
  /**
   * Its containers' runtime IDs (`status.containerStatuses[].containerID`, e.g. `containerd://1a2b…`) at the fault, in
   * status order; empty when none was journaled (kwok, or journals projected before the ID was kept). Absent in
   * results written before it existed, as are the other fields added with it (container IDs, `terminated...`).
   */
  containerIDsBefore?: string[];
  /** The same as last seen (the pod's own, not its replacement's: see `replacement.containerIDs`). */
  containerIDsAfter?: string[];
  /** Ready condition left True: by server lastTransitionTime; seconds since fault. */
  notReadyAfterSeconds: number | null;
  /** Same, by client receive time; seconds since fault. */
  notReadyReceivedAfterSeconds: number | null;
  /** Ready again after being NotReady (client receive time); seconds since fault. */
  readyAgainAfterSeconds: number | null;
  /** `status.phase` of the first pod version after the fault with Ready not True (e.g. `Running` on a down node), or null. */
  phaseWhenNotReady: string | null;
  /** First seen with a deletionTimestamp (eviction requested), client receive time; seconds since fault. */
  evictedAfterSeconds: number | null;
  /**
   * When its kubelet ended it without a deletionTimestamp (first record after the fault in phase Failed, or Succeeded
   * for a pod that is not a Job's: its controller would have restarted it), client receive time; seconds since fault.
   * PodGC's Failed mark before its deletion counts too.
   */
  terminatedAfterSeconds?: number | null;
  /** That record's phase, `Failed` or `Succeeded`; null when not terminated. */
  terminatedPhase?: string | null;
  /**
   * Why: the pod's `status.reason`, else the reason of the kubelet's admission Event for it after the fault (e.g.
   * `NodeAffinity`: a restarted kubelet re-admitting its pods found the node no longer matches); null when neither.
   * Set by the pods measurement (lib/analyze/measurements/pods.ts).
   */
  terminatedReason?: string | null;
  /** The server's deletionTimestamp (request time + grace period), RFC 3339. */
  deletionTimestamp: string | null;
  /** Removed from the API (DELETED event or missing at a re-list), client receive time; seconds since fault. */
  deletedAfterSeconds: number | null;
  /**
   * When its controller stopped counting it (first record with a deletionTimestamp, a terminal phase Failed/Succeeded,
   * or its deletion), client receive time; seconds since fault. A ReplicaSet replaces it from then on.
   */
  stoppedCountingAfterSeconds: number | null;
  tolerations: PodTolerations;
  replacement: Replacement | null;
  /**
   * Its last record before time zero showed it Ready (condition Ready=True, no deletionTimestamp, not deleted). Absent
   * in results written before it existed.
   */
  readyAtFault?: boolean;
  readyAtEnd: boolean;
  outcome: PodOutcome;
  /**
   * Whether the pod had a ready endpoint in its workload's Service's EndpointSlices at the fault; null when
   * the workload has no Service. The `endpoint...` fields below are set by analyze() for every pod (null when
   * the workload has no Service or the instant did not happen); see lib/analyze/endpoint-timeline.ts.
   */
  endpointReadyAtFault?: boolean | null;
  /** Its endpoint stopped being ready (conditions.ready false, or gone from every slice), client receive time; seconds since fault. */
  endpointNotReadyAfterSeconds?: number | null;
  /** Its endpoint first shown `terminating: true` (the pod got a deletionTimestamp), client receive time; seconds since fault. */
  endpointTerminatingAfterSeconds?: number | null;
  /** The Eviction API's last answer for it (an evict-pods or drain step, a script's lab.act or drain); absent when never asked. */
  evictionApi?: EvictionApiRecord;
  /** Its endpoint removed from every slice of the Service, client receive time; seconds since fault. */
  endpointRemovedAfterSeconds?: number | null;
  /** After it stopped being ready: its own endpoint or its replacement's was ready again, client receive time; seconds since fault. */
  endpointReadyAgainAfterSeconds?: number | null;
}

/** What a workload's Service offered its clients after the fault, from its EndpointSlices. */
export interface WorkloadEndpoints {
  /** The Service whose EndpointSlices were followed (label `kubernetes.io/service-name`). */
  service: string;
  /** Ready endpoints at the fault (distinct pods or addresses with conditions.ready not false). */
  readyAtFault: number;
  /** Lowest ready endpoint count from the fault to the end. */
  minimumReady: number;
  /** Total time after the fault with no ready endpoint: clients of the Service had nowhere to go; seconds. */
  noReadyEndpointSeconds: number;
  /** First instant after the fault with no ready endpoint (0 when none was ready at the fault), seconds since fault; null if never. */
  noReadyEndpointAfterSeconds: number | null;
  /** Ready endpoint count changes after the fault: [secondsSinceFault, readyCount]. */
  readySeries: [number, number][];
}

/**
 * One Kubernetes Event kept as a cross-check of the timelines (reasons: see EVENT_REASONS in lib/analyze/events.ts),
 * as last seen in the journal; or a pod's DisruptionTarget condition, the only trace some controllers leave (PodGC
 * records no Event).
 */
export interface EventRecord {
  /** `Event` (a core/v1 Event object) or `DisruptionTarget` (the pod condition of that type; time from its lastTransitionTime). */
  recordedAs: 'Event' | 'DisruptionTarget';
  /** Event `reason`, e.g. `NodeNotReady`, `TaintManagerEviction`, `Killing`, `Unhealthy`. */
  reason: string;
  /** `Normal` or `Warning`. */
  type: string;
  /** The involved object: `Node/<name>` or `Pod/<namespace>/<name>` (other kinds alike). */
  object: string;
  /** Namespace of the Event object itself (`default` for Node events). */
  namespace: string;
  /** reportingController, else source.component (e.g. `node-controller`, `taint-eviction-controller`, `kubelet`). */
  source: string;
  message: string;
  /** How many times it occurred (`count`, or `series.count`; 1 when absent). */
  count: number;
  /** Its latest occurrence, seconds since fault, read from `timeField`. */
  afterSeconds: number;
  /** Its first occurrence, seconds since fault (firstTimestamp or eventTime; same as afterSeconds for a single occurrence). */
  firstAfterSeconds: number;
  /**
   * Which field gave the time: `series.lastObservedTime` or `eventTime` (MicroTime, microseconds), `lastTimestamp`,
   * `firstTimestamp` or a condition's `lastTransitionTime` (Time, whole seconds), or `received` (client receive
   * time, milliseconds) when none is set.
   */
  timeField: 'series.lastObservedTime' | 'eventTime' | 'lastTimestamp' | 'firstTimestamp' | 'lastTransitionTime' | 'received';
  /** Resolution of that field, seconds: 0.000001, 1 or 0.001. */
  resolutionSeconds: number;
  /** Client receive time of its last journal record, seconds since fault. */
  receivedAfterSeconds: number;
}

/** Ready pod count of one workload over the run. */
export interface WorkloadTimeline {
  name: string;
  kind: string;
  /** Desired Ready pods: from the experiment, else the Ready count at the fault. */
  desired: number;
  readyAtFault: number;
  /** Lowest serving count (client view, see `unavailableSeconds`) from the fault to the end. */
  minimumReady: number;
  readyAtEnd: number;
  /**
   * Time after time zero with fewer serving pods than desired, as a client sees it, seconds: a pod on a node that is
   * powered off, frozen, partitioned, rebooting or deleted stops serving at its node's fault command start, whatever
   * the API still says, and serves again once the API shows it Ready after the node came back. Under kubelet-stop
   * the containers keep serving, so this equals `apiUnavailableSeconds`.
   */
  unavailableSeconds: number;
  /** Time after time zero with fewer API-Ready pods (Ready condition True, no deletionTimestamp) than desired, seconds. */
  apiUnavailableSeconds: number;
  /** First drop below desired (client view), seconds since fault; null if it never dropped. */
  unavailableAfterSeconds: number | null;
  /** Back at the desired Ready count for good: seconds since fault; 0 if never below; null if not recovered by the end. */
  recoveredAfterSeconds: number | null;
  recovered: boolean;
  /**
   * The data probe (workload `dataProbe: true`): `kept` (the marker written before the fault was read back),
   * `lost` (the volume was readable without it) or `unreadable` (no pod could be asked); null without a probe.
   */
  dataProbe: 'kept' | 'lost' | 'unreadable' | null;
  /** API Ready count changes after the fault: [secondsSinceFault, readyCount]. */
  readySeries: [number, number][];
  /** Serving count changes after the fault as a client sees it (see `unavailableSeconds`): [secondsSinceFault, count]. */
  servingSeries: [number, number][];
  /** What the workload's Service offered, from its EndpointSlices; null without a Service. Set by analyze(). */
  endpoints?: WorkloadEndpoints | null;
}

/** One condition of a Job (batch/v1 JobCondition), as last journaled. */
export interface JobCondition {
  /** e.g. `Complete`, `Failed`, `FailureTarget`, `SuccessCriteriaMet`, `Suspended`. */
  type: string;
  status: string;
  /** e.g. `BackoffLimitExceeded`, `PodFailurePolicy`; null when absent. */
  reason: string | null;
  /** Its lastTransitionTime (whole seconds), seconds since time zero; null when absent. */
  afterSeconds: number | null;
}

/** A Job workload's status at the end of the journal and how long its replacements waited. */
export interface JobTimeline {
  name: string;
  namespace: string;
  /** The workload it belongs to. */
  workload: string;
  /** As the API server defaulted it: `Failed` with a podFailurePolicy, else `TerminatingOrFailed`. */
  podReplacementPolicy: 'TerminatingOrFailed' | 'Failed';
  /** Whether the Job has a podFailurePolicy. */
  podFailurePolicy: boolean;
  backoffLimit: number;
  /** batch/v1 JobStatus counts at the end: pods active (running or pending, not terminating), ready, failed, succeeded. */
  active: number;
  /** Ready pods (`status.ready`), null when the API did not report it. */
  ready: number | null;
  failed: number;
  succeeded: number;
  /** Pods terminating (`status.terminating`, tracked from Kubernetes 1.28 with JobPodReplacementPolicy), null when not reported. */
  terminating: number | null;
  conditions: JobCondition[];
  /**
   * The longest wait of a replacement, among the Job's pods replaced after time zero: from when the Job controller
   * could replace the pod (failed, or with podReplacementPolicy Failed gone from the API) to the replacement's
   * creation, client receive times, seconds; null when no pod was replaced. Mostly the pod failure backoff
   * (10 s doubling per failure, lib/analyze/jobs.ts).
   */
  backoffSeconds: number | null;
  /** The Job object was deleted by the end of the journal. */
  deletedAtEnd: boolean;
}

/** The fault as it was done on one target node. */
export interface FaultInstant {
  node: string;
  /** Fault type (`power-off`, `reboot`, …), or null when the journal's marker does not say. */
  type: string | null;
  /** `control-plane` for a network-partition that cut only the node's traffic with the API server; absent otherwise. */
  scope?: 'control-plane';
  /**
   * True for a network partition made of iptables DROP rules (`scope: control-plane`, or the agent backend's
   * partition), whose dials hang until client-go's dialer gives up (lib/analyze/predict-ready-again.ts FaultEnd);
   * absent otherwise (kind's `docker network disconnect` removes the node's interface).
   */
  trafficDropped?: true;
  /** The fault command started (`fault-injecting` marker; `fault-injected` in old journals): Unix epoch milliseconds, client clock. */
  issuedAtMs: number;
  /** Same instant, seconds since time zero (0 for the first target). */
  issuedAfterSeconds: number;
  /** The fault command returned (`fault-injected` marker): Unix epoch milliseconds, client clock; null if it never returned. */
  effectiveAtMs: number | null;
  /** Same instant, seconds since time zero. */
  effectiveAfterSeconds: number | null;
  /** How long the fault command took (effective − issued), seconds; null if it never returned. */
  commandSeconds: number | null;
  /** The node's `fault-restored` marker, seconds since time zero; null when it was not restored. */
  restoredAfterSeconds: number | null;
  /** The node's `fault-restoring` marker (the undo command started), seconds since time zero; absent in journals without one. */
  restoringAfterSeconds?: number | null;
  /** The node's last Lease renewal (server renewTime) at or before the command returned; null if none was journaled. */
  lastLeaseRenewBeforeFault: { renewTime: string; afterSeconds: number } | null;
}

/** What one predicted event follows: an observed event and when it happened. */
export interface PredictionCause {
  /** The observed event, one line, e.g. `last Lease renewal of w1 (server renewTime)`. */
  event: string;
  /** When it happened, seconds since time zero. */
  atSeconds: number;
}

/**
 * One predicted event, derived from the observed event it follows (`cause`) by one Kubernetes mechanism
 * (`because`). Either a window the event must fall in (`expected: true`), or `expected: false` ("must not happen"),
 * or `notModelled` (no window: the reason why).
 */
export interface PredictionItem {
  event: PredictedEvent;
  /** The node the event concerns (for pod events: the pod's node at the fault). */
  node: string;
  /** `namespace/name` of the pod, for pod events; null for node events. */
  pod: string | null;
  /** The taint key, for taint and eviction events (e.g. `node.kubernetes.io/unreachable`); null otherwise. */
  taintKey: string | null;
  /** true: must happen inside `window`; false: must not happen before the journal ends. */
  expected: boolean;
  /** The accepted instants, seconds since time zero; null when `expected` is false or the event is not modelled. */
  window: Window | null;
  /** When it was observed, seconds since time zero (the figure named by `event`); null when it did not happen. */
  observedSeconds: number | null;
  /**
   * true: observed inside the window (or, when not expected, never observed); false: a miss (outside the window,
   * happened though not expected, or not observed although the window closed before the journal ended);
   * null: undecided (the window was still open when the journal ended, or not modelled).
   */
  held: boolean | null;
  /** The observed event this one follows; null when nothing observed triggers it. */
  cause: PredictionCause | null;
  /** One line: the mechanism and the setting it depends on. */
  because: string;
  /** Set when no window can be derived: "not modelled: <why>". */
  notModelled?: string;
  /**
   * The mechanism that gives it: a key of Predictions.mechanisms (its id, or `id@<kubeletVersion>` for a kubelet
   * mechanism on a node of another version). Absent in results written before mechanisms were named.
   */
  mechanism?: string;
  /**
   * Set when the event was received after its window closed but within the observer's own delivery lag measured
   * at that instant (Lease renewTime → receipt, above the journal's median), seconds: the event was on time, its
   * receipt was late, so the item held. Never set for events timed by the server (node-not-ready).
   */
  observerLagSeconds?: number;
  /**
   * `observation` when the window was chosen by reading the outcome it judges (which waiting node got the zone's
   * token, whether the in-pass race was won, the path a late taint took, the instant the next token counts from, the
   * observer's lag around a late receipt): the item explains the run rather than predicts it, and the totals count it
   * apart (Predictions.explainedCount). Absent for an item the model gives from its observed causes alone.
   */
  chosenBy?: 'observation';
  /** With `chosenBy`: what the model gives without reading the outcome (lib/analyze/zones/choices.ts blindChoices), and its verdict. */
  otherwise?: { expected: boolean; window: Window | null; held: boolean | null; because: string; notModelled?: string };
}

/** One change of a zone's state as the model replays the node lifecycle controller's monitor passes. */
export interface ZoneStateChange {
  /** Value of `topology.kubernetes.io/zone`, `""` for unlabelled nodes. */
  zone: string;
  /** The monitor pass at which it changed, seconds since time zero (observed detection time). */
  atSeconds: number;
  state: 'Normal' | 'PartialDisruption' | 'FullDisruption';
  /** NoExecute tainting rate of the zone from then on, nodes per second (0: no further taints). */
  evictionRatePerSecond: number;
  /** Nodes NotReady / nodes counted in the zone at that pass. */
  notReady: number;
  total: number;
}

/** Predictions of the causal model (lib/analyze/predict.ts): each event derived from the observed event it follows. */
export interface Predictions {
  /**
   * The API server's Kubernetes version whose mechanisms were used (run.json cluster.kubernetesVersion); null when
   * unknown (the default version's were used). Absent in results written before the model was version-aware.
   */
  kubernetesVersion?: string | null;
  /** The mechanisms the items name, by key: upstream file, function, the behaviour used and the versions it holds for. Absent as `kubernetesVersion`. */
  mechanisms?: Record<string, MechanismRef>;
  /** Kubelet Lease renew interval = 25% of nodeLeaseDurationSeconds, seconds. */
  leaseRenewIntervalSeconds: number;
  /** --node-monitor-grace-period, seconds. */
  gracePeriodSeconds: number;
  /** --node-monitor-period, seconds. */
  monitorPeriodSeconds: number;
  /** Zone state changes replayed from the observed detections, in time order (empty: every zone stayed Normal). */
  zoneStates: ZoneStateChange[];
  /** Every predicted event, in time order of its cause. */
  items: PredictionItem[];
  /** The items with `held === false`; empty when every prediction held. */
  missed: PredictionItem[];
  /** Items with `held === true`. */
  heldCount: number;
  /** Items with a window or `expected: false` (not `notModelled`). */
  predictedCount: number;
  /**
   * Of `predictedCount`, the items whose window was chosen by reading the observation (`chosenBy`): explained, not
   * predicted. Absent in results written before explained items were counted (read as 0).
   */
  explainedCount?: number;
  /** Of `heldCount`, the explained items (`chosenBy`); absent as `explainedCount`. Predicted from their causes: heldCount − explainedHeldCount of predictedCount − explainedCount. */
  explainedHeldCount?: number;
}

/** A span when a watch was broken: objects may have changed unseen. Seconds since fault. */
export interface GapSpan {
  kind: string;
  fromSeconds: number;
  toSeconds: number;
  reason: string;
}

/** One follow-up step as done on one node (a `step` marker of the journal). */
export interface StepInstant {
  /** 0-based position among the experiment's steps. */
  index: number;
  /** The step action, e.g. `delete-node-object`, `taint-out-of-service`, `restore`. */
  action: string;
  node: string | null;
  /** When the step's action returned (client receive time of the marker), seconds since time zero. */
  afterSeconds: number;
  /**
   * When the step's action started, seconds since time zero: the marker minus the action's duration as the runner
   * timed it (`actedAfterSeconds` − `startedAfterSeconds`; older journals: − the planned `afterSeconds`); the marker
   * itself when those are missing.
   */
  startedAfterSeconds: number;
}

/**
 * A named instant a script marked in the journal (`lab.mark(name, detail)`, a phase record whose detail has
 * `mark: true`), e.g. `node-recovered`. Experiments without script marks have none.
 */
export interface ScriptMark {
  name: string;
  /** Seconds since the fault injection (client receive time of the marker); negative before it. */
  afterSeconds: number;
  /** Nodes the mark concerns, if any. */
  nodes: string[];
  /** What the script recorded with it (numbers carry their unit in the key, e.g. `recoverySeconds`). */
  detail: Record<string, unknown>;
}

/** What every measurement of a run gives, before its verdicts: what expectations read (lib/analyze/expect.ts). */
export type MeasuredRun = Omit<RunAnalysis, 'expectations' | 'status'>;

/** Everything `analyze` derives from one journal. */
export interface RunAnalysis {
  /** Time zero of every `...Seconds`: client clock of the first `fault-injecting` marker (first fault command started), Unix epoch milliseconds. */
  faultInjectedAtMs: number;
  /** Which journal marker time zero is: `fault-injecting` (command started) or, in journals without it, `fault-injected` (command returned). */
  timeZero: 'fault-injecting' | 'fault-injected';
  /** The fault on each target node, in the order they were hit. */
  faults: FaultInstant[];
  /** The fault-restored marker, seconds since fault; null if absent. */
  faultRestoredAfterSeconds: number | null;
  /** Last record of the journal, seconds since fault. */
  endAfterSeconds: number;
  /** Follow-up steps done (experiment `steps:`), in journal order; empty when none. */
  steps: StepInstant[];
  /** Client clock of the last record, Unix epoch milliseconds. */
  endAtMs: number;
  targets: string[];
  nodes: NodeTimeline[];
  pods: PodTimeline[];
  workloads: WorkloadTimeline[];
  /** Per workload, in experiment order, one plain-words sentence of what happened to its pods and why. */
  answers: WorkloadAnswer[];
  /** Per node the fault touched (a target, or one marked NotReady, tainted or deleted), in node order: one sentence. */
  nodeAnswers: NodeAnswer[];
  predictions: Predictions;
  gaps: GapSpan[];
  /** Every workload back at its desired Ready count at the end. */
  recovered: boolean;
  /** Non-fatal findings, one line each (e.g. "no fault-restored marker"). */
  warnings: string[];
  /** Events kept as cross-checks (lib/analyze/events.ts), received after the fault, in time order. */
  events: EventRecord[];
  /** Marks a script wrote, in journal order; absent when there are none (YAML experiments). */
  marks?: ScriptMark[];
  /** What each traffic prober's clients saw (experiment `probes:`); absent when the run had none. */
  probes?: ProbeSummary[];
  /** The forecast frozen before the fault, judged against the run (lib/analyze/forecast); absent when the run has none. */
  forecast?: JudgedForecast;
  /** The experiment's `expect:` texts (AnalyzeOptions.expectations), evaluated on this analysis, in their order. */
  expectations: ExpectationResult[];
  /**
   * `interrupted` when the run was (AnalyzeOptions.interrupted, or a journal without a `run-finished` marker: the
   * run was killed), else `passed` when every expectation passed, else `failed`.
   */
  status: RunStatus;
  /** Each Job's status and replacement wait (lib/analyze/jobs.ts); absent when the journal has no Job. */
  jobs?: JobTimeline[];
  /** Every Eviction API request outcome of evict-pods / drain steps and scripts, in journal order; absent when none. */
  evictions?: EvictionApiRecord[];
  /** Attachable volumes (VolumeAttachments) through the fault (lib/analyze/volume-timeline.ts); absent when none were journaled. */
  volumes?: VolumeAnalysis;
}

/** One VolumeAttachment as journaled (attachable volumes only); instants are client receive times, seconds since time zero. */
export interface AttachmentTimeline {
  name: string;
  /** The PersistentVolume it attaches (spec.source.persistentVolumeName). */
  volume: string;
  node: string;
  /** The CSI driver (spec.attacher). */
  attacher: string;
  /** First record (negative: it existed before the fault). */
  firstSeenAfterSeconds: number;
  /** First seen with status.attached true (the attacher acknowledged); null if never. */
  attachedAfterSeconds: number | null;
  /** First seen with a deletionTimestamp: the attach/detach controller started the detach; null if never. */
  detachStartedAfterSeconds: number | null;
  /** Removed from the API (the attacher released its finalizer): detached; null if never. */
  detachedAfterSeconds: number | null;
}

/** The Multi-Attach error the attach/detach controller recorded on a pod (FailedAttachVolume Events). */
export interface MultiAttachError {
  /** First such Event received, seconds since time zero. */
  firstAfterSeconds: number;
  /** The Event's count (the recorder aggregates repeats). */
  count: number;
  message: string;
}

/**
 * What the attach/detach controller did with the attachable volume of one pod that existed at the fault: the old pod
 * released, the detach from its node, the Multi-Attach error on its replacement and the attach to the replacement's
 * node. Instants are client receive times, seconds since time zero.
 */
export interface PodVolume {
  /** `namespace/name` of the pod at the fault. */
  pod: string;
  uid: string;
  workload: string | null;
  claim: string;
  /** The PersistentVolume bound to the claim. */
  volume: string;
  /** The pod's node at the fault. */
  node: string | null;
  /** The pod left the controller's desired state (Failed, terminated, or deleted); null if it never did. */
  releasedAfterSeconds: number | null;
  /** Whether its node was Ready then (a Node deleted is not). */
  nodeReadyWhenReleased: boolean | null;
  /** Whether its node still reported the volume in status.volumesInUse then (the controller's MountedByNode). */
  mountedWhenReleased: boolean | null;
  /** Whether its node carried the out-of-service taint then. */
  outOfServiceWhenReleased: boolean | null;
  /** First Node record carrying `node.kubernetes.io/out-of-service` after the fault; null if none. */
  outOfServiceTaintReceivedAfterSeconds: number | null;
  /** Its node's VolumeAttachment got a deletionTimestamp (detach started); null if not. */
  detachStartedAfterSeconds: number | null;
  /** That VolumeAttachment removed (detached); null if not. */
  detachedAfterSeconds: number | null;
  /** detachStarted − released, seconds: how long the controller kept the volume attached to the old node. */
  detachWaitSeconds: number | null;
  /** Whether the old node still reported the volume in use when the detach started. */
  mountedWhenDetached: boolean | null;
  /**
   * How the detach of a volume still in use went ahead (reconciler.go, forced detach metrics' reasons): `timeout` (the
   * node unhealthy and maxWaitForUnmountDuration expired), `out-of-service` (the node carried the taint); null when the
   * volume was no longer in use (a normal detach) or not detached.
   */
  forcedDetach: 'timeout' | 'out-of-service' | null;
  /** The pod that took its place, and the volume's attach to its node; null without one. */
  replacement: {
    pod: string;
    uid: string;
    node: string | null;
    scheduledAfterSeconds: number | null;
    /** Multi-Attach error recorded on it; null if none. */
    multiAttach: MultiAttachError | null;
    /** The volume's VolumeAttachment on its node first attached; null if never. */
    attachedAfterSeconds: number | null;
    readyAfterSeconds: number | null;
  } | null;
}

/** Attachable volumes through the fault; present in the analysis only when VolumeAttachments were journaled. */
export interface VolumeAnalysis {
  attachments: AttachmentTimeline[];
  pods: PodVolume[];
}
