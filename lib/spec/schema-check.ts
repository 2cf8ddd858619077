// Structural validation of an experiment document against schema/experiment.schema.json (ajv),
// with each ajv error rewritten as one readable issue at the offending node.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import type { InputIssue } from '../common/errors.js';
import { formatGoDuration, parseDurationMs } from '../common/units.js';
import { suggestName } from '../common/did-you-mean.js';
import { issueAt, type FieldPath, type SourceDocument } from './source.js';

/** URL of the generated JSON schema, relative to this module in dist/lib/spec/ and in lib/spec/. */
const SCHEMA_URL = new URL('../../../schema/experiment.schema.json', import.meta.url);
const SCHEMA_URL_FROM_SOURCE = new URL('../../schema/experiment.schema.json', import.meta.url);

const DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$';
const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const VERSION_PATTERN = '^v[0-9]+\\.[0-9]+\\.[0-9]+$';
/** A DNS name (a DNS probe's query): labels of letters, digits and `-` joined by dots, an optional trailing dot. */
const DNS_NAME_PATTERN = '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*\\.?$';

/**
 * Longest duration an experiment file may hold, milliseconds: 2^31 − 1, the longest a Node.js timer waits (a longer
 * `setTimeout` fires after 1 ms: https://nodejs.org/api/timers.html#settimeoutcallback-delay-args), and rebootlab
 * waits out faults, steps and observation with timers. Go's time.Duration, which the component flags parse, reaches
 * about 292 years, so this bound is the one that binds for every field.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** The ajv format that bounds a Duration (see {@link MAX_DURATION_MS}); added in memory, the schema file is unchanged. */
const DURATION_FORMAT = 'rebootlab-duration-range';

let cached: { schema: SchemaObject; validate: ValidateFunction } | undefined;

/** The experiment JSON schema (draft-07), as checked in under schema/. */
export function experimentSchema(): SchemaObject {
  return compiled().schema;
}

function compiled(): { schema: SchemaObject; validate: ValidateFunction } {
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(SCHEMA_URL, 'utf8');
  } catch {
    text = readFileSync(SCHEMA_URL_FROM_SOURCE, 'utf8');
  }
  const schema = JSON.parse(text) as SchemaObject;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  ajv.addFormat(DURATION_FORMAT, { type: 'string', validate: (value: string) => (parseDurationMs(value) ?? 0) <= MAX_DURATION_MS });
  cached = { schema, validate: ajv.compile(withDurationRange(schema) as SchemaObject) };
  return cached;
}

/** A copy of the schema in which every Duration (its pattern) also has the range format. */
function withDurationRange(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDurationRange);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === 'properties' || key === 'definitions'
      ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, withDurationRange(v)]))
      : withDurationRange(value);
  }
  if (copy.pattern === DURATION_PATTERN) copy.format = DURATION_FORMAT;
  return copy;
}

/**
 * Validates `data` (the document as plain JS) against the schema; one issue per ajv error, located in `source`.
 * Numbers must be finite first: YAML's `.inf` and `.nan` are numbers to JSON Schema, and ajv counts `.inf` as an
 * integer (`Infinity % 1` is NaN, not non-zero).
 */
