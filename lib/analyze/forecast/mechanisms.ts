// The forecast reads the one mechanism table of the models (lib/analyze/mechanisms.ts), shared with the causal model.
export { MECHANISMS, mechanismFor, mechanismKey, type MechanismId, type MechanismKey } from '../mechanisms.js';
