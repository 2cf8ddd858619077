// What a kubelet restart does to the readiness of the pods it finds running, by the kubelet's version
// (mechanism kubelet-restart-readiness of lib/analyze/mechanisms.ts): reset until the first readiness probe up to
// v1.34, kept from v1.35 for containers that ran 10 s before the kubelet started.
import type { WorkloadSpec } from '../../spec/types.js';
import { hasBehaviourSince, mechanismKey, type MechanismKey } from '../mechanisms.js';
import type { TargetNodeForecast } from './nodes.js';
import type { PreFaultPod } from './types.js';

/**
 * kubeletRestartGracePeriod (pkg/kubelet/prober/prober_manager.go, v1.35.4 to v1.37.2): a container counts as
 * running before the kubelet restarted when it started more than this long before the prober manager did, seconds.
 */
export const KUBELET_RESTART_GRACE_SECONDS = 10;
/** The first version whose kubelet keeps readiness across a restart (ChangeContainerStatusOnKubeletRestart off by default). */
const KEEPS_READINESS_SINCE = 'v1.35';

/** A pod's readiness across a kubelet restart: `kept` for sure, or `maybe-reset` (reset until its first probe, unless that probe runs first). */
export interface RestartReadiness {
  fate: 'kept' | 'maybe-reset';
  /** The key of the mechanism used (ForecastItem.mechanism). */
  mechanism: MechanismKey;
  /** One line: why. */
  because: string;
}

/**
 * The readiness of `pod` (of workload `w`) when the kubelet of `node` restarts, for a forecast on a cluster of
 * `clusterVersion`. Every rebootlab workload has a readiness probe (its own, or the built-in one every second,
 * lib/workloads/pod-template.ts); up to v1.34 the restarted kubelet reports it not ready until the
 * probe's first run, which comes a random part of periodSeconds after the kubelet's start and may precede the first
 * status it writes (so: maybe); from v1.35 a container started more than 10 s before the kubelet keeps its readiness
 * (setReadyStateOnKubeletRestart), a younger one is reset as before. The kubelet starts after the restart command
 * does (node.offSeconds); a container's start is known to the second (truncated) from the journal, else its
 * readiness probe's initialDelaySeconds bounds it (the pod was Ready before time zero, so the container ran at least
 * that long). Manifest and selected workloads' probes are not known here: counted as having one, with no initial delay.
 */
export function restartReadiness(pod: PreFaultPod, w: WorkloadSpec, node: TargetNodeForecast, clusterVersion: string): RestartReadiness {
  const mechanism = mechanismKey('kubelet-restart-readiness', node.kubeletVersion, clusterVersion);
  const probeKnown = w.manifest === null && w.selected === null;
  if (!hasBehaviourSince(node.kubeletVersion, KEEPS_READINESS_SINCE)) {
    return { fate: 'maybe-reset', mechanism, because: `the ${node.kubeletVersion} kubelet has no readiness result after its restart: ${pod.name} is not ready until its first probe, unless that probe runs before the kubelet writes its status` };
  }
  const started = pod.startedSeconds ?? null;
  const oldEnough = started !== null
    ? started + 1 <= node.offSeconds - KUBELET_RESTART_GRACE_SECONDS
    : probeKnown && w.readinessProbe !== null && w.readinessProbe.initialDelaySeconds >= KUBELET_RESTART_GRACE_SECONDS;
  const age = started !== null ? `started ${Math.round(node.offSeconds - started)} s before the restart` : `ready after its ${w.readinessProbe?.initialDelaySeconds ?? '?'} s initial delay`;
  if (oldEnough) return { fate: 'kept', mechanism, because: `the ${node.kubeletVersion} kubelet keeps the readiness of a container that ran more than ${KUBELET_RESTART_GRACE_SECONDS} s before it (${pod.name}: ${age})` };
  return { fate: 'maybe-reset', mechanism, because: `${pod.name}'s container may have run less than ${KUBELET_RESTART_GRACE_SECONDS} s before the ${node.kubeletVersion} kubelet restarted (${age}): its readiness is reset as before v1.35` };
}
