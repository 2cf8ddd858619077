// What each fault type does to a node, as the forecast needs it: how the node lifecycle controller learns of it, how
// long its command takes, when the node is Ready again after the restore, and whether its containers keep serving.
// Figures measured on the recorded kind and kwok runs of test/fixtures/runs and reports/examples (Dec 2026).
import type { FaultType, PartitionScope, ProviderName } from '../../spec/types.js';
import type { ReadyAgainCase } from '../predict-ready-again.js';

/** How the node lifecycle controller learns of a fault. */
export type FaultDetection =
  /** The kubelet's heartbeats (Lease renewals, status posts) stop: Ready=Unknown after the grace period. */
  | 'heartbeats-stop'
  /** The kubelet keeps heartbeating and reports Ready=False itself (its container runtime is down). */
  | 'kubelet-reports-not-ready'
  /** The Node object is deleted: the controller forgets the node. */
  | 'node-deleted'
  /** Nothing the controller acts on, unless the fault outlasts the grace period (reboot, kubelet restart). */
  | 'none'
  /**
   * A graceful node shutdown: the kubelet reports Ready=False ("node is shutting down") and kills its pods within its
   * shutdownGracePeriod, then the node stops and its heartbeats with it (forecast/shutdown-node.ts).
   */
  | 'graceful-shutdown';

/** What one fault type does to a node. Spans are seconds; [min, max] pairs are named assumptions of the forecast. */
export interface FaultEffect {
  detection: FaultDetection;
  /** Heartbeats may still come this long after the node's fault command started (while the command takes effect). */
  heartbeatsStopWithinSeconds: number;
  /** How long the fault command takes; the timed restore counts its duration from the command's return (lib/faults/inject.ts runFault). */
  commandSeconds: readonly [number, number];
  /**
   * From the restore command's start to the node's Ready=True (server lastTransitionTime), measured: a starting
   * kubelet's (power-off, kubelet-stop, shutdown, kwok's resume); null when not measured (then `readyAgainMechanism`
   * gives it, or it is not forecast).
   */
  readyAgainAfterRestoreSeconds: readonly [number, number] | null;
  /**
   * Ready=True again from the Kubernetes mechanism the causal model uses too (lib/analyze/predict-ready-again.ts
   * readyAgainWindowIn): a kubelet that ran through the fault and reports Ready once its Node informer catches up.
   * `restoreCommandSeconds`: how long the undo command takes; `trafficDropped`: a partition of iptables DROP rules.
   */
  readyAgainMechanism?: { case: Exclude<ReadyAgainCase, 'kubelet-start'>; restoreCommandSeconds: readonly [number, number]; trafficDropped: boolean };
  /** For `none`: the heartbeats pause this long at most (a reboot's boot), seconds; 0 otherwise. */
  silenceSeconds: number;
  /** Whether the node's containers keep serving clients while the fault lasts. */
  containersServe: boolean;
  /**
   * Whether the node boots again after the fault (its containers gone): the kubelet creates every pod's cgroup and
   * sandbox anew, and a pod whose first sync fails waits for its pod worker's retry (POD_SYNC_RETRY_SECONDS).
   */
  bootsAgain: boolean;
  /** Where the figures come from. */
  measured: string;
}

/**
 * After a failed pod sync the kubelet's pod worker retries after backOffPeriod (10 s) jittered by up to
 * workerBackOffPeriodJitterFactor (0.5): 10 to 15 s (pkg/kubelet/kubelet.go backOffPeriod, pkg/kubelet/pod_workers.go
 * completeWork; the same in v1.34.4, v1.35.4, v1.36.3 and v1.37.2), seconds. On kind the first sync of a pod after
 * its node boots again can fail (FailedCreatePodContainer: "mkdir /sys/fs/cgroup/devices/kubelet.slice/...", on a
 * cgroup v1 host): 6 of 20 journals of reboots on this machine (Dec 2026), the retry 11.2 to 14.0 s after the failure.
 */
export const POD_SYNC_RETRY_SECONDS: readonly [number, number] = [10, 15];

