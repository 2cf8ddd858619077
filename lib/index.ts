// The package root, `import { ... } from 'rebootlab'`: the API of scripted experiments and the building
// blocks the CLI itself runs on. Re-exports only; each module documents its own exports.
export {
  experiment, Lab, DEFAULT_WAIT_TIMEOUT_MS, durationMs, resolveScriptExperiment,
  type ActArgs, type Duration, type DurationUnit, type InjectedFault, type InjectOptions, type KindObject, type NodeReadyOptions, type PodsReadyOptions,
  type ScriptCluster, type ScriptControllerManager, type ScriptExperiment, type ScriptKubelet, type TaintEffect, type TaintOptions,
  type UntilOptions, type WaitFor, type WaitOptions,
} from './script/index.js';
export type { FaultType, WorkloadSpec, Experiment, ClusterSpec } from './spec/index.js';
export type { Workload, PodDisruptionBudget, Toleration } from './spec/v1alpha1/types.js';
export type { TimeoutSettings } from './spec/settings.js';
export {
  watchList, collectionOf, isNodeReady, isPodReady, restartControlPlaneComponent, drainNode,
  type ActionRecord, type Cluster, type ClusterNode, type Collection, type CollectionKind, type ComponentRestart, type ControlPlaneComponent,
  type EvictionAttempt, type NodeAction, type ObjectsByKey, type Undo,
} from './cluster/index.js';
export { FaultGuard, FAULT_PRIMITIVES } from './faults/index.js';
export { startObserver, openJournal, readJournal, type Journal, type Observation, type Observer } from './observe/index.js';
export { analyze, type RunAnalysis, type ScriptMark, type PodOutcome } from './analyze/index.js';
export { forecast, judgeForecast, type Forecast, type ForecastInput, type ForecastItem, type JudgedForecast, type PreFaultState } from './analyze/forecast/index.js';
export { predictExperiment } from './run/predict-command.js';
export { rebuildReports, writeReports, type Result, type RunInfo } from './report/index.js';
export { ExitCode, InputError, InfraError, RebootlabError } from './common/errors.js';
