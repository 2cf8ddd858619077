// Durations: Go-duration strings to and from milliseconds. Users write them with a unit on every part ("40s",
// "1m30s": isDuration/parseDurationMs); components print and accept Go's own forms ("1m0s", "0", a sign:
// formatGoDuration/parseGoDuration), so a value written to a flag reads back identically from configz.
import { InputError } from './errors.js';

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
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


/** Trim a decimal to at most 3 fractional digits, dropping trailing zeros (`1.500` → `1.5`). */
function decimal(value: number): string {
  return String(Number(value.toFixed(3)));
}

/**
 * Formats a span of milliseconds as Go's `time.Duration.String()` does, so a value written to a flag
 * reads back identically from configz: `500` → `500ms`, `20000` → `20s`, `90000` → `1m30s`,
 * `60000` → `1m0s`, `3600000` → `1h0m0s`, `0` → `0s`. Sub-millisecond precision is not kept.
 * @throws InputError for a negative or non-finite number of milliseconds.
 */
export function formatGoDuration(durationMs: number): string {
  if (!Number.isFinite(durationMs) || durationMs < 0) throw new InputError(`invalid duration: ${durationMs} ms`);
  const ms = Math.round(durationMs);
  if (ms === 0) return '0s';
  if (ms < 1_000) return `${ms}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1_000;
  if (hours > 0) return `${hours}h${minutes}m${decimal(seconds)}s`;
  if (minutes > 0) return `${minutes}m${decimal(seconds)}s`;
  return `${decimal(seconds)}s`;
}

/**
 * Parses a Go duration string (`1m30s`, `500ms`, `1.5h`, `0`) into milliseconds (may be fractional
 * for ns/µs parts).
 * @throws InputError when the text is not a Go duration.
 */
export function parseGoDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === '+0' || trimmed === '-0') return 0;
  const sign = trimmed.startsWith('-') ? -1 : 1;
  const body = trimmed.replace(/^[+-]/, '');
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = part.exec(body)) !== null) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = part.lastIndex;
  }
  if (body.length === 0 || consumed !== body.length) {
    throw new InputError(`invalid Go duration "${text}"; write e.g. 40s, 1m30s or 500ms`);
  }
  return sign * total;
}
