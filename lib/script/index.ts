// Public surface of scripted experiments: experiment(), the Lab, waits, typed spec and durations.
export { experiment, resolveScriptExperiment, scriptForecast } from './experiment.js';
export { Lab, type ActArgs, type FirstFault, type InjectedFault, type InjectOptions, type LabContext } from './lab.js';
export { makeWaitFor, DEFAULT_WAIT_TIMEOUT_MS, type WaitFor, type WaitOptions, type NodeReadyOptions, type PodsReadyOptions, type TaintOptions, type TaintEffect, type UntilOptions, type KindObject } from './wait-for.js';
export { durationMs } from './durations.js';
export type { Duration, DurationUnit, ScriptExperiment, ScriptCluster, ScriptControllerManager, ScriptKubelet } from './types.js';
export { scriptOptions, provideScriptOptions, scriptOutcome, type ScriptRunOptions, type ScriptOutcome } from './options.js';
export { compileScript, type CompiledScript } from './compile.js';
export { runScriptFile, isScriptFile } from './run-file.js';
