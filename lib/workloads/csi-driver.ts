// The objects of rebootlab's attachable CSI driver (hack/csi-driver), deployed before the
// workloads of an experiment that uses `volume: {type: attachable}` (lib/workloads/deploy-csi-driver.ts).
import type { WorkloadSpec } from '../spec/types.js';
import type { RenderedObject } from './types.js';
import { MANAGED_BY_LABEL } from './pod-template.js';

/** The CSI driver name: the CSIDriver object, the StorageClass's provisioner and every VolumeAttachment's spec.attacher. */
export const ATTACHABLE_DRIVER = 'attachable.csi.rebootlab.dev';
/** StorageClass of `attachable` volumes (reclaimPolicy Delete, volumeBindingMode WaitForFirstConsumer). */
export const ATTACHABLE_STORAGE_CLASS = 'rebootlab-attachable';
/** Namespace of the driver's DaemonSet and Deployment; it outlives runs on a reused cluster (not `rebootlab`). */
export const CSI_NAMESPACE = 'rebootlab-csi';
/** Image of both parts, preloaded in rebootlab's node image (hack/build-node-image.sh). */
export const CSI_IMAGE = 'rebootlab/csi:v1';
/** App label and name of the node plugin's DaemonSet. */
export const CSI_NODE_APP = 'rebootlab-csi-node';
/** App label and name of the controller's Deployment (provisioner and attacher). */
export const CSI_CONTROLLER_APP = 'rebootlab-csi-controller';
const NODE_APP = CSI_NODE_APP;
const CONTROLLER_APP = CSI_CONTROLLER_APP;

/** Whether any workload asks for an attachable volume. */
export function usesAttachableVolumes(workloads: readonly WorkloadSpec[]): boolean {
  return workloads.some((w) => w.volume?.type === 'attachable');
}

function labels(app?: string): Record<string, string> {
  return { [MANAGED_BY_LABEL]: 'rebootlab', ...(app ? { app } : {}) };
}

/**
 * The driver's objects, in apply order:
 * - Namespace `rebootlab-csi`; ServiceAccount, ClusterRole and ClusterRoleBinding of the controller (claims read;
 *   PersistentVolumes created and deleted; VolumeAttachments and their status updated);
 * - CSIDriver `attachable.csi.rebootlab.dev` with `attachRequired: true`: kube-controller-manager's attach/detach
 *   controller then attaches every volume of the driver through a VolumeAttachment before the kubelet may mount it
 *   (k8s.io/kubernetes pkg/volume/csi/csi_plugin.go skipAttach: attach is skipped only when attachRequired is false);
 * - StorageClass `rebootlab-attachable` (provisioner: the driver; reclaimPolicy Delete; WaitForFirstConsumer: the
 *   scheduler places the pod first and the claim is provisioned for it, where with Immediate binding a pod created
 *   before its claim was bound was turned away ("pod has unbound immediate PersistentVolumeClaims") and waited up to
 *   5 min in the scheduler's unschedulable queue, seen on kind v1.34.4);
 * - DaemonSet `rebootlab-csi-node` on every node (tolerates every taint, as node plugins do: it must stay to unmount),
 *   privileged, with the kubelet's directory mounted Bidirectional so its bind mounts reach the pods;
 * - Deployment `rebootlab-csi-controller`, one replica on the control-plane node, never a fault target unless asked:
 *   an attacher on a powered-off worker would acknowledge nothing.
 */
export function renderAttachableDriver(): RenderedObject[] {
  const namespace = CSI_NAMESPACE;
  const meta = (name: string, app?: string) => ({ name, namespace, labels: labels(app) });
  const clusterMeta = (name: string) => ({ name, labels: labels() });
  const image = { image: CSI_IMAGE, imagePullPolicy: 'IfNotPresent' };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: clusterMeta(namespace) },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(CONTROLLER_APP) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: clusterMeta(CONTROLLER_APP),
      rules: [
        { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
        { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
        { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments/status'], verbs: ['update', 'patch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: clusterMeta(CONTROLLER_APP),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CONTROLLER_APP },
      subjects: [{ kind: 'ServiceAccount', name: CONTROLLER_APP, namespace }],
    },
    {
      apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: clusterMeta(ATTACHABLE_DRIVER),
      spec: { attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], fsGroupPolicy: 'File' },
    },
    {
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: clusterMeta(ATTACHABLE_STORAGE_CLASS),
      provisioner: ATTACHABLE_DRIVER, reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer',
    },
    {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta(NODE_APP, NODE_APP),
      spec: {
        selector: { matchLabels: { app: NODE_APP } },
        template: {
          metadata: { labels: labels(NODE_APP) },
          spec: {
            automountServiceAccountToken: false,
            tolerations: [{ operator: 'Exists' }],
            terminationGracePeriodSeconds: 5,
            containers: [{
              name: 'node', ...image, args: ['node'],
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              securityContext: { privileged: true },
              volumeMounts: [
                { name: 'kubelet', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' },
                { name: 'volumes', mountPath: '/var/lib/rebootlab-csi' },
              ],
            }],
            volumes: [
              { name: 'kubelet', hostPath: { path: '/var/lib/kubelet', type: 'Directory' } },
              { name: 'volumes', hostPath: { path: '/var/lib/rebootlab-csi', type: 'DirectoryOrCreate' } },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(CONTROLLER_APP, CONTROLLER_APP),
      spec: {
        replicas: 1,
        strategy: { type: 'Recreate' },
        selector: { matchLabels: { app: CONTROLLER_APP } },
        template: {
          metadata: { labels: labels(CONTROLLER_APP) },
          spec: {
            serviceAccountName: CONTROLLER_APP,
            nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
            tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
            terminationGracePeriodSeconds: 5,
            containers: [{ name: 'controller', ...image, args: ['controller'] }],
          },
        },
      },
    },
  ];
}
