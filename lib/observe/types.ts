// The journal's record types: what the observer appends to observations.jsonl, one JSON object per line.
// Analysis and reports read only these records (plus run metadata), never the cluster.

/** Kubernetes kinds the observer watches (VolumeAttachment and PersistentVolume only in runs with attachable volumes). */
export const WATCHED_KINDS = ['Node', 'Lease', 'Pod', 'Event', 'EndpointSlice', 'Job', 'VolumeAttachment', 'PersistentVolume'] as const;
/** One of {@link WATCHED_KINDS}. */
export type WatchedKind = (typeof WATCHED_KINDS)[number];

/**
 * The kube-controller-manager's leader election Lease (kube-system): a change of its holderIdentity restarts the
 * node lifecycle and taint eviction countdowns (the analyzer marks predictions across it "not modelled").
 */
export const CONTROLLER_MANAGER_LEASE = { namespace: 'kube-system', name: 'kube-controller-manager' } as const;

/** How an object observation arose: an initial or re-list entry, or a watch event. */
export type ObservationVerb = 'LISTED' | 'ADDED' | 'MODIFIED' | 'DELETED';

/** Fields every journal record carries. */
export interface ObservationBase {
  /** Sequence number in the journal, from 0, strictly increasing. */
  seq: number;
  /** Client clock when the record was received or made: Unix epoch, milliseconds. */
  receivedAtMs: number;
}

/**
 * One object seen through a list or watch. `object` is the Kubernetes object as the API server
 * sent it (managedFields removed), so server timestamps (lastTransitionTime, renewTime,
 * creationTimestamp, deletionTimestamp) stay in their RFC 3339 form.
 */
export interface ObjectObservation extends ObservationBase {
  type: 'object';
  kind: WatchedKind;
  verb: ObservationVerb;
  namespace?: string;
  name: string;
  uid: string;
  resourceVersion: string;
  object: Record<string, unknown>;
}

/** Phases of a run, marked by the runner in the journal (the Reporter interface's onPhase). */
export type PhaseName =
  | 'run-started'
  | 'cluster-ready'
  | 'workloads-ready'
  | 'fault-injecting'
  | 'fault-injected'
  | 'fault-restoring'
  | 'fault-restored'
  | 'step'
  | 'settled'
  | 'interrupted'
  | 'run-finished'
  | (string & {});

/** A named instant in the run, e.g. the fault injection. `detail` holds phase-specific facts. */
export interface PhaseObservation extends ObservationBase {
  type: 'phase';
  phase: PhaseName;
  /** Node names the phase concerns (fault targets), if any. */
  nodes?: string[];
  detail?: Record<string, unknown>;
}

/**
 * A watch that broke and was re-listed: objects may have changed unseen between
 * `fromMs` and `toMs` (both Unix epoch milliseconds, client clock).
 */
export interface GapObservation extends ObservationBase {
  type: 'gap';
  kind: WatchedKind;
  fromMs: number;
  toMs: number;
  reason: string;
}

/**
 * How one probe request ended: an HTTP 2xx answer or a DNS answer with a record (`ok`), an HTTP error status, a DNS
 * answer with an error code or no record (`dns-error`), or a connection-level failure.
 */
export type ProbeOutcome = 'ok' | 'http-error' | 'dns-error' | 'refused' | 'reset' | 'timeout' | 'unreachable' | 'error';

/**
 * One request of a traffic prober (experiment `probes:`), written when it ended. `receivedAtMs` is when the
 * answer or the error arrived; `sentAtMs` when the request was started (both client clock, Unix epoch ms).
 */
export interface ProbeObservation extends ObservationBase {
  type: 'probe';
  /** The probe's name (experiment `probes[].name`). */
  probe: string;
  sentAtMs: number;
  /** Milliseconds from send to the answer or the error. */
  latencyMs: number;
  outcome: ProbeOutcome;
  /** HTTP status, when an answer arrived. */
  status?: number;
  /** The pod that answered (the workload server names itself), when an answer arrived. */
  pod?: string;
  /** Node error code or message, for failures (e.g. `ECONNREFUSED`); a DNS response code (e.g. `NXDOMAIN`). */
  error?: string;
  /**
   * The client's TCP or UDP source port, when the kernel had bound one. Each request is a new connection (a new UDP
   * socket for DNS); one that reuses the source port of a recent one to the same node port matches that flow's
   * conntrack entry and its NAT to a pod (nf_conntrack keeps an unanswered TCP SYN_SENT entry 120 s, an unreplied
   * UDP entry 30 s), so the port tells such failures apart.
   */
  localPort?: number;
}

/**
 * The forecast of the run, frozen just before the first fault command (lib/analyze/forecast): what the settings and
 * the pre-fault state said would happen, written before anything did. `forecast` is that Forecast as JSON (the journal
 * does not read it).
 */
export interface ForecastObservation extends ObservationBase {
  type: 'forecast';
  forecast: Record<string, unknown>;
}

/** One line of observations.jsonl. */
export type Observation = ObjectObservation | PhaseObservation | GapObservation | ProbeObservation | ForecastObservation;
