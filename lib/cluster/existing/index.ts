// Public surface of the existing provider.
export { createExistingProvider, type ExistingProviderOptions } from './provider.js';
export { ExistingCluster, EXISTING_API_ACTIONS, type NodeBackend } from './cluster.js';
export { fillPlaceholders, nodeFacts, readNodeFacts, userUndoRestoreCommand, type NodeFacts } from './command-backend.js';
export { readExistingSettings, MIRROR_POD_ANNOTATION, type ExistingSettings } from './settings.js';
export { writeContextKubeconfig } from './kubeconfig.js';
export { REBOOTLAB_NAMESPACE, MANAGED_BY } from './labels.js';
export { allowFaultsOn, faultsAllowedOn } from './consent.js';
