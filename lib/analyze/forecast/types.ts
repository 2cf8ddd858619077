// Shapes of the forecast: what it is computed from (the resolved experiment, the effective settings, the Kubernetes
// version and the pre-fault state) and what it says (one item per event, each an interval with its mechanism,
// setting and named assumption). Every instant is seconds since time zero, the start of the first fault command.
import type { Toleration } from '../../spec/types.js';
import type { MechanismRef, PredictedEvent, Window } from '../event-types.js';
import type { HostLoadReading } from '../host-load.js';

export type { MechanismRef } from '../event-types.js';

/** A node as it was before the fault. */
export interface PreFaultNode {
  name: string;
  /** The Node's labels (zone, region, exclude-disruption, control-plane role). */
  labels: Record<string, string>;
  controlPlane: boolean;
  /**
   * The last Lease renewal seen before the forecast (server renewTime), seconds since time zero (≤ 0); null when
   * unknown (no cluster, or no Lease record).
   */
  lastLeaseRenewSeconds: number | null;
  /** The last status post seen before the forecast (the Ready condition's lastHeartbeatTime), seconds since time zero; null when unknown. */
  lastStatusPostSeconds: number | null;
  /** The Node's status.nodeInfo.kubeletVersion (e.g. `v1.35.4`): its kubelet mechanisms; absent or null when not journaled (the cluster's version is used). */
  kubeletVersion?: string | null;
}

/** A pod as it was before the fault. */
export interface PreFaultPod {
  namespace: string;
  name: string;
  /** Workload name (label rebootlab.dev/workload), or null for pods rebootlab did not create. */
  workload: string | null;
  /** Owner kind (ReplicaSet, StatefulSet, DaemonSet, Job) or null for a standalone pod. */
  ownerKind: string | null;
  node: string;
  /** Tolerations as admitted (with the DefaultTolerationSeconds and DaemonSet defaults). */
  tolerations: Toleration[];
  /**
   * When its youngest running container started (containerStatuses[].state.running.startedAt, whole seconds, truncated),
   * seconds since time zero (≤ 0); absent or null when unknown (no cluster, or not running).
   */
  startedSeconds?: number | null;
  /**
   * spec.priority as admitted (the Priority admission plugin), e.g. 2000001000 for system-node-critical; 0 for
   * rebootlab's workloads (no priorityClassName); absent or null when not recorded (journals before it was kept).
   */
  priority?: number | null;
  /** spec.terminationGracePeriodSeconds, seconds; absent or null when not recorded (the API default is 30 s). */
  terminationGracePeriodSeconds?: number | null;
}

/**
 * The cluster before the fault, the state a forecast conditions on. `experiment`: no cluster; node names, zones
 * and placement as a run would make them (`rebootlab predict`); heartbeats unknown. `journal`: the records before
 * the fault (a run's frozen forecast): placement, zone membership and each node's last heartbeat as seen.
 */
export interface PreFaultState {
  source: 'experiment' | 'journal';
  nodes: PreFaultNode[];
  /** Fault targets in injection order. */
  targets: string[];
  pods: PreFaultPod[];
  /**
   * How long before time zero the state was read, seconds (≥ 0): a journal forecast is made just before the first
   * fault command, so its heartbeat instants are known up to this lead.
   */
  leadSeconds: number;
  /**
   * The last `host-load` reading before the forecast (kind, kwok: the host running the nodes; lib/analyze/host-load.ts),
   * said among the forecast's conditions; null or absent without one (no cluster, provider existing, older journals).
   */
  host?: HostLoadReading | null;
}

/** Events the forecast gives beyond those of the causal model. */
export type ForecastEvent =
  | PredictedEvent
  /** Node Ready condition True again (server lastTransitionTime) after a fault that ends. */
  | 'node-ready-again'
  /** Node object deleted (client receive time). */
  | 'node-deleted'
  /** Replacement pod first seen Ready (client receive time). */
  | 'replacement-ready'
  /**
   * The pod ended by its kubelet without a deletionTimestamp: its first record after the fault in phase Failed (or
   * Succeeded), client receive time (PodTimeline.terminatedAfterSeconds); forecast for a graceful node shutdown.
   */
  | 'pod-terminated'
  /** The pod's endpoint no longer ready in its Service's EndpointSlices (client receive time). */
  | 'endpoint-not-ready'
  /** The workload first below its desired serving count, as clients see it (WorkloadTimeline.unavailableAfterSeconds). */
  | 'workload-unavailable'
  /** The workload first below its desired count of API-Ready pods (the first drop of WorkloadTimeline.readySeries). */
  | 'workload-api-unavailable'
  /** The workload back at its desired Ready count for good (WorkloadTimeline.recoveredAfterSeconds). */
  | 'workload-recovered'
  /** The last failed request of a traffic prober (ProbeSummary.lastErrorAfterSeconds). */
  | 'probe-last-error'
  /**
   * The Job's condition Failed=True: its lastTransitionTime (the Job controller's clock when it set it, a metav1.Time,
   * truncated to whole seconds), seconds since time zero as JobCondition.afterSeconds reads it (serverSecondsSince,
   * the same reading as the node's Ready lastTransitionTime); the forecast's windows open 1 s early for the truncation.
   */
  | 'job-failed';

