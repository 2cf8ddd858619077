// `--set path=value` overrides: parsed and written into the document before validation, each value
// remembering its flag so issues about it name the flag instead of a line.
import { isMap, isNode, isScalar, isSeq, type Node } from 'yaml';
import type { InputIssue } from '../common/errors.js';
import { formatPath, issueAt, parseValueText, type FieldPath, type SourceDocument } from './source.js';

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
 * `20` a number, `[a, b]` a list). A path that a `matrix:` axis varies replaces that axis's values (a single value
 * runs only it, a list runs those), since every variant would overwrite the field itself. A path written
 * `matrix.<axis>` sets that axis, `<axis>` being one key however many dots it holds (`matrix.cluster.kubernetesVersion`).
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
    if (text.slice(0, eq).replace(/\[([0-9]+)\]/g, '.$1').split('.').includes('')) {
      issues.push({ file: source.file, origin, path: '', message: 'the path has an empty part (two dots in a row, or a dot at its start or end); write it as in the file, e.g. --set workloads[0].replicas=3' });
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
      const named = namedMatrixAxis(source, text.slice(0, eq));
      if (named !== undefined) {
        // `matrix.cluster.kubernetesVersion=[...]`: the axis key is a dotted settings path, one key, never nested maps.
        const axisNode = source.doc.createNode(value);
        source.origins.set(axisNode, origin);
        if (isSeq(axisNode)) for (const item of axisNode.items) if (isNode(item)) source.origins.set(item, origin);
        source.doc.setIn(['matrix', named], axisNode);
        markCreatedParents(source, ['matrix', named], origin);
        continue;
      }
      const axis = matrixAxisKey(source, path);
      if (axis !== undefined) {
        // The path is a matrix axis: writing the field would be overwritten by every variant's axis value, so the
        // flag replaces the axis instead (one value runs only it, a list runs those).
        const axisNode = source.doc.createNode(Array.isArray(value) ? value : [value]);
        source.origins.set(axisNode, origin);
        if (isSeq(axisNode)) for (const item of axisNode.items) if (isNode(item)) source.origins.set(item, origin);
        source.doc.setIn(['matrix', axis], axisNode);
        continue;
      }
      const gap = indexBeyondEnd(source, path);
      if (gap !== null) {
        issues.push({ ...issueAt(source, path.slice(0, gap.at + 1), gap.message), origin });
        continue;
      }
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
 * The first list index of `path` past the end of its list (or past 0 for a list the file does not have): `setIn`
 * would fill the items before it with empty ones, each an issue of its own with no word of the flag. Null when every
 * index names an item or the one after the last (which adds an item). A key that is not decimal digits, where the path
 * reaches a list, is refused the same way.
 */
function indexBeyondEnd(source: SourceDocument, path: FieldPath): { at: number; message: string } | null {
  let node: unknown = source.doc.contents;
  for (const [at, segment] of path.entries()) {
    if (typeof segment === 'string' && isSeq(node)) {
      // The YAML library reads "1e2", "0x5", "+5" or " 5" as an index of a list (1e2: 100, filling 98 empty items).
      const list = formatPath(path.slice(0, at));
      return { at, message: `${list} is a list: its items are numbered in decimal digits (${list}[0], ${list}.0), not "${segment}"` };
    }
    if (typeof segment === 'number') {
      const length = isSeq(node) ? node.items.length : node === undefined || node === null ? 0 : null;
      if (length !== null && segment > length) {
        const list = formatPath(path.slice(0, at));
        return {
          at,
          message: length === 0
            ? `no such item: ${list} has none; use ${list}[0] to add the first`
            : `no such item: ${list} has ${length} (${list}[0] to ${list}[${length - 1}]); use one of them, or ${list}[${length}] to add one`,
        };
      }
    }
    if (isMap(node)) node = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment)?.value;
    else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
    else return null;
  }
  return null;
}

/**
 * The axis key that a `--set` path written as `matrix.<axis>` names (everything after `matrix.` is one key: axes are
 * keyed by dotted settings paths such as `cluster.kubernetesVersion`): the file's own key when one of its axes is the
 * same settings path written another way (`workloads[0].replicas` for `workloads.0.replicas`), else the text as
 * written. Undefined when `pathText` does not start with `matrix.` or nothing follows it.
 */
function namedMatrixAxis(source: SourceDocument, pathText: string): string | undefined {
  if (!pathText.startsWith('matrix.')) return undefined;
  const axis = pathText.slice('matrix.'.length);
  const axisPath = parseFieldPath(axis);
  if (axisPath.length === 0) return undefined;
  return matrixAxisKey(source, axisPath) ?? axis;
}

/**
 * The key of the file's `matrix:` axis that varies `path` (`cluster.kubernetesVersion` for
 * `['cluster', 'kubernetesVersion']`), or undefined when no axis does.
 */
function matrixAxisKey(source: SourceDocument, path: FieldPath): string | undefined {
  const matrix = source.doc.get('matrix', true);
  if (!isMap(matrix)) return undefined;
  const wanted = path.join('.');
  for (const pair of matrix.items) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    if (typeof key === 'string' && parseFieldPath(key).join('.') === wanted) return key;
  }
  return undefined;
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
      // An item `setIn` appended (`--set workloads[4].replicas=3` on four workloads) has no place in the file either.
      if (isNode(next) && !next.range && !source.origins.has(next)) source.origins.set(next as Node, origin);
    } else return;
    node = next;
  }
}
