// Public surface of lib/workloads: render, apply, wait until ready, and the data probe.
export { renderWorkload, renderNamespace, renderLocalVolumes } from './render.js';
export type { RenderedObject } from './types.js';
export {
  renderPodTemplate, workloadLabels, WORKLOAD_LABEL, MANAGED_BY_LABEL, WORKLOAD_NAMESPACE, DATA_MOUNT_PATH, CONTAINER_NAME,
  HOST_PATH_ROOT, KIND_STORAGE_CLASS, LOCAL_STORAGE_CLASS, type PlacementInput,
} from './pod-template.js';
export { applyObjects, applyWorkloads, deleteObjects, FIELD_MANAGER } from './apply.js';
export { isWorkloadReady, collectionPath, type WorkloadObjectState } from './readiness.js';
export { waitForWorkloadReady, waitForWorkloadsReady, type WaitReadyOptions } from './wait-ready.js';
export { resolveSelectedWorkloads, listSelectedPods, labelSelectorText, type SelectedWorkload } from './selected.js';
export { writeDataMarker, readDataMarker, MARKER_PATH, type DataProbeOutcome, type DataProbeResult } from './data-probe.js';
export {
  applyDnsNodePortService, deleteDnsNodePortService, listClusterDnsPods, renderDnsNodePortService, CLUSTER_DNS_SERVICE, DNS_NODE_PORT_SERVICE, type DnsNodePort,
} from './cluster-dns.js';
export { renderAttachableDriver, usesAttachableVolumes, ATTACHABLE_DRIVER, ATTACHABLE_STORAGE_CLASS, CSI_NAMESPACE, CSI_IMAGE } from './csi-driver.js';
export { deployAttachableDriver } from './deploy-csi-driver.js';
