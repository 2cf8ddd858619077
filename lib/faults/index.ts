// Public surface of lib/faults: fault → primitives, target selection, the guard and crash recovery.
export { FAULT_PRIMITIVES, primitivesFor, actingCluster, injectOnNode, runFault, type FaultOptions, type FaultPhase, type FaultPhaseCallback, type InjectedNodeFault, type Sleep } from './inject.js';
export { resolveTargets, checkStepNodes, isControlPlane, CONTROL_PLANE_LABEL, type TargetNode, type TargetPod } from './targets.js';
export { loadTargetCandidates } from './candidates.js';
export { FaultGuard, describePending, restoreCommandFor, type FaultGuardOptions, type GuardEntry, type GuardExit, type GuardQuit, type GuardTrigger } from './guard.js';
export {
  restorePending, writePendingRestore, findPendingRestoreDirs, checkPendingRestoreFiles, rememberOutDir, restoreSearchDirs, lastOutFile, PENDING_RESTORE_FILE,
  type PendingRestoreEntry, type PendingRestoreFile, type RestoreOptions, type RestoreReport, type PendingRestoreProblem,
} from './restore-file.js';
export { parseRestoreCommand, checkRestoreCommand, type ParsedRestoreCommand } from './restore-commands.js';
export { evictionDetail, runSteps, stepActionDetail, type EvictionCallback, type StepDetail, type StepOptions, type StepPhaseCallback } from './steps.js';
