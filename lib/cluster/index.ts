// Public surface of lib/cluster: the provider interface, the registry, and the kind provider.
export type { ActHooks, ActionRecord, Cluster, ClusterNode, ClusterProvider, EffectiveSettings, EvictionAttempt, NodeAction, NodeActionArgs, PodSelection, ProviderName, Reconfiguration, ReconfiguredComponent, RestoreCommand, Status, Undo } from './provider.js';
export { getProvider, registerProvider, providerNames, type ProviderFactory, type ProviderOptions } from './registry.js';
export { loadKubeConfig, coreApiFor, apiError, apiErrorCode, readServerVersion } from './kube-client.js';
export { waitForNodesReady } from './wait-nodes.js';
export { watchList, collectionOf, objectKey, isNodeReady, isPodReady, type Collection, type CollectionKind, type CollectionScope, type ObjectsByKey, type WatchListOptions } from './watch-list.js';
export { drainNode, evictPodsOn, podsToEvict, EVICTION_RETRY_MS, type DrainOptions, type EvictOptions } from './node-ops.js';
export { restartControlPlaneComponent, type ComponentRestart, type ControlPlaneComponent, type RestartComponentOptions } from './restart-component.js';
export * from './kind/index.js';
export * from './kwok/index.js';
export * from './existing/index.js';
export { toEffectiveSettings, parseStaticPodFlags, parseConfigz } from './effective-settings.js';
export { ZONE_LABEL } from './labels.js';
export { createRestoreTargets, type RestoreRefusal, type RestoreTargets } from './restore-targets.js';
