// An experiment file as a YAML document that remembers where each value was written, so every
// issue can name `file:line:col`. Values from `--set` remember their flag instead of a place.
import { Document, LineCounter, isAlias, isMap, isNode, isPair, isScalar, isSeq, parseDocument, visit, type Node, type Pair, type YAMLMap } from 'yaml';
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
 * Parses YAML text, keeping node ranges. Work is linear in the text: the parser's own duplicate-key check compares
 * every key of a mapping with every other (20,000 keys took 6 s), so keys are checked here with one set per mapping,
 * and aliases against the anchors before them in one pass (the parser leaves an unknown alias to `toJS`, which
 * cannot say where it is).
 * @throws InputError with one issue per YAML syntax error (duplicate keys and unknown aliases included), or if
 *   `text` holds several documents or a line ending that is a carriage return alone.
 */
export function parseSource(file: string, text: string): SourceDocument {
  const lineCounter = new LineCounter();
  const deep = tooDeepAt(text);
  if (deep !== null) {
    const before = text.slice(0, deep);
    const line = before.split('\n').length;
    const column = deep - before.lastIndexOf('\n');
    throw issuesError([{ file, line, column, path: '', message: `invalid YAML: lists and mappings nested more than ${MAX_FLOW_NESTING} levels in [ ] or { }` }]);
  }
  // YAML 1.2 counts a bare carriage return (classic Mac line endings) as a line break; the parser does not, and read
  // the whole file as one line ("Nested mappings are not allowed in compact mappings" at 1:13).
  const bareCr = /\r(?!\n)/.exec(text);
  if (bareCr !== null) {
    const before = text.slice(0, bareCr.index);
    const line = before.split('\n').length;
    throw issuesError([{ file, line, column: bareCr.index - before.lastIndexOf('\n'), path: '', message: 'invalid YAML: a line ends in a carriage return alone (\\r without \\n, old Mac line endings); save the file with LF or CRLF line endings' }]);
  }
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const at = (offset: number, message: string): InputIssue => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, column: pos.col, path: '', message: `invalid YAML: ${message}` };
  };
  const issues: InputIssue[] = doc.errors.map((error) =>
    at(error.pos[0], error.code === 'MULTIPLE_DOCS'
      ? 'a second document ("---"); an experiment file holds one experiment'
      : /Maximum call stack size exceeded/.test(error.message)
        ? 'nested too deeply (more levels of lists and mappings than the parser follows)'
        : error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')));
  if (issues.length === 0) issues.push(...checkKeysAndAliases(doc, at), ...checkTags(doc, at));
  if (issues.length > 0) throw issuesError(issues);
  return { file, doc, lineCounter, origins: new Map() };
}

/**
 * Deepest nesting of flow collections (`[`, `{`) accepted. The YAML parser recurses once per level: 1000 levels
 * overflow its stack and 2000 (a 4 KB file) made V8 abort out of memory compiling a regular expression, so deeper
 * text is refused before it is parsed. Experiments nest a few levels.
 */
export const MAX_FLOW_NESTING = 64;

/**
 * The offset where `text` opens its ({@link MAX_FLOW_NESTING} + 1)th nested `[` or `{`, or null. One pass; quoted
 * strings and comments are skipped (a bracket in a block scalar counts, which only matters past 64 unclosed ones).
 */
export function tooDeepAt(text: string): number | null {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
    } else if (c === 0x27 /* ' */ && (i === 0 || /[\s\[{,:]/.test(text[i - 1]!))) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x27; i++);
    } else if (c === 0x23 /* # */ && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_FLOW_NESTING) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return null;
}

/**
 * Parses one YAML value given on the command line (`--set path=<value>`) as the file is parsed (linear duplicate-key
 * check), refusing anchors and aliases: one value has no use for them, and an alias inside its anchor is a value
 * that contains itself.
 * @returns the value, or a one-line reason it is not one.
 */
export function parseValueText(text: string): { value: unknown } | { error: string } {
  if (tooDeepAt(text) !== null) return { error: `lists and mappings nested more than ${MAX_FLOW_NESTING} levels` };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) return { error: doc.errors[0]!.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') };
  let anchored = false;
  visit(doc, {
    Node(_, node) {
      if (isAlias(node) || (node as { anchor?: string }).anchor) anchored = true;
    },
    Map(_, map) {
      if (map.anchor) anchored = true;
    },
  });
  if (anchored) return { error: 'anchors (&) and aliases (*) are not allowed in a --set value' };
  const duplicate = [...checkKeysAndAliases(doc, (_offset, message) => ({ file: '', path: '', message })), ...checkTags(doc, (_offset, message) => ({ file: '', path: '', message }))][0];
  if (duplicate) return { error: duplicate.message };
  return { value: doc.toJS() as unknown };
}

