// Validation of one experiment document: the schema check, the semantic checks and the matrix
// paths, every issue collected (kind's aggregate) rather than stopping at the first.
import type { SchemaObject } from 'ajv';
import type { InputIssue } from '../common/errors.js';
import { suggestName } from '../common/did-you-mean.js';
import { checkSchema, experimentSchema } from './schema-check.js';
import { checkSemantics } from './semantic-check.js';
import { issueAt, type SourceDocument } from './source.js';

/**
 * Validates a parsed document (with any `--set` values already applied).
 * @returns every issue found, unsorted; empty when the document is valid.
 */
export function validateSource(source: SourceDocument): InputIssue[] {
  let data: unknown;
  try {
    data = source.doc.toJS();
  } catch (error) {
    // e.g. the yaml library's guard against alias bombs ("Excessive alias count ...").
    return [{ file: source.file, line: 1, column: 1, path: '', message: `cannot be read as YAML: ${(error as Error).message}` }];
  }
  if (data === null || data === undefined) {
    return [{ file: source.file, line: 1, column: 1, path: '', message: 'file is empty; an experiment needs apiVersion, kind, metadata and fault' }];
  }
  const schemaIssues = checkSchema(source, data);
  // A rule combining fields skips one the schema refused (30x read as absent): the root cause is said once.
  const semantic = checkSemantics(source, data, new Set(schemaIssues.map((issue) => issue.path)));
  // A range a semantic check explains (kind's 10 workers) is not also given as the schema's wider one (8191).
  const explained = new Set(semantic.map((issue) => issue.path));
  const schema = schemaIssues.filter((issue) => !(explained.has(issue.path) && /^must be [≤≥<>] /.test(issue.message)));
  return [...schema, ...semantic, ...checkMatrixPaths(source, data)];
}

function checkMatrixPaths(source: SourceDocument, data: unknown): InputIssue[] {
  const matrix = (data as { matrix?: unknown }).matrix;
  if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix)) return [];
  const issues: InputIssue[] = [];
  const leaves = settingsLeafPaths();
  for (const [path, values] of Object.entries(matrix)) {
    if (!leaves.includes(path)) {
      issues.push(issueAt(source, ['matrix', path], `unknown settings path; ${suggestName(path, leaves)}`, { atKey: true }));
    } else if (Array.isArray(values) && values.length === 0) {
      issues.push(issueAt(source, ['matrix', path], 'needs at least one value'));
    }
  }
  return issues;
}

let leafCache: string[] | undefined;

/**
 * Dotted paths of every scalar setting an experiment file can hold outside lists, e.g.
 * `cluster.controllerManager.nodeMonitorGracePeriod`, `fault.duration`: the allowed matrix keys.
 */
export function settingsLeafPaths(): string[] {
  if (leafCache) return leafCache;
  const schema = experimentSchema();
  const definitions = (schema.definitions ?? {}) as Record<string, SchemaObject>;
  const deref = (s: SchemaObject): SchemaObject => (typeof s.$ref === 'string' ? deref(definitions[s.$ref.split('/').pop()!] ?? {}) : s);
  const leaves: string[] = [];
  const walk = (node: SchemaObject, prefix: string): void => {
    const resolved = deref(node);
    if (resolved.type === 'object' && resolved.properties) {
      for (const [key, child] of Object.entries(resolved.properties as Record<string, SchemaObject>)) walk(child, prefix ? `${prefix}.${key}` : key);
    } else if (resolved.type !== 'object' && resolved.type !== 'array' && !resolved.anyOf) {
      leaves.push(prefix);
    } else if (resolved.anyOf) {
      leaves.push(prefix); // fault.target: a node name is a scalar value
    }
  };
  const root = deref(schema);
  for (const section of ['cluster', 'fault', 'observe']) walk((root.properties as Record<string, SchemaObject>)[section]!, section);
  leafCache = leaves;
  return leaves;
}
