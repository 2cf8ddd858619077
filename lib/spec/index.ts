// Public surface of lib/spec: loading experiment files and the resolved experiment types.
export type * from './types.js';
export { API_VERSION, DEFAULT_WORKLOAD_IMAGE } from './types.js';
export {
  FAULTS, FAULT_TYPES, FAULT_TYPES_WITH_DURATION, INSTANT_FAULT_TYPES, SCOPED_FAULT_TYPES, clientImpactOf, faultRecord, isFaultType, primitivesAmong, takesScope,
  type ClientImpact, type DurationRule, type FaultRecord, type PartitionScope, type ScopeRecord,
} from './faults.js';
export { STEPS, STEP_ACTIONS, STEP_ARG_FIELDS, actionsTaking, stepArgsRule, stepRecord, type StepArgsRule, type StepRecord } from './steps.js';
export { NODE_ACTIONS, NODE_API_ACTIONS, PROVIDERS, providerActions, type BackendName, type NodeAction, type ProviderCapabilities } from './providers.js';
export { DEFAULT_TIMEOUT_SETTINGS, type TimeoutSettings } from './settings.js';
export { loadExperiment, loadExperimentText, type LoadOptions } from './load.js';
export {
  DEFAULT_CLUSTER_NAME,
  DEFAULT_KUBERNETES_VERSION,
  DEFAULT_OBSERVE_TIMEOUT_MS,
  DEFAULT_SETTLE_MS,
  DEFAULT_VOLUME_SIZE,
  DEFAULT_WORKERS,
  resolveExperiment,
  resolveSettings,
} from './defaults.js';
export { matrixCombinations, variantName, expandVariants } from './matrix.js';
export { settingsLeafPaths } from './validate.js';
