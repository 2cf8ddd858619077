// `--set path=value` overrides: parsed and written into the document before validation, each value
// remembering its flag so issues about it name the flag instead of a line.
import { isMap, isNode, isScalar, isSeq, type Node } from 'yaml';
import type { InputIssue } from '../common/errors.js';
import { issueAt, parseValueText, type FieldPath, type SourceDocument } from './source.js';

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
    const parsed = parseValueText(text.slice(eq + 1));
    if ('error' in parsed) {
      issues.push({ file: source.file, origin, path: text.slice(0, eq), message: `value is not valid YAML: ${parsed.error}` });
      continue;
    }
    const value = parsed.value;
    try {
      if (source.doc.contents === null) source.doc.contents = source.doc.createNode({}) as unknown as typeof source.doc.contents;
      const node = source.doc.createNode(value);
      source.origins.set(node, origin);
      source.doc.setIn(path, node);
      markCreatedParents(source, path, origin);
    } catch {
      issues.push({ ...issueAt(source, path, 'cannot be set: a parent is not a mapping'), origin });
    }
  }
  return issues;
}

/**
 * `setIn` creates the mappings a new path runs through (`--set nosuch.path=1` makes `nosuch: {path: 1}`); they and
 * their keys have no place in the file, so they remember the flag too and an issue about them names it instead of a
 * line of the file.
 */
function markCreatedParents(source: SourceDocument, path: FieldPath, origin: string): void {
  let node: unknown = source.doc.contents;
  for (const segment of path) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
      if (!pair) return;
      for (const part of [pair.key, pair.value]) if (isNode(part) && !part.range && !source.origins.has(part)) source.origins.set(part as Node, origin);
      next = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    } else return;
    node = next;
  }
}