export function checkSchema(source: SourceDocument, data: unknown): InputIssue[] {
  const { validate } = compiled();
  const infinite = nonFiniteNumbers(data);
  const issues: InputIssue[] = infinite.map((path) => issueAt(source, path, `${describeValue(valueAt(data, path))} is not a finite number; write a number such as 3`));
  if (validate(data)) return issues;
  const skip = new Set(infinite.map((path) => '/' + path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')));
  const errors = (validate.errors ?? []).filter((e) => !skip.has(e.instancePath));
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const typeErrorPaths = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  for (const error of errors) {
    // A value of the wrong type fails its enum/pattern/range too; the type error alone says it.
    if (typeErrorPaths.has(error.instancePath) && !['type', 'required', 'additionalProperties', 'anyOf'].includes(error.keyword)) continue;
    // In a union (fault.target), keep the errors of the branch the value's type selects.
    if (anyOfPaths.has(error.instancePath) && error.keyword !== 'required' && error.keyword !== 'additionalProperties') {
      if (error.keyword !== 'anyOf' || isObject(error.data)) continue;
    }
    issues.push(toIssue(source, error));
  }
  return issues;
}

function toIssue(source: SourceDocument, error: ErrorObject): InputIssue {
  const path = parsePointer(error.instancePath);
  const parent = (error.parentSchema ?? {}) as SchemaObject;
  const data = error.data;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      return issueAt(source, [...path, field], 'missing required field');
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const allowed = Object.keys((parent.properties ?? {}) as object);
      const message = allowed.length === 0 ? 'unknown field' : `unknown field; ${suggestName(field, allowed)}`;
      return issueAt(source, [...path, field], message, { atKey: true });
    }
    case 'type':
      if (parent.pattern === DURATION_PATTERN && typeof data === 'number') {
        return issueAt(source, path, `${data} has no unit; add a unit, e.g. "${data}s"`);
      }
      return issueAt(source, path, `expected ${describeType(String(params.type))}, got ${describeValue(data)}`);
    case 'enum':
      return issueAt(source, path, `${describeValue(data)} is not allowed; ${suggestName(String(data), (params.allowedValues as unknown[]).map(String))}`);
    case 'const':
      return issueAt(source, path, `must be ${JSON.stringify(params.allowedValue)}, got ${describeValue(data)}`);
    case 'pattern':
      return issueAt(source, path, patternMessage(String(params.pattern), data));
    case 'format':
      if (String(params.format) === DURATION_FORMAT) {
        return issueAt(source, path, `${describeValue(data)} is longer than ${formatGoDuration(MAX_DURATION_MS)} (2^31 − 1 ms), the longest rebootlab can wait`);
      }
      return issueAt(source, path, error.message ?? 'has the wrong format');
    case 'maxLength':
      return issueAt(source, path, `must be at most ${String(params.limit)} characters, got ${String(data).length}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const op = { minimum: '≥', maximum: '≤', exclusiveMinimum: '>', exclusiveMaximum: '<' }[error.keyword];
      return issueAt(source, path, `must be ${op} ${String(params.limit)}, got ${describeValue(data)}`);
    }
    case 'anyOf': {
      const forms = typeof parent.description === 'string' ? describeForms(parent.description) : describeUnion((parent.anyOf ?? []) as SchemaObject[]);
      return issueAt(source, path, `expected ${forms}, got ${describeValue(data)}`);
    }
    default:
      return issueAt(source, path, error.message ?? `fails ${error.keyword}`);
  }
}

function patternMessage(pattern: string, data: unknown): string {
  const value = describeValue(data);
  if (pattern === DURATION_PATTERN) {
    return /^[0-9.]+$/.test(String(data))
      ? `${value} has no unit; add a unit, e.g. "${String(data)}s"`
      : `${value} is not a duration; write a number with a unit (ms, s, m, h), e.g. "40s"`;
  }
  if (pattern === DNS_LABEL_PATTERN) {
    return `${value} is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)`;
  }
  if (pattern === VERSION_PATTERN) return `${value} is not a Kubernetes version like "v1.34.4"`;
  if (pattern === DNS_NAME_PATTERN) return `${value} is not a DNS name like "web.rebootlab.svc.cluster.local" (labels of letters, digits and "-", joined by dots)`;
  return `${value} does not match ${pattern}`;
}

/** A union's description as a noun phrase: "A node name, `x` (default), or ..." → "a node name, "x", or ...". */
function describeForms(description: string): string {
  const text = description
    .split('\n')[0]!
    .replace(/`([^`]*)`/g, (_, inner: string) => (inner.includes('"') ? inner : `"${inner}"`))
    .replace(/ \(default\)/g, '')
    .replace(/\.$/, '');
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function describeUnion(branches: SchemaObject[]): string {
  return branches.map((b) => (b.$ref ? `an object (${String(b.$ref).split('/').pop()})` : describeType(String(b.type)))).join(' or ');
}

function describeType(type: string): string {
  const names: Record<string, string> = {
    string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false',
    object: 'a mapping', array: 'a list', null: 'null',
  };
  return type.split(',').map((t) => names[t] ?? t).join(' or ');
}

/** Describes a value for a message: strings quoted, lists and mappings by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

/** Paths of every number that is not finite (`.inf`, `-.inf`, `.nan`), walked without recursion in linear time. */
function nonFiniteNumbers(data: unknown): FieldPath[] {
  type Step = { value: unknown; key: string | number; parent: Step | null };
  const found: FieldPath[] = [];
  const pathOf = (step: Step): FieldPath => {
    const path: (string | number)[] = [];
    for (let s: Step | null = step; s?.parent; s = s.parent) path.unshift(s.key);
    return path;
  };
  const stack: Step[] = [{ value: data, key: '', parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'number' && !Number.isFinite(value)) found.push(pathOf(step));
    else if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, key: i, parent: step }));
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) stack.push({ value: v, key: k, parent: step });
  }
  return found;
}

function valueAt(data: unknown, path: FieldPath): unknown {
  let value = data;
  for (const segment of path) value = (value as Record<string | number, unknown>)[segment];
  return value;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns a JSON pointer (`/workloads/0/name`) into a field path; numeric segments become indexes. */
function parsePointer(pointer: string): FieldPath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^[0-9]+$/.test(part) ? Number(part) : part));
}
