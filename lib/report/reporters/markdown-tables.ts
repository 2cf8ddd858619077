// Markdown table helpers and value formatting for summary.md (seconds with millisecond precision).

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

/** Any value as a cell: null → `—`, escaping `|`. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return String(typeof value === 'object' ? JSON.stringify(value) : value).replace(/\|/g, '\\|');
}

/** A GitHub-flavoured Markdown table; each row is escaped through `cell`. */
export function table(headers: string[], rows: unknown[][]): string {
  const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return lines.join('\n');
}
