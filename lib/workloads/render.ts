// Renders one workload spec into the Kubernetes objects to apply: the workload, its claims or
// node-bound volumes, and its PodDisruptionBudget.
import { InputError } from '../common/errors.js';
import { CLAIMED_VOLUME_TYPES, type WorkloadSpec } from '../spec/types.js';
import { ATTACHABLE_STORAGE_CLASS } from './csi-driver.js';
import { renderManifestWorkload } from './manifest.js';
import {
  HOST_PATH_ROOT, KIND_STORAGE_CLASS, LOCAL_STORAGE_CLASS, renderPodTemplate, WORKLOAD_LABEL, WORKLOAD_NAMESPACE,
  WORKLOAD_HTTP_PORT, WORKLOAD_HTTP_PORT_NAME, workloadLabels, type PlacementInput,
} from './pod-template.js';
import type { RenderedObject } from './types.js';

function meta(name: string, workload: string, namespaced = true) {
  return { name, ...(namespaced ? { namespace: WORKLOAD_NAMESPACE } : {}), labels: workloadLabels(workload) };
}

function claimSpec(spec: WorkloadSpec) {
  const type = spec.volume?.type;
  const storageClassName = type === 'local-pv' ? LOCAL_STORAGE_CLASS : type === 'attachable' ? ATTACHABLE_STORAGE_CLASS : KIND_STORAGE_CLASS;
  return { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage: spec.volume!.size } } };
}

/** Whether the workload's volume is a PersistentVolumeClaim (pvc, local-pv, attachable). */
function isClaimed(spec: WorkloadSpec): boolean {
  return spec.volume !== null && CLAIMED_VOLUME_TYPES.includes(spec.volume.type);
}

/** Number of pods a local-pv workload needs volumes for. */
function podCount(spec: WorkloadSpec): number {
  return spec.kind === 'Pod' ? 1 : Math.max(1, spec.replicas ?? 1);
}

/**
 * The StorageClass and PersistentVolumes of a `local-pv` workload: one hostPath-backed PV per pod at
 * `/var/local/rebootlab/<workload>/<i>`, bound to a target node (round-robin) by required node affinity,
 * like a local PV — a pod using it can only run on that node.
 * @throws InputError when there is no target node to bind the volumes to.
 */
export function renderLocalVolumes(spec: WorkloadSpec, input: PlacementInput): RenderedObject[] {
  if (input.targetNodes.length === 0) throw new InputError(`workloads.${spec.name}.volume: local-pv needs a target node to bind its volume to`);
  const storageClass: RenderedObject = {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name: LOCAL_STORAGE_CLASS, labels: { 'app.kubernetes.io/managed-by': 'rebootlab' } },
    provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer', reclaimPolicy: 'Retain',
  };
  const volumes = Array.from({ length: podCount(spec) }, (_, i): RenderedObject => ({
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: meta(`rebootlab-${spec.name}-${i}`, spec.name, false),
    spec: {
      capacity: { storage: spec.volume!.size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: LOCAL_STORAGE_CLASS,
      hostPath: { path: `${HOST_PATH_ROOT}/${spec.name}/${i}`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [input.targetNodes[i % input.targetNodes.length]!] }] }] } },
    },
  }));
  return [storageClass, ...volumes];
}

function renderController(spec: WorkloadSpec, input: PlacementInput): RenderedObject {
  const template = renderPodTemplate(spec, input);
  const selector = { matchLabels: { [WORKLOAD_LABEL]: spec.name } };
  const base = { metadata: meta(spec.name, spec.name) };
  switch (spec.kind) {
    case 'Deployment':
      return { apiVersion: 'apps/v1', kind: 'Deployment', ...base, spec: { replicas: spec.replicas ?? 1, selector, template } };
    case 'StatefulSet': {
      const claims = isClaimed(spec)
        ? [{ metadata: { name: 'data', labels: workloadLabels(spec.name) }, spec: claimSpec(spec) }]
        : undefined;
      return {
        apiVersion: 'apps/v1', kind: 'StatefulSet', ...base,
        spec: { replicas: spec.replicas ?? 1, serviceName: spec.name, podManagementPolicy: 'Parallel', selector, template, ...(claims ? { volumeClaimTemplates: claims } : {}) },
      };
    }
    case 'DaemonSet':
      return { apiVersion: 'apps/v1', kind: 'DaemonSet', ...base, spec: { selector, template } };
    case 'Job': {
      const n = spec.replicas ?? 1;
      const job = spec.job;
      return {
        apiVersion: 'batch/v1', kind: 'Job', ...base,
        spec: {
          parallelism: n, completions: job?.completions ?? n, backoffLimit: job?.backoffLimit ?? 6,
          ...(job?.podReplacementPolicy ? { podReplacementPolicy: job.podReplacementPolicy } : {}),
          ...(job?.podFailurePolicy ? { podFailurePolicy: job.podFailurePolicy } : {}),
          ...(job?.completionMode === 'Indexed' ? { completionMode: 'Indexed' } : {}),
          ...(job?.backoffLimitPerIndex != null ? { backoffLimitPerIndex: job.backoffLimitPerIndex } : {}),
          ...(job?.maxFailedIndexes != null ? { maxFailedIndexes: job.maxFailedIndexes } : {}),
          template,
        },
      };
    }
    case 'Pod':
      return { apiVersion: 'v1', kind: 'Pod', metadata: { ...meta(spec.name, spec.name), labels: { ...template.metadata!.labels! } }, spec: template.spec! };
  }
}

