// The words the causal model and the forecast share: the events they predict and the windows they put them in.
// Types only, below analyze/types.ts and analyze/forecast/types.ts, which both read them.

/** A closed interval, seconds since time zero. */
export interface Window {
  fromSeconds: number;
  toSeconds: number;
}

/** Events the causal model predicts. */
export type PredictedEvent =
  /** Node Ready condition → Unknown by the node lifecycle controller (server lastTransitionTime). */
  | 'node-not-ready'
  /** Node Ready condition → False reported by the kubelet itself (server lastTransitionTime). */
  | 'node-not-ready-kubelet'
  /** A NoSchedule taint (`taintKey`) added by the node lifecycle controller (client receive time). */
  | 'no-schedule-taint'
  /** A NoExecute taint (`taintKey`) added (client receive time of the first Node version carrying it). */
  | 'no-execute-taint'
  /** Pod deletionTimestamp set by the taint eviction controller (client receive time). */
  | 'pod-eviction'
  /** Pod removed from the API (client receive time): pod garbage collection or a force-delete step. */
  | 'pod-deleted'
  /** Replacement pod created (first seen, client receive time). */
  | 'replacement-created';
