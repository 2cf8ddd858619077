// Converts instants into the results' unit: seconds since time zero (the start of the first fault command), millisecond precision.

/**
 * Seconds from `faultMs` to `atMs` (both Unix epoch milliseconds), rounded to the millisecond:
 * `secondsSince(1000, 19234.4) === 18.234`. This is the one place results convert milliseconds to seconds.
 */
export function secondsSince(faultMs: number, atMs: number): number {
  return Math.round(atMs - faultMs) / 1000;
}

/**
 * Seconds from `faultMs` (Unix epoch milliseconds) to a server RFC 3339 timestamp, or null when it is absent
 * or unparsable. metav1.Time has 1 s resolution, MicroTime (Lease renewTime) microseconds.
 */
export function serverSecondsSince(faultMs: number, timestamp: string | null | undefined): number | null {
  if (!timestamp) return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : secondsSince(faultMs, ms);
}

/** Milliseconds to seconds with millisecond precision, for spans: `msToSeconds(1500) === 1.5`. */
export function msToSeconds(ms: number): number {
  return Math.round(ms) / 1000;
}
