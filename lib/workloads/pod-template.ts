// The pod template every workload kind shares: the workload image's HTTP server, labels, placement,
// tolerations and the /data volume.
import type { V1Affinity, V1PodSpec, V1PodTemplateSpec, V1Probe, V1TopologySpreadConstraint, V1Volume } from '@kubernetes/client-node';
import { WORKLOAD_CONTAINER_NAME, type FailureScheduleSpec, type ProbeSpec, type WorkloadSpec } from '../spec/types.js';

/** Label naming the workload on every object and pod rebootlab creates. */
export const WORKLOAD_LABEL = 'rebootlab.dev/workload';
/** Standard label marking objects rebootlab manages. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
/** Namespace of every workload. */
export const WORKLOAD_NAMESPACE = 'rebootlab';
/** Mount path of the workload volume in the container. */
export const DATA_MOUNT_PATH = '/data';
/** Name of the container in every workload pod; defined in lib/spec, which validates podFailurePolicy rules against it. */
export const CONTAINER_NAME = WORKLOAD_CONTAINER_NAME;
/** Root of hostPath volumes on the node: `<root>/<workload>`. */
export const HOST_PATH_ROOT = '/var/local/rebootlab';
/** kind's default StorageClass (rancher local-path provisioner). */
export const KIND_STORAGE_CLASS = 'standard';
/** StorageClass of rebootlab's node-bound `local-pv` volumes (no provisioner). */
export const LOCAL_STORAGE_CLASS = 'rebootlab-local';

/** Labels every object and pod of a workload carries. */
export function workloadLabels(name: string): Record<string, string> {
  return { [WORKLOAD_LABEL]: name, [MANAGED_BY_LABEL]: 'rebootlab' };
}

/** Where the pods go; `targetNodes` are the fault targets chosen before deployment. */
export interface PlacementInput {
  targetNodes: readonly string[];
}

const HOSTNAME = 'kubernetes.io/hostname';

/**
 * The node affinity of a workload's pods: the labels it requires (`requiredNodeLabels`, each key In its value), and
 * its placement on the fault targets: a standalone Pod requires its node, controllers' pods prefer it.
 */
function affinityFor(spec: WorkloadSpec, input: PlacementInput): V1Affinity | undefined {
  const required = Object.entries(spec.requiredNodeLabels).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  const placed = spec.placement === 'target' && input.targetNodes.length > 0 && spec.kind !== 'DaemonSet';
  const term = { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [...input.targetNodes] }] };
  // A standalone Pod is never replaced, so it may require its node; controllers only prefer it so
  // replacements can be scheduled elsewhere after eviction.
  const requiredTerm = [...required, ...(placed && spec.kind === 'Pod' ? term.matchExpressions : [])];
  const nodeAffinity = {
    ...(requiredTerm.length > 0 ? { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: requiredTerm }] } } : {}),
    ...(placed && spec.kind !== 'Pod' ? { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: term }] } : {}),
  };
  return Object.keys(nodeAffinity).length > 0 ? { nodeAffinity } : undefined;
}

function spreadFor(spec: WorkloadSpec): V1TopologySpreadConstraint[] | undefined {
  if (spec.placement !== 'spread' || spec.kind === 'DaemonSet' || spec.kind === 'Pod') return undefined;
  return [{
    maxSkew: 1,
    topologyKey: HOSTNAME,
    whenUnsatisfiable: 'DoNotSchedule',
    // Honor: tainted nodes (control plane, unreachable) do not count, so replacements still fit.
    nodeTaintsPolicy: 'Honor',
    nodeAffinityPolicy: 'Honor',
    labelSelector: { matchLabels: { [WORKLOAD_LABEL]: spec.name } },
  }];
}

/** The pod volume named `data` for non-claim-template volumes, or undefined without a volume. */
export function podVolumeFor(spec: WorkloadSpec): V1Volume | undefined {
  const v = spec.volume;
  if (!v) return undefined;
  switch (v.type) {
    case 'emptyDir':
      return { name: 'data', emptyDir: { sizeLimit: v.size } };
    case 'emptyDir-memory':
      return { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: v.size } };
    case 'hostPath':
      return { name: 'data', hostPath: { path: `${HOST_PATH_ROOT}/${spec.name}`, type: 'DirectoryOrCreate' } };
    case 'pvc':
    case 'local-pv':
    case 'attachable':
      // StatefulSets get a volumeClaimTemplate instead (see render.ts).
      return spec.kind === 'StatefulSet' ? undefined : { name: 'data', persistentVolumeClaim: { claimName: `${spec.name}-data` } };
  }
}

