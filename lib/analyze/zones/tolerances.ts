// Named tolerances of the zone replay, seconds, each with where it comes from.

/** Detections closer than this are taken as one monitor pass, seconds (a pass updates its nodes within milliseconds). */
export const SAME_PASS_SECONDS = 1;

/**
 * Period of the NoExecute tainting loop (doNoExecuteTaintingPass every scheduler.NodeEvictionPeriod = 100 ms,
 * pkg/controller/nodelifecycle, v1.34), seconds: a taint can be received this much before the instant the replay
 * gives it (the loop ran just before the predicted tick).
 */
export const TAINT_LOOP_SECONDS = 0.1;

/**
 * How near its prediction an observed taint must be for the replay to count the zone's next token from it instead of
 * from the prediction, seconds (a taint later than this took another path: the informer-cache race, or a miss).
 */
export const NEAR_PREDICTION_SECONDS = 2;
