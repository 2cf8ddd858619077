// Composition root: the commands the CLI runs, built from every module upstream.
export type * from './options.js';
export { runExperiment, rebootlabVersion } from './run-experiment.js';
export { runDoctor, runToolchain, clusterCommand, reportCommand, type DoctorCheck } from './commands.js';
export { readToolchainEnv } from '../common/cache.js';
export { checkKubernetesVersionsBuilt } from './toolchain-check.js';
export { compareCommand } from './compare-command.js';
export { runVariant, type RunVariantInput } from './run-variant.js';
export { planReporters, progressTo, silentProgress, type Progress, type ProgressSink, type ReporterPlan } from './progress.js';
export { ClusterSession } from './cluster-session.js';
export { SignalHandlers } from './signal-handlers.js';
export { summaryLine } from './run-experiment.js';
export {
  exitCodeFor, prepareOutDir, restoreLeftFaults, RunSession, withRunSession, type ObservedRun, type ObservedRunInput, type RunSessionOptions,
} from './session.js';
export { DEFAULT_REPORTS_DIR } from './options.js';
export { workloadRefs, describeTarget } from './run-info.js';