/** Port of the workload image's HTTP server (hack/node-helpers/cmd/rebootlab-workload): GET / names the pod, GET /healthz answers 200. */
export const WORKLOAD_HTTP_PORT = 8080;
/** Name of that container port; Services target it by name. */
export const WORKLOAD_HTTP_PORT_NAME = 'http';
/** Path of the readiness endpoint (and of rebootlab's built-in readiness probe). */
const HEALTH_PATH = '/healthz';
/** Path of the liveness endpoint; an older workload image answers it with its GET / page (200). */
const LIVENESS_PATH = '/livez';
/** Environment variables of the workload server's failure schedules (hack/node-helpers/cmd/rebootlab-workload). */
const FAIL_READINESS_ENV = 'REBOOTLAB_FAIL_READINESS';
const FAIL_LIVENESS_ENV = 'REBOOTLAB_FAIL_LIVENESS';

/**
 * A core/v1 probe on the workload server's `path` with the given timing (seconds and counts): HTTP GET, or exec of
 * the server's own client against it (runs through the container runtime; exits non-zero unless it answers 200).
 */
function workloadProbe(probe: ProbeSpec, path: string): V1Probe {
  const { handler, ...timing } = probe;
  return handler === 'exec'
    ? { exec: { command: ['/rebootlab-workload', 'get', `http://127.0.0.1:${WORKLOAD_HTTP_PORT}${path}`] }, ...timing }
    : { httpGet: { path, port: WORKLOAD_HTTP_PORT }, ...timing };
}

/** A failure schedule as the workload server reads it: `after=20000ms[,for=…][,every=…]` (Go durations). */
export function scheduleEnv(s: FailureScheduleSpec): string {
  return [`after=${s.afterMs}ms`, ...(s.forMs !== null ? [`for=${s.forMs}ms`] : []), ...(s.everyMs !== null ? [`every=${s.everyMs}ms`] : [])].join(',');
}

/**
 * rebootlab's readiness probe when the workload sets none: every 1 second, one failure marks the pod not ready,
 * so the Ready condition follows the container within about a second.
 */
const BUILT_IN_READINESS: V1Probe = { httpGet: { path: HEALTH_PATH, port: WORKLOAD_HTTP_PORT }, periodSeconds: 1, failureThreshold: 1 };

/**
 * The pod template of a workload: container `workload` running `/rebootlab-workload` (static HTTP
 * server on :8080), imagePullPolicy IfNotPresent, the workload's readiness probe (/healthz; rebootlab's
 * 1-second probe when it sets none) and liveness probe (/livez, none unless set), HTTP GET or exec, the failure
 * schedules of those endpoints as environment variables, its terminationGracePeriodSeconds
 * (seconds), the volume at /data, tolerations replaced when the spec sets them, and the placement's affinity
 * or topology spread.
 */
export function renderPodTemplate(spec: WorkloadSpec, input: PlacementInput): V1PodTemplateSpec {
  const hasVolume = spec.volume !== null;
  const podSpec: V1PodSpec = {
    terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds,
    containers: [{
      name: CONTAINER_NAME,
      image: spec.image,
      imagePullPolicy: 'IfNotPresent',
      command: ['/rebootlab-workload'],
      ports: [{ name: WORKLOAD_HTTP_PORT_NAME, containerPort: WORKLOAD_HTTP_PORT }],
      readinessProbe: spec.readinessProbe ? workloadProbe(spec.readinessProbe, HEALTH_PATH) : { ...BUILT_IN_READINESS },
      ...(spec.livenessProbe ? { livenessProbe: workloadProbe(spec.livenessProbe, LIVENESS_PATH) } : {}),
      ...(spec.failReadiness || spec.failLiveness ? {
        env: [
          ...(spec.failReadiness ? [{ name: FAIL_READINESS_ENV, value: scheduleEnv(spec.failReadiness) }] : []),
          ...(spec.failLiveness ? [{ name: FAIL_LIVENESS_ENV, value: scheduleEnv(spec.failLiveness) }] : []),
        ],
      } : {}),
      ...(hasVolume ? { volumeMounts: [{ name: 'data', mountPath: DATA_MOUNT_PATH }] } : {}),
    }],
  };
  const volume = podVolumeFor(spec);
  if (volume) podSpec.volumes = [volume];
  if (spec.tolerations !== null) podSpec.tolerations = spec.tolerations.map((t) => ({ ...t }));
  const affinity = affinityFor(spec, input);
  if (affinity) podSpec.affinity = affinity;
  const spread = spreadFor(spec);
  if (spread) podSpec.topologySpreadConstraints = spread;
  // A Job's pods restart in place on failure, except with a podFailurePolicy, which the API allows only with Never.
  if (spec.kind === 'Job') podSpec.restartPolicy = spec.job?.podFailurePolicy ? 'Never' : 'OnFailure';
  return { metadata: { labels: workloadLabels(spec.name) }, spec: podSpec };
}
