// An experiment file as a YAML document that remembers where each value was written, so every
// issue can name `file:line:col`. Values from `--set` remember their flag instead of a place.
import { Document, LineCounter, isMap, isNode, isPair, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { InputError, formatInputIssue, type InputIssue } from '../common/errors.js';

/** A path into the document: map keys and sequence indexes, e.g. `['workloads', 0, 'name']`. */
export type FieldPath = readonly (string | number)[];

/** A parsed experiment file: the YAML document with positions, plus where non-file values came from. */
export interface SourceDocument {
  /** File path as given by the user; used verbatim in issues. */
  file: string;
  doc: Document;
  lineCounter: LineCounter;
  /** Nodes that did not come from the file (e.g. `--set` values) → their origin, e.g. `--set fault.count=2`. */
  origins: Map<Node, string>;
}

/**
 * Parses YAML text, keeping node ranges.
 * @throws InputError with one issue per YAML syntax error (duplicate keys included), or if `text` holds several documents.
 */
export function parseSource(file: string, text: string): SourceDocument {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const issues: InputIssue[] = doc.errors.map((error) => {
    const pos = lineCounter.linePos(error.pos[0]);
    const message =
      error.code === 'MULTIPLE_DOCS'
        ? 'a second document ("---"); an experiment file holds one experiment'
        : error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { file, line: pos.line, column: pos.col, path: '', message: `invalid YAML: ${message}` };
  });
  if (issues.length > 0) throw issuesError(issues);
  return { file, doc, lineCounter, origins: new Map() };
}

/** Formats a field path: `['workloads', 0, 'name']` → `workloads[0].name`. */
export function formatPath(path: FieldPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (segment.includes('.') || segment === '') text += `[${JSON.stringify(segment)}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

/** Options of issueAt. */
export interface IssueAtOptions {
  /** Point at the key of the last path segment rather than its value (for unknown fields). */
  atKey?: boolean;
  /** Path printed in the issue when it differs from the located path. */
  printedPath?: FieldPath;
}

/**
 * Makes an issue for the value at `path`: its line and column (1-based) are those of the value, or of
 * the deepest existing parent when the value is missing.
 */
export function issueAt(source: SourceDocument, path: FieldPath, message: string, options: IssueAtOptions = {}): InputIssue {
  const issue: InputIssue = { file: source.file, path: formatPath(options.printedPath ?? path), message };
  let node: unknown = source.doc.contents;
  let located: Node | null = isNode(node) ? node : null;
  let origin: string | undefined = located ? source.origins.get(located) : undefined;
  for (const [index, segment] of path.entries()) {
    const pair = findPair(node, segment);
    if (pair === null) break;
    const isLast = index === path.length - 1;
    // An unknown field written by --set: its key has no place in the file, its value knows the flag.
    if (isNode(pair.value) && source.origins.has(pair.value)) origin = source.origins.get(pair.value);
    node = isLast && options.atKey ? pair.key : pair.value;
    if (isNode(node) && (node.range || source.origins.has(node))) {
      located = node;
      origin = source.origins.get(node) ?? origin;
    }
    if (!isNode(node)) break;
  }
  // Nodes made by --set hold no file positions, nor do their children: name the flag instead.
  if (origin !== undefined) {
    issue.origin = origin;
    return issue;
  }
  if (located?.range) {
    const pos = source.lineCounter.linePos(located.range[0]);
    issue.line = pos.line;
    issue.column = pos.col;
  }
  return issue;
}

function findPair(node: unknown, segment: string | number): { key: unknown; value: unknown } | null {
  if (isMap(node)) {
    const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === segment);
    return pair && isPair(pair) ? { key: pair.key, value: pair.value } : null;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? null : { key: item, value: item };
  }
  return null;
}

/** Orders issues by place in the file (issues without a place, e.g. from `--set`, first), then by path. */
export function sortIssues(issues: InputIssue[]): InputIssue[] {
  const seen = new Set<string>();
  const unique = issues.filter((issue) => {
    const line = formatInputIssue(issue);
    if (seen.has(line)) return false;
    seen.add(line);
    return true;
  });
  return unique.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path));
}

/** Builds the InputError for a list of issues: message = first issue, hint = how many more. */
export function issuesError(issues: InputIssue[]): InputError {
  const sorted = sortIssues(issues);
  const more = sorted.length - 1;
  const hint = more > 0 ? `${more} more issue${more === 1 ? '' : 's'} in ${sorted[0]!.file}` : undefined;
  return new InputError(formatInputIssue(sorted[0]!), hint, { issues: sorted });
}
