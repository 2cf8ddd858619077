// Result types of the analyzer: node, pod and workload timelines, outcomes and predicted windows.
// Every time is seconds since the fault injection (millisecond precision, may be negative for
// instants before it); `null` means "did not happen before the journal ended".
import type { PodOutcome } from '../spec/expectation.js';

/** The outcome of one pod; see PodOutcome in lib/spec/expectation.ts for the rules. */
export type { PodOutcome } from '../spec/expectation.js';

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
  /** Ready condition status when it first left True after the fault: `Unknown` (no heartbeat) or `False`. */
  notReadyStatus: 'Unknown' | 'False' | null;
  /** Reason of that condition, e.g. `NodeStatusUnknown`, `KubeletNotReady`. */
  notReadyReason: string | null;
  /** Ready→Unknown/False by the server's lastTransitionTime (1 s resolution); seconds since fault. */
  notReadyAfterSeconds: number | null;
  /** Ready→Unknown/False by the client receive time of the Node update; seconds since fault. */
  notReadyReceivedAfterSeconds: number | null;
  /** Ready again (after being not Ready) by the server's lastTransitionTime; seconds since fault. */
  readyAgainAfterSeconds: number | null;
  /** Ready again by client receive time; seconds since fault. */
  readyAgainReceivedAfterSeconds: number | null;
  /** Taints added or removed after the fault, in order of appearance. */
  taints: TaintChange[];
  /** First NoExecute taint added (unreachable, not-ready or out-of-service), seconds since fault (addedAfterSeconds). */
  noExecuteTaintAfterSeconds: number | null;
  /** First NoSchedule taint added, seconds since fault. */
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

/** Toleration seconds a pod carries for a NoExecute taint: a number, `null` = tolerated forever, 0 = not tolerated. */
export interface PodTolerations {
  /** For `node.kubernetes.io/unreachable:NoExecute`. */
  unreachableTolerationSeconds: number | null;
  /** For `node.kubernetes.io/not-ready:NoExecute`. */
  notReadyTolerationSeconds: number | null;
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
  /** Pending at the end: the PodScheduled message or a container's waiting reason. */
  pendingReason: string | null;
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
  /** The server's deletionTimestamp (request time + grace period), RFC 3339. */
  deletionTimestamp: string | null;
  /** Removed from the API (DELETED event or missing at a re-list), client receive time; seconds since fault. */
  deletedAfterSeconds: number | null;
  tolerations: PodTolerations;
  replacement: Replacement | null;
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
  /** Lowest Ready count from the fault to the end. */
  minimumReady: number;
  readyAtEnd: number;
  /** Total time after the fault with fewer Ready pods than desired, seconds. */
  unavailableSeconds: number;
  /** First drop below desired, seconds since fault; null if it never dropped. */
  unavailableAfterSeconds: number | null;
  /** Back at the desired Ready count for good: seconds since fault; 0 if never below; null if not recovered by the end. */
  recoveredAfterSeconds: number | null;
  recovered: boolean;
  /**
   * The data probe (workload `dataProbe: true`): `kept` (the marker written before the fault was read back),
   * `lost` (the volume was readable without it) or `unreadable` (no pod could be asked); null without a probe.
   */
  dataProbe: 'kept' | 'lost' | 'unreadable' | null;
  /** Ready count changes after the fault: [secondsSinceFault, readyCount]. */
  readySeries: [number, number][];
  /** What the workload's Service offered, from its EndpointSlices; null without a Service. Set by analyze(). */
  endpoints?: WorkloadEndpoints | null;
}

/** A closed interval, seconds since fault. */
export interface Window {
  fromSeconds: number;
  toSeconds: number;
}

/** What the settings predict for one target node. */
export interface NodePrediction {
  node: string;
  /** When the fault hit this node, seconds since fault (0 unless staggered); every window below includes it. */
  injectedAfterSeconds: number;
  /** Ready→Unknown: [grace − lease renew interval, grace + monitor period]. */
  detection: Window;
  /** Whether detection is expected given the fault's duration: true, false, or null (restored inside the window or never). */
  detectionExpected: boolean | null;
  /** NoExecute unreachable taint: detection window, or 1 / nodeEvictionRate after the previous target's taint if later; null when none is expected (restored first, or zone disruption). */
  noExecuteTaint: Window | null;
  /** 0-based position of this node among targets in taint order; each later node waits at least 1 / nodeEvictionRate seconds after the previous one. */
  rateLimitIndex: number;
}

/** What the settings predict for one pod on a target node. */
export interface PodPrediction {
  namespace: string;
  name: string;
  node: string;
  /** The tolerationSeconds used; null = tolerated forever (no eviction predicted). */
  tolerationSeconds: number | null;
  /** Eviction (deletionTimestamp): NoExecute taint window + tolerationSeconds; null when none is predicted. */
  eviction: Window | null;
}

/** Predicted windows derived from the effective settings; each field's docstring in predict.ts cites its source. */
export interface Predictions {
  /** Kubelet Lease renew interval = 25% of nodeLeaseDurationSeconds, seconds. */
  leaseRenewIntervalSeconds: number;
  gracePeriodSeconds: number;
  monitorPeriodSeconds: number;
  /** Zone state the controller should see when every target is NotReady. */
  zoneState: 'Normal' | 'PartialDisruption' | 'FullDisruption';
  /** True when that zone state stops further NoExecute tainting (eviction rate 0). */
  evictionsSuppressed: boolean;
  nodes: NodePrediction[];
  pods: PodPrediction[];
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
  /** When the step's action returned (client receive time of the marker), seconds since fault. */
  afterSeconds: number;
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

/** Everything `analyze` derives from one journal. */
export interface RunAnalysis {
  /** Client clock of the fault-injected marker, Unix epoch milliseconds: the zero of every `...Seconds`. */
  faultInjectedAtMs: number;
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
}
