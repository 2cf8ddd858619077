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
  /** Node Ready condition back to True after the fault ended, posted by the kubelet (server lastTransitionTime). */
  | 'node-ready-again'
  /** A NoSchedule taint (`taintKey`) added by the node lifecycle controller (client receive time). */
  | 'no-schedule-taint'
  /** A NoExecute taint (`taintKey`) added (client receive time of the first Node version carrying it). */
  | 'no-execute-taint'
  /** Pod deletionTimestamp set by the taint eviction controller (client receive time). */
  | 'pod-eviction'
  /** Pod removed from the API (client receive time): pod garbage collection or a force-delete step. */
  | 'pod-deleted'
  /** Replacement pod created (first seen, client receive time). */
  | 'replacement-created'
  /** The attach/detach controller starts detaching a volume from the old node: its VolumeAttachment gets a deletionTimestamp (client receive time). */
  | 'volume-detach'
  /** The volume attached to the replacement's node: its VolumeAttachment status.attached (client receive time). */
  | 'volume-attach'
  /** A Multi-Attach error (FailedAttachVolume Event) on the replacement (client receive time). */
  | 'multi-attach-error';


/**
 * Where a mechanism lives upstream and what it does on the Kubernetes version it was taken for (lib/analyze/mechanisms.ts,
 * one table for the causal model and the forecast).
 */
export interface MechanismRef {
  /** Short id, e.g. `node-health`. */
  id: string;
  /** Upstream file (kubernetes/kubernetes unless it names another module). */
  file: string;
  /** Function(s) in that file. */
  function: string;
  /** The Kubernetes versions its behaviour below holds for, e.g. `v1.35+` or `v1.27 to v1.34`. */
  versions: string;
  /** The version it was taken for: the API server's, or a node's kubeletVersion for kubelet mechanisms (e.g. `v1.37.2`). Absent in results written before it. */
  kubernetesVersion?: string;
  /** What it does on that version, one line. Absent in results written before it. */
  behaviour?: string;
}
