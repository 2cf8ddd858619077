// Durations in scripts: the typed `Duration` strings to milliseconds, with a one-line InputError otherwise.
import { InputError } from '../common/errors.js';
import { parseDurationMs } from '../common/units.js';
import type { Duration } from './types.js';

/**
 * Milliseconds of `duration` (`'30s'` → 30000). `where` names the call for the error, e.g. `lab.sleep`.
 * @throws InputError when `duration` has no unit (`30`, `'30'`) or is not a duration at all.
 */
export function durationMs(duration: Duration, where: string): number {
  const text = typeof duration === 'number' ? String(duration) : duration;
  const ms = typeof text === 'string' ? parseDurationMs(text) : null;
  if (ms === null) {
    const hint = /^[0-9]+(\.[0-9]+)?$/.test(String(text)) ? `; write "${String(text)}s"` : ' (e.g. "30s", "500ms", "2m")';
    throw new InputError(`${where}: ${JSON.stringify(duration)} is not a duration with a unit${hint}`);
  }
  return ms;
}