const KIND_POWER_OFF: FaultEffect = {
  // No floor is known for either span: docker stop returns once the node's init has exited (however quickly its units
  // stop), and a booting kubelet may post Ready soon after docker start begins; the floors are those of the mechanism
  // (0 s; -1 s for lastTransitionTime's truncation to the second), the ceilings measured. Floors of 1 s taken from
  // earlier runs missed twice in stop 40's upgrade-impact campaign (commands of 0.52 to 1.46 s there).
  detection: 'heartbeats-stop', heartbeatsStopWithinSeconds: 0.5, commandSeconds: [0, 6], readyAgainAfterRestoreSeconds: [-1, 12], silenceSeconds: 0, containersServe: false, bootsAgain: true,
  measured: 'kind docker stop: a Lease renewal came up to 0.30 s after the command started (4 of 16 runs renewed after it), the command took 0.52 to 5.6 s (34 runs), Ready again 0.92 to 9.5 s after docker start began (27 runs; no earlier than docker start, less 1 s for lastTransitionTime\'s truncation to the second)',
};

/** kind (and nodes reached by the agent or power commands), by fault type. */
const KIND: Record<FaultType, FaultEffect> = {
  'power-off': KIND_POWER_OFF,
  freeze: {
    ...KIND_POWER_OFF, commandSeconds: [0, 2], readyAgainAfterRestoreSeconds: null, bootsAgain: false,
    readyAgainMechanism: { case: 'freeze', restoreCommandSeconds: [0, 2], trafficDropped: false },
    measured: 'kind docker pause/unpause: the kubelet resumes where it stopped and posts Ready=True at its next status sync (a 35 s freeze: unpause 0.50 s, Ready again 9.5 s after it, 3 Dec 2026)',
  },
  'kubelet-stop': {
    // The floors are no measurement: a command takes 0 s at least, and Ready=True's lastTransitionTime, truncated to
    // the second, may read up to 1 s before the start command began (the floor of 1 s and 1 s measured on v1.34.4 was
    // missed by kubelet-stop-vs-freeze on v1.37.2, 6 Dec 2026: command 0.43 s, Ready again 0.57 s after the start).
    detection: 'heartbeats-stop', heartbeatsStopWithinSeconds: 2, commandSeconds: [0, 3], readyAgainAfterRestoreSeconds: [-1, 6], silenceSeconds: 0, containersServe: true, bootsAgain: false,
    measured: 'kind systemctl stop kubelet through docker exec: a Lease renewal came up to 1.6 s after the command started, the command took 1.4 to 2.3 s, Ready again 2.8 to 3.7 s after the start command began (fastStatusUpdateOnce; 4 nodes, v1.34.4); on v1.37.2 the command took 0.43 to 1.17 s and Ready again came 0.57 to 1.00 s after the start (3 runs)',
  },
  'runtime-stop': {
    detection: 'kubelet-reports-not-ready', heartbeatsStopWithinSeconds: 0, commandSeconds: [0, 2], readyAgainAfterRestoreSeconds: null, silenceSeconds: 0, containersServe: true, bootsAgain: false,
    readyAgainMechanism: { case: 'runtime-stop', restoreCommandSeconds: [0, 2], trafficDropped: false },
    measured: 'kind systemctl stop containerd: the command took 0.46 s; the start 0.58 to 0.81 s; Ready again 14.9 s after the start command began (one run)',
  },
  'network-partition': {
    ...KIND_POWER_OFF, commandSeconds: [0, 2], readyAgainAfterRestoreSeconds: null, containersServe: false, bootsAgain: false,
    readyAgainMechanism: { case: 'network-partition', restoreCommandSeconds: [0, 2], trafficDropped: false },
    measured: 'kind docker network disconnect: heartbeats stop as the command returns; docker network connect took 0.38 to 0.57 s; Ready again 12.9 s after the heal of a 35 s partition, 13.6 s after a 120 s one (3 Dec 2026)',
  },
  'node-delete': {
    ...KIND_POWER_OFF, detection: 'node-deleted', readyAgainAfterRestoreSeconds: null, bootsAgain: false,
    measured: 'kind: docker stop then the Node deleted, 1.2 to 2.1 s after the command started (2 runs)',
  },
  reboot: {
    detection: 'none', heartbeatsStopWithinSeconds: 0.5, commandSeconds: [1, 4], readyAgainAfterRestoreSeconds: null, silenceSeconds: 8, containersServe: false, bootsAgain: true,
    measured: 'kind docker restart: the command took 2.0 to 3.2 s; the Lease was renewed again 4.5 to 5.7 s after it started (2 runs)',
  },
  shutdown: {
    ...KIND_POWER_OFF, detection: 'graceful-shutdown', heartbeatsStopWithinSeconds: 0, commandSeconds: [0, 600],
    measured: 'kind systemctl poweroff with the kubelet\'s delay inhibitor: the command lasts up to the shutdownGracePeriod (logind InhibitDelayMaxSec) plus the units\' stop (the recorded run: the container exited 3.5 s after the command started); restored by docker start as a power-off, so Ready again is power-off\'s (0.92 to 9.5 s after docker start began, 27 runs; 3.9 s on the one recorded graceful run)',
  },
  'kubelet-restart': {
    detection: 'none', heartbeatsStopWithinSeconds: 0, commandSeconds: [0, 2], readyAgainAfterRestoreSeconds: null, silenceSeconds: 3, containersServe: true, bootsAgain: false,
    measured: 'kind systemctl restart kubelet: the command took 0.59 s, the Lease renewed 1.2 s after it started (one run)',
  },
};

