// Public surface of lib/faults: fault → primitives, target selection, the guard and crash recovery.
export { FAULT_PRIMITIVES, SIMULATED_FAULT_PRIMITIVES, primitivesFor, injectOnNode, runFault, realSleep, type FaultOptions, type FaultPhase, type FaultPhaseCallback, type InjectedNodeFault, type Sleep } from './inject.js';
export { resolveTargets, isControlPlane, CONTROL_PLANE_LABEL, type TargetNode, type TargetPod } from './targets.js';
export { loadTargetCandidates } from './candidates.js';
export { FaultGuard, type FaultGuardOptions, type GuardEntry, type GuardExit, type GuardTrigger } from './guard.js';
export { restorePending, writePendingRestore, PENDING_RESTORE_FILE, type PendingRestoreEntry, type PendingRestoreFile, type RestoreReport } from './restore-file.js';
export { runSteps, STEP_NODE_ACTIONS, STEP_UNDO_ACTIONS, type StepDetail, type StepOptions, type StepPhaseCallback } from './steps.js';
