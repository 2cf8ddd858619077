// The kind provider's public surface: the provider, its cluster, and the config renderer.
export { createKindProvider, type KindProviderOptions } from './provider.js';
export { KindCluster } from './cluster.js';
export { renderKindConfig, type RenderKindConfigOptions } from './config.js';
export { kubeadmApiVersionFor, PINNED_KIND_VERSION, type KubeadmApiVersion } from './kubeadm-patches.js';
export { formatGoDuration, parseGoDuration } from '../../common/units.js';
export { dockerServerVersion, kindBinary, resolveNodeImage, START_DOCKER_HINT } from './tools.js';
export { cacheDir } from '../../common/cache.js';
export { KIND_CLUSTER_LABEL, KIND_ROLE_LABEL, KIND_NETWORK } from './docker.js';
export { actOnNodeContainer, DOCKER_NODE_ACTIONS, type DockerActionContext } from './actions.js';
export { rewriteStaticPodFlags, mergeKubeletConfig, reconfigureKindCluster } from './reconfigure.js';
export {
  adoptionEvidence, foreignClusterError, ownedContainerNames, ownedNodeContainers, ownerFilePath, ADOPTION_WINDOW_MS, KIND_CONFIG_HEADER,
  type NodeContainer, type OwnerRecord,
} from './ownership.js';
