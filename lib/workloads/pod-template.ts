// The pod template every workload kind shares: the workload image's HTTP server, labels, placement,
// tolerations and the /data volume.
import type { V1Affinity, V1PodSpec, V1PodTemplateSpec, V1Probe, V1TopologySpreadConstraint, V1Volume } from '@kubernetes/client-node';
import type { ProbeSpec, WorkloadSpec } from '../spec/types.js';

/** Label naming the workload on every object and pod rebootlab creates. */
export const WORKLOAD_LABEL = 'rebootlab.dev/workload';
/** Standard label marking objects rebootlab manages. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
/** Namespace of every workload. */
export const WORKLOAD_NAMESPACE = 'rebootlab';
/** Mount path of the workload volume in the container. */
export const DATA_MOUNT_PATH = '/data';
/** Name of the container in every workload pod. */
export const CONTAINER_NAME = 'workload';
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

function affinityFor(spec: WorkloadSpec, input: PlacementInput): V1Affinity | undefined {
  if (spec.placement !== 'target' || input.targetNodes.length === 0 || spec.kind === 'DaemonSet') return undefined;
  const term = { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [...input.targetNodes] }] };
  // A standalone Pod is never replaced, so it may require its node; controllers only prefer it so
  // replacements can be scheduled elsewhere after eviction.
  if (spec.kind === 'Pod') return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } };
  return { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: term }] } };
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
      // StatefulSets get a volumeClaimTemplate instead (see render.ts).
      return spec.kind === 'StatefulSet' ? undefined : { name: 'data', persistentVolumeClaim: { claimName: `${spec.name}-data` } };
  }
}

/** Port of the workload image's HTTP server (hack/node-helpers/cmd/rebootlab-workload): GET / names the pod, GET /healthz answers 200. */
export const WORKLOAD_HTTP_PORT = 8080;
/** Name of that container port; Services target it by name. */
export const WORKLOAD_HTTP_PORT_NAME = 'http';
/** Path every probe requests. */
const HEALTH_PATH = '/healthz';

/** A core/v1 HTTP GET probe on the workload server with the given timing (seconds and counts). */
function httpProbe(probe: ProbeSpec): V1Probe {
  return { httpGet: { path: HEALTH_PATH, port: WORKLOAD_HTTP_PORT }, ...probe };
}

/**
 * rebootlab's readiness probe when the workload sets none: every 1 second, one failure marks the pod not ready,
 * so the Ready condition follows the container within about a second.
 */
const BUILT_IN_READINESS: V1Probe = { httpGet: { path: HEALTH_PATH, port: WORKLOAD_HTTP_PORT }, periodSeconds: 1, failureThreshold: 1 };

/**
 * The pod template of a workload: container `workload` running `/rebootlab-workload` (static HTTP
 * server on :8080), imagePullPolicy IfNotPresent, the workload's readiness probe (GET /healthz; rebootlab's
 * 1-second probe when it sets none) and liveness probe (none unless set), its terminationGracePeriodSeconds
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
      readinessProbe: spec.readinessProbe ? httpProbe(spec.readinessProbe) : { ...BUILT_IN_READINESS },
      ...(spec.livenessProbe ? { livenessProbe: httpProbe(spec.livenessProbe) } : {}),
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
