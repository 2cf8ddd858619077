// The kwok provider's public surface: the provider, its cluster, and the pure renderers (flags, stages, nodes).
export { createKwokProvider, type KwokProvider, type KwokProviderOptions } from './provider.js';
export { KwokCluster, KWOK_KUBELET_CONFIG_KEY } from './cluster.js';
export { actOnKwokNode, KWOK_NODE_ACTIONS, OUT_OF_SERVICE_TAINT, type KwokActionContext } from './actions.js';
export {
  apiServerArgs, controllerManagerArgs, etcdArgs, kwokArgs, schedulerArgs,
  KWOK_MANAGED_LABEL, KWOK_MANAGED_VALUE, type ClusterPorts, type ScaleOptions,
} from './flags.js';
export { renderKwokConfig, statusHeartbeatWindowMs } from './stages.js';
export { renderNodes, kwokNodeNames, isNodeReady, KWOK_NODE_ANNOTATION, CONTROL_PLANE_LABEL } from './nodes.js';
export { clusterFiles, defaultKwokClustersDir, findKwokBinaries, KWOK_TOOLCHAIN_HINT, type ClusterFiles, type KwokBinaries } from './paths.js';