/**
 * The Service named after the workload, selecting its pods by label rebootlab.dev/workload=<name>:
 * - with `service: {port}`: type ClusterIP, `port` → the workload server's named port `http` (8080);
 *   a StatefulSet uses it as its governing Service (spec.serviceName), so per-pod DNS names, which only a
 *   headless Service publishes, are not created;
 * - without it, a StatefulSet gets the headless governing Service it needs (clusterIP None, port 8080);
 * - otherwise none (null).
 * Either way the EndpointSlices carry label `kubernetes.io/service-name=<name>`, which the analyzer follows.
 */
export function renderService(spec: WorkloadSpec): RenderedObject | null {
  const selector = { [WORKLOAD_LABEL]: spec.name };
  if (spec.service) {
    return {
      apiVersion: 'v1', kind: 'Service', metadata: meta(spec.name, spec.name),
      // NodePort (a ClusterIP Service plus a port on every node): traffic probers reach it from outside the cluster.
      spec: { type: 'NodePort', selector, ports: [{ name: WORKLOAD_HTTP_PORT_NAME, port: spec.service.port, targetPort: WORKLOAD_HTTP_PORT_NAME, protocol: 'TCP' }] },
    };
  }
  if (spec.kind === 'StatefulSet') {
    return {
      apiVersion: 'v1', kind: 'Service', metadata: meta(spec.name, spec.name),
      spec: { clusterIP: 'None', selector, ports: [{ name: WORKLOAD_HTTP_PORT_NAME, port: WORKLOAD_HTTP_PORT }] },
    };
  }
  return null;
}

/**
 * Every object of one workload, in apply order: cluster-scoped volumes (local-pv), a standalone
 * PersistentVolumeClaim `<name>-data` (pvc/local-pv/attachable on kinds other than StatefulSet), its Service
 * (see renderService), the workload itself, and its PodDisruptionBudget. All in namespace
 * `rebootlab`, labelled `rebootlab.dev/workload=<name>` and `app.kubernetes.io/managed-by=rebootlab`.
 * @throws InputError for a local-pv workload without target nodes.
 */
export function renderWorkload(spec: WorkloadSpec, input: PlacementInput): RenderedObject[] {
  if (spec.manifest) return renderManifestWorkload(spec);
  // Pods already running: rebootlab creates nothing for them (lib/workloads/selected.ts reads them).
  if (spec.selected) return [];
  const objects: RenderedObject[] = [];
  const claimed = isClaimed(spec);
  if (spec.volume?.type === 'local-pv') objects.push(...renderLocalVolumes(spec, input));
  if (claimed && spec.kind !== 'StatefulSet') {
    objects.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta(`${spec.name}-data`, spec.name), spec: claimSpec(spec) });
  }
  const service = renderService(spec);
  if (service) objects.push(service);
  objects.push(renderController(spec, input));
  const pdb = spec.podDisruptionBudget;
  if (pdb) {
    objects.push({
      apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(spec.name, spec.name),
      spec: {
        selector: { matchLabels: { [WORKLOAD_LABEL]: spec.name } },
        ...(pdb.minAvailable !== null ? { minAvailable: pdb.minAvailable } : { maxUnavailable: pdb.maxUnavailable }),
      },
    });
  }
  return objects;
}

/** The namespace object every workload lives in. */
export function renderNamespace(): RenderedObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: WORKLOAD_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'rebootlab' } } };
}
