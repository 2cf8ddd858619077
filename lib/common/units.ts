// Durations: Go-duration strings as users write them ("40s", "1m30s") to and from milliseconds.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION_RE = /^(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h))+$/;
const PART_RE = /([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g;

/** Whether `text` is a Go duration string with a unit on every part, e.g. `40s`, `1m30s`, `250ms`. */
export function isDuration(text: string): boolean {
  return DURATION_RE.test(text);
}

/**
 * Parses a Go duration string (`40s`, `1m30s`, `500ms`; no sign) into milliseconds.
 * @returns milliseconds (may be fractional below 1 ms), or `null` if `text` is not a duration with units.
 */
export function parseDurationMs(text: string): number | null {
  if (!DURATION_RE.test(text)) return null;
  let totalMs = 0;
  for (const match of text.matchAll(PART_RE)) totalMs += Number(match[1]) * UNIT_MS[match[2]!]!;
  return totalMs;
}

/**
 * Formats milliseconds as a short Go duration string: `50000` → `50s`, `90000` → `1m30s`, `250` → `250ms`.
 * Suitable for Kubernetes flags such as `--node-monitor-grace-period`.
 */
export function formatDurationMs(durationMs: number): string {
  if (durationMs === 0) return '0s';
  const parts: string[] = [];
  let restMs = Math.round(durationMs);
  for (const [unit, sizeMs] of [['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (restMs >= sizeMs) {
      parts.push(`${Math.floor(restMs / sizeMs)}${unit}`);
      restMs %= sizeMs;
    }
  }
  if (restMs > 0) parts.push(`${restMs}ms`);
  return parts.join('');
}
