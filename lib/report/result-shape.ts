// Checks that a result.json or run.json read from disk (a run directory or a baseline from someone else, a CI
// artifact) has the shape rebootlab reads, against the schemas generated from result-types.ts, so a wrong file is
// one line naming the file and the field (exit 2), never a crash deep in compare or analysis.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import { InputError } from '../common/errors.js';
import { upgradeResolvedExperiment } from '../spec/resolved-upgrade.js';
import type { Result, RunInfo } from './result-types.js';

/**
 * Largest result.json read, bytes: a 10,000-pod run's is tens of MB; Node cannot hold a string much over 512 MiB.
 */
export const MAX_RESULT_BYTES = 256 * 1024 ** 2;

/** Top-level fields of result.json that compare, the baseline gate and the reports read; the others may be absent. */
const READ_RESULT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec', 'status', 'nodes', 'pods', 'workloads'];

let validators: { result: ValidateFunction; runInfo: ValidateFunction } | undefined;

function loadSchema(name: string): SchemaObject {
  // dist/lib/report/ and lib/report/ sit at different depths below the repository root.
  for (const relative of [`../../../schema/${name}`, `../../schema/${name}`]) {
    try {
      return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as SchemaObject;
    } catch {
      // try the next location
    }
  }
  throw new Error(`schema/${name} not found next to rebootlab`);
}

/**
 * A tolerant reader's schema: fields rebootlab does not read may be added by another version (no
 * `additionalProperties: false`), fields it reads must have their type.
 */
function tolerant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tolerant);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, tolerant(v)])) : tolerant(value);
  }
  return copy;
}

function compiled(): { result: ValidateFunction; runInfo: ValidateFunction } {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: false });
  const result = tolerant(loadSchema('result.schema.json')) as SchemaObject;
  const definitions = result.definitions as Record<string, SchemaObject>;
  // Results written before a field existed (e.g. `events`) stay comparable: require only what is read.
  definitions.Result = { ...definitions.Result, required: READ_RESULT_FIELDS };
  validators = {
    result: ajv.compile(result),
    runInfo: new Ajv({ allErrors: false, verbose: true, strict: false }).compile(tolerant(loadSchema('run-info.schema.json')) as SchemaObject),
  };
  return validators;
}

/**
 * `value` (parsed JSON of `file`) as a Result, checked against schema/result.schema.json for the fields rebootlab
 * reads (extra fields allowed).
 * @throws InputError naming `file`, the first wrong field and what it should be (exit 2).
 */
export function checkResultShape(value: unknown, file: string, hint?: string): Result {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(`${file}: not a rebootlab result: ${describe(value)}, not a JSON object`, hint);
  const kind = (value as { kind?: unknown }).kind;
  if (kind !== 'Result') throw new InputError(`${file}: not a rebootlab result: kind is ${kind === undefined ? 'missing' : describe(kind)}, not "Result"`, hint);
  const validate = compiled().result;
  if (!validate(value)) throw new InputError(`${file}: not a rebootlab result: ${describeError(validate.errors?.[0])}`, hint);
  return value as Result;
}

/**
 * `value` (parsed JSON of `file`) as run.json's RunInfo, checked against schema/run-info.schema.json after the
 * fields its resolved experiment may lack (written by an older rebootlab) are filled (lib/spec/resolved-upgrade.ts).
 * @throws InputError naming `file` and the first wrong field (exit 2).
 */
export function checkRunInfoShape(value: unknown, file: string, hint?: string): RunInfo {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(`${file}: not a rebootlab run.json: ${describe(value)}, not a JSON object`, hint);
  // A run.json written before the resolved experiment had its newer fields gets the values that rebootlab used.
  upgradeResolvedExperiment((value as { resolved?: unknown }).resolved);
  const validate = compiled().runInfo;
  if (!validate(value)) throw new InputError(`${file}: not a rebootlab run.json: ${describeError(validate.errors?.[0])}`, hint);
  return value as RunInfo;
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not match its schema';
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((text, part) => (/^[0-9]+$/.test(part) ? `${text}[${part}]` : text === '' ? part : `${text}.${part}`), '');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${path === '' ? '' : `${path}.`}${String(params.missingProperty)}: missing`;
  const where = path === '' ? 'the document' : path;
  if (error.keyword === 'type') return `${where}: must be ${String(params.type).replace(/,/g, ' or ')}, got ${describe(error.data)}`;
  if (error.keyword === 'enum') return `${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `${where}: must be ${JSON.stringify(params.allowedValue)}`;
  return `${where}: ${error.message ?? `fails ${error.keyword}`}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