/** One way the event can go: when, and on what it depends. */
export interface ForecastOutcome {
  /** When it happens in this outcome, seconds since time zero; null: it does not happen. */
  window: Window | null;
  /** What makes this outcome, e.g. "its monitor pass took the zone's token". */
  when: string;
}

/** One forecast event: an interval, the mechanism and setting that give it, the assumption behind its width. */
export interface ForecastItem {
  event: ForecastEvent;
  /** The node it concerns (for pod events: the pod's node before the fault). */
  node: string;
  /** `namespace/name` of the pod for pod events, else null. */
  pod: string | null;
  /** The workload for pod, workload and probe events (the prober's name for probe events), else null. */
  workload: string | null;
  /** The taint key for taint and eviction events, else null. */
  taintKey: string | null;
  /** `always`: in every outcome; `never`: in none; `maybe`: in some (see `outcomes`). */
  happens: 'always' | 'never' | 'maybe';
  /** The hull of the outcomes' windows, seconds since time zero; null when it never happens. */
  window: Window | null;
  /** Every outcome (at least one); several when the forecast cannot know which (say which node wins a token). */
  outcomes: ForecastOutcome[];
  /**
   * The mechanism that gives it: a key of Forecast.mechanisms (file, function, versions, behaviour): its id, or
   * `id@<kubeletVersion>` for a kubelet mechanism on a node whose kubelet runs another version than the API server.
   */
  mechanism: string;
  /** The settings it depends on, with their values, e.g. `--node-monitor-grace-period 20 s`. */
  setting: string;
  /** The named assumption behind the window's width. */
  assumption: string;
  /** One line: why, in Kubernetes' terms. */
  because: string;
}

/** A forecast: what the settings alone say will happen, before the fault. */
export interface Forecast {
  /** The API server's Kubernetes version the mechanisms were taken for, e.g. `v1.37.2` (a kubelet's, where it differs, in the mechanism's key). */
  kubernetesVersion: string;
  /** Where the pre-fault state came from (see PreFaultState.source). */
  conditionedOn: PreFaultState['source'];
  /** What the forecast conditions on, one line each (e.g. "the last Lease renewal of w1 seen 2.1 s before"). */
  conditions: string[];
  /** Fault targets in injection order. */
  targets: string[];
  /** The mechanisms the items name, by key: upstream file, function, the behaviour used and the versions it holds for. */
  mechanisms: Record<string, MechanismRef>;
  items: ForecastItem[];
  /** Things it does not forecast, one line each, with why. */
  notForecast: string[];
  /**
   * Set for a scripted experiment (lib/script/experiment.ts): the forecast knows only the script's first fault, so it
   * is judged up to the script's next action (a `forecast-horizon` mark, lib/analyze/forecast/judge.ts FORECAST_HORIZON_PHASE), whatever
   * that is; absent: judged to the end of the run.
   */
  horizon?: 'next-script-action';
}

/** A forecast item judged against a run. */
export interface JudgedForecastItem extends ForecastItem {
  /** What the run shows for this event, seconds since time zero (the figure named by `event`); null when it did not happen. */
  observedSeconds: number | null;
  /** true: inside one outcome's window (or never, when that is an outcome); false: a miss; null: undecided (still open at the end, or not observable). */
  held: boolean | null;
}

/** A forecast judged against a run: result.json `forecast`. */
export interface JudgedForecast extends Omit<Forecast, 'items'> {
  /** When the forecast was frozen: `journal` (a forecast record before the first fault command) or `recomputed` (from the records before the fault of a journal without one). */
  frozen: 'journal' | 'recomputed';
  /**
   * With `horizon`: when the script's next action started (seconds since time zero) and what it was; items are judged
   * as the run stood then (an event seen later counts as not seen). Null when the script took no action after its first fault.
   */
  judgedUntil?: { afterSeconds: number; action: string } | null;
  items: JudgedForecastItem[];
  missed: JudgedForecastItem[];
  heldCount: number;
  /** Items judged (held true or false). */
  judgedCount: number;
}
