// Public API of the analyzer: pure functions from journal records to timelines, outcomes and expectation results.
export { analyze, type AnalyzeOptions } from './analyze.js';
export { evaluateExpectations, compare, aggregate, type ExpectationResult } from './expect.js';
export { predict, leaseRenewIntervalSeconds, type PredictInput } from './predict.js';
export { detectionWindowAfterRenewal } from './predict-detection.js';
export { detectionWindowAfterHeartbeat, detectionWindowAfterHeartbeatIn, detectionWindowFromSilence, evictionWindow, evictionWindowFromSilence, heartbeatIntervalSeconds, inPassTaintWindow } from './windows.js';
export { computeZoneState, zoneEvictionRate } from './predict-zones.js';
export { decideOutcome } from './outcome.js';
export { RecoveryTracker, recoveryOfAnalysis, type RecoveryState } from './recovery.js';
export { WORKLOAD_LABEL } from './pod-timeline.js';
export { buildEndpointTimelines, SERVICE_NAME_LABEL } from './endpoint-timeline.js';
export { buildEvents, EVENT_REASONS } from './events.js';
export { buildProbeSummaries } from './probe-timeline.js';
export { buildFailingBackends, PROXY_LAG_MS, QUIET_SPLIT_MS } from './probe-backends.js';
export type { FailingBackend, LatencySummary, ProbeBackend, ProbeFailureCause, ProbeSummary } from './probe-types.js';
export { NODE_FAILURE_TAINT_KEYS } from './node-timeline.js';
export { secondsSince, serverSecondsSince, msToSeconds } from './clock.js';
export type * from './types.js';