/**
 * Duplicate keys of each mapping, aliases to no earlier anchor and aliases inside their own anchor, in one walk of
 * the document (document order); `at` turns an offset and a message into an issue.
 */
export function checkKeysAndAliases(doc: Document, at: (offset: number, message: string) => InputIssue): InputIssue[] {
  const issues: InputIssue[] = [];
  // Anchor name → the node it names last (an alias refers to the latest anchor of its name before it).
  const anchors = new Map<string, unknown>();
  visit(doc, {
    // yaml's visitor calls Map instead of Node for a mapping (and Alias for an alias): note a mapping's anchor here.
    Map(_, map) {
      if (map.anchor) anchors.set(map.anchor, map);
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (isNode(pair.key) && !isScalar(pair.key)) {
          // `? [a, b]`, `? {a: 1}` or `*alias:` as a key: toJS would turn it into text (and print a warning of Node's).
          issues.push(at(pair.key.range?.[0] ?? 0, `a key must be a name, not ${isAlias(pair.key) ? 'an alias' : isSeq(pair.key) ? 'a list' : 'a mapping'}`));
          continue;
        }
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) issues.push(at(pair.key.range?.[0] ?? 0, 'Map keys must be unique'));
        seen.add(pair.key.value);
      }
    },
    Alias(_, alias, ancestors) {
      if (!anchors.has(alias.source)) issues.push(at(alias.range?.[0] ?? 0, `unknown alias *${alias.source} (its anchor &${alias.source} must come before it)`));
      // An alias inside the node it names is a cycle: toJS would make a circular object no check could walk.
      else if (ancestors.includes(anchors.get(alias.source) as never)) {
        issues.push(at(alias.range?.[0] ?? 0, `alias *${alias.source} is inside its own anchor &${alias.source} (a value that contains itself)`));
      }
    },
    Node(_, node) {
      if (!isAlias(node) && node.anchor) anchors.set(node.anchor, node); // scalars and sequences
    },
  });
  return issues;
}

/** The explicit tags an experiment's values may carry: those of plain JSON values (`!!str 5` is the string "5"). */
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * Every explicit tag but those of {@link PLAIN_TAGS}: `!!binary`, `!!timestamp`, `!!set`, `!!omap` would give a
 * Buffer, Date, Set or Map that no check reads as written (an `!!omap` matrix ran no variant), and an unknown tag
 * (`!foo`) is dropped by the parser with a warning nobody sees.
 */
function checkTags(doc: Document, at: (offset: number, message: string) => InputIssue): InputIssue[] {
  const issues: InputIssue[] = [];
  const check = (node: Node): void => {
    const tag = (node as { tag?: string }).tag;
    if (tag === undefined || PLAIN_TAGS.has(tag)) return;
    const shown = tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
    issues.push(at(node.range?.[0] ?? 0, `tag ${shown} is not read here: an experiment holds plain strings, numbers, booleans, lists and mappings; remove the tag`));
  };
  visit(doc, {
    Map(_, map) {
      check(map);
    },
    Node(_, node) {
      if (!isAlias(node)) check(node);
    },
  });
  return issues;
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

/** Each mapping's pairs by key (the first pair of a key), built on first lookup: one issue costs O(depth), not O(keys). */
const pairIndexes = new WeakMap<YAMLMap, { size: number; byKey: Map<unknown, Pair> }>();

function findPair(node: unknown, segment: string | number): { key: unknown; value: unknown } | null {
  if (isMap(node)) {
    let index = pairIndexes.get(node);
    // A mapping changed since it was indexed (--set adds pairs) is indexed again.
    if (!index || index.size !== node.items.length) {
      index = { size: node.items.length, byKey: new Map() };
      for (const item of node.items) {
        const key = isScalar(item.key) ? item.key.value : item.key;
        if (!index.byKey.has(key)) index.byKey.set(key, item);
      }
      pairIndexes.set(node, index);
    }
    const pair = index.byKey.get(segment);
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

/**
 * Most issues an InputError keeps of one file: the first ones in file order. A file with 100,000 unknown keys
 * needs its first few fixed, not 100,000 lines; the hint still counts them all.
 */
export const MAX_KEPT_ISSUES = 100;

/** Builds the InputError for a list of issues: message = first issue, hint = how many more; at most {@link MAX_KEPT_ISSUES} kept. */
export function issuesError(issues: InputIssue[]): InputError {
  const sorted = sortIssues(issues);
  const more = sorted.length - 1;
  const hint = more > 0 ? `${more} more issue${more === 1 ? '' : 's'} in ${sorted[0]!.file}` : undefined;
  return new InputError(formatInputIssue(sorted[0]!), hint, { issues: sorted.slice(0, MAX_KEPT_ISSUES), issueCount: sorted.length });
}
