// Markdown table helpers and value formatting for summary.md (seconds with millisecond precision), and the escaping
// that keeps text from a run (names, messages, reasons: run.json and the journal are input) from making Markdown.
import { escapeControlOrBidi } from '../../common/errors.js';

/** A cell: `18.234 s` for seconds, `—` for null (did not happen), plain text otherwise. */
export function seconds(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(3)} s`;
}

/** `[15.000, 25.000] s`, or `—` for no window. */
export function window(w: { fromSeconds: number; toSeconds: number } | null): string {
  return w === null ? '—' : `[${w.fromSeconds.toFixed(3)}, ${w.toSeconds.toFixed(3)}] s`;
}

/** ✓ when `value` lies in `w`, ✗ when it does not, blank when either is missing. */
export function within(value: number | null, w: { fromSeconds: number; toSeconds: number } | null): string {
  if (value === null || w === null) return '';
  return value >= w.fromSeconds && value <= w.toSeconds ? '✓' : '✗';
}

/** Markdown written on purpose (a code span), which {@link cell} and {@link table} pass through with only `|` escaped. */
export class Markdown {
  constructor(readonly text: string) {}
}

/**
 * `text` as Markdown inline text that reads as written and makes no Markdown or HTML of its own: line breaks, other
 * control and bidirectional formatting characters as JSON escapes (`\n`, `\u202e`; a line break would end a table row or
 * start a heading), `\`, `` ` `` and `|` backslash-escaped, `<` as `&lt;` (no tag such as `<script>`, no autolink), and
 * `](` / `][` with the bracket escaped (no link or image). Emphasis characters are left alone: they cannot hide or add
 * content. Never throws.
 */
export function markdownText(text: string): string {
  return escapeControlOrBidi(text)
    .replace(/[\\`|]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;')
    .replace(/\](?=[([])/g, '\\]');
}

/**
 * `text` as a code span: the fence one backtick longer than the longest run of backticks in it (so a backtick cannot
 * end it early), control and bidirectional characters escaped as in {@link markdownText}; `|` is escaped by
 * {@link cell} when the span sits in a table.
 */
export function codeSpan(text: string): Markdown {
  const body = escapeControlOrBidi(text);
  const fence = '`'.repeat(Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return new Markdown(`${fence}${pad}${body}${pad}${fence}`);
}

/** Any value as a cell: null → `—`, a {@link Markdown} as written (`|` escaped), anything else through {@link markdownText}. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value instanceof Markdown) return value.text.replace(/\|/g, '\\|');
  return markdownText(String(typeof value === 'object' ? JSON.stringify(value) : value));
}

/** A GitHub-flavoured Markdown table; headers and each row are escaped through `cell`. */
export function table(headers: unknown[], rows: unknown[][]): string {
  const lines = [`| ${headers.map(cell).join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return lines.join('\n');
}
