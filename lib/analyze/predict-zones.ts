// Causal model, zone part: the replay of the node lifecycle controller's zones lives in lib/analyze/zones/; this file
// keeps the names the rest of the analyzer imports.
export { computeZoneState, zoneEvictionRate, zoneKeyOf, type ZoneState } from './zones/zone-state.js';
export { predictNoExecuteTaints, type ZoneReplay } from './zones/replay.js';
export { blindChoices, observedChoices, type ZoneChoices } from './zones/choices.js';
export { SAME_PASS_SECONDS } from './zones/tolerances.js';
