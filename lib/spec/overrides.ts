// `--set path=value` overrides: parsed and written into the document before validation, each value
// remembering its flag so issues about it name the flag instead of a line.
import { parse as parseYaml } from 'yaml';
import type { InputIssue } from '../common/errors.js';
import { issueAt, type FieldPath, type SourceDocument } from './source.js';

/**
 * Splits a dotted settings path into segments: `workloads[0].replicas` and `workloads.0.replicas`
 * both give `['workloads', 0, 'replicas']`.
 */
export function parseFieldPath(text: string): FieldPath {
  return text
    .replace(/\[([0-9]+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^[0-9]+$/.test(part) ? Number(part) : part));
}

/**
 * Applies `--set` overrides in order (a later one wins). The value is parsed as YAML (`40s` a string,
 * `20` a number, `[a, b]` a list).
 * @returns issues for malformed overrides (no `=`, empty path, a path through a scalar); the others are applied.
 */
export function applyOverrides(source: SourceDocument, overrides: readonly string[]): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const text of overrides) {
    const origin = `--set ${text}`;
    const eq = text.indexOf('=');
    const path = eq > 0 ? parseFieldPath(text.slice(0, eq)) : [];
    if (eq <= 0 || path.length === 0) {
      issues.push({ file: source.file, origin, path: '', message: 'expected --set path=value, e.g. --set fault.duration=60s' });
      continue;
    }
    let value: unknown;
    try {
      value = parseYaml(text.slice(eq + 1));
    } catch (error) {
      issues.push({ file: source.file, origin, path: text.slice(0, eq), message: `value is not valid YAML: ${(error as Error).message.split('\n')[0]}` });
      continue;
    }
    try {
      if (source.doc.contents === null) source.doc.contents = source.doc.createNode({}) as unknown as typeof source.doc.contents;
      const node = source.doc.createNode(value);
      source.origins.set(node, origin);
      source.doc.setIn(path, node);
    } catch {
      issues.push({ ...issueAt(source, path, 'cannot be set: a parent is not a mapping'), origin });
    }
  }
  return issues;
}