/** kwok's simulated nodes: power-off, freeze and the rest stop the heartbeats kwok writes (stop-heartbeat). */
const KWOK_STOP_HEARTBEAT: FaultEffect = {
  detection: 'heartbeats-stop', heartbeatsStopWithinSeconds: 0.3, commandSeconds: [0, 0.5], readyAgainAfterRestoreSeconds: [-1, 5], silenceSeconds: 0, containersServe: false, bootsAgain: false,
  measured: 'kwok stop-heartbeat: the command took 0.07 to 0.28 s (104 nodes), Ready again within a second of the resume (3 nodes)',
};

/**
 * A network partition of the control plane only (`scope: control-plane`: the node's traffic to the API server
 * endpoints dropped, the rest kept): its heartbeats stop as a node partition's do, but its containers keep serving
 * the clients that reach them (the campaign's control-plane-partition: clients lost web only when its endpoints went,
 * 21.1 to 21.7 s, 6 Dec 2026).
 */
const KIND_CONTROL_PLANE_PARTITION: FaultEffect = {
  ...KIND['network-partition'], containersServe: true,
  readyAgainMechanism: { case: 'network-partition', restoreCommandSeconds: [0, 2], trafficDropped: true },
  measured: 'kind iptables rules in the node\'s network namespace dropping its traffic to the API server endpoints: heartbeats stop as the command returns; the pods keep serving; the rules removed in 0.47 to 0.81 s; Ready again 1 to 11 s after the heal of a 120 s partition (6 nodes, 3 and 6 Dec 2026)',
};

/**
 * A partition on a cluster of provider `existing`: the agent backend's DROP rules for the node's addresses (or, with
 * `scope: control-plane`, for the API server's), whose dials hang as the control-plane partition's do.
 */
const AGENT_PARTITION: FaultEffect = {
  ...KIND['network-partition'],
  readyAgainMechanism: { case: 'network-partition', restoreCommandSeconds: [0, 2], trafficDropped: true },
  measured: 'agent backend: iptables DROP rules in the node\'s network namespace; heartbeats stop as the command returns (the existing-cluster e2e test)',
};

/**
 * The effect of fault `type` on a node of `provider`, for partition `scope` (`fault.scope`; only network-partition
 * has another than `node`). kwok nodes only stop their heartbeats (every fault type that silences a node), or are
 * deleted; a partition on an `existing` cluster is the agent backend's DROP rules.
 */
export function faultEffect(type: FaultType, provider: ProviderName, scope: PartitionScope = 'node'): FaultEffect {
  if (provider !== 'kwok') {
    if (type === 'network-partition' && scope === 'control-plane') return KIND_CONTROL_PLANE_PARTITION;
    return type === 'network-partition' && provider === 'existing' ? AGENT_PARTITION : KIND[type];
  }
  if (type === 'node-delete') return { ...KWOK_STOP_HEARTBEAT, detection: 'node-deleted', readyAgainAfterRestoreSeconds: null };
  return KWOK_STOP_HEARTBEAT;
}
