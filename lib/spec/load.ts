// Loads an experiment file: read, parse with positions, apply `--set`, validate every matrix
// combination, resolve defaults, expand variants. The one entry point the CLI and the runner use.
import { readFile } from 'node:fs/promises';
import { isMap, isSeq, type Node } from 'yaml';
import { InputError, type InputIssue } from '../common/errors.js';
import { resolveExperiment } from './defaults.js';
import { expandVariants, matrixCombinations, type MatrixCombination } from './matrix.js';
import { applyOverrides, parseFieldPath } from './overrides.js';
import { anchorPaths } from './paths.js';
import { expandManifestWorkloads } from './manifests.js';
import { issuesError, parseSource, type SourceDocument } from './source.js';
import type { Experiment, LoadedExperiment } from './types.js';
import type * as v1 from './v1alpha1/types.js';
import { validateSource } from './validate.js';

/** Options of loadExperiment. */
export interface LoadOptions {
  /** `--set path=value` overrides, applied in order before validation. */
  set?: readonly string[];
}

/**
 * Reads and validates an experiment file and resolves every variant.
 * @param file path as the user gave it; issues name it verbatim.
 * @throws InputError carrying every issue (`file:line:col: path: message`), or if the file cannot be read.
 */
export async function loadExperiment(file: string, options: LoadOptions = {}): Promise<LoadedExperiment> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new InputError(`${file}: cannot read: ${reason}`, undefined, { issues: [{ file, path: '', message: `cannot read: ${reason}` }] });
  }
  return loadExperimentText(file, text, options);
}

/**
 * Like loadExperiment, for text already in memory.
 * @throws InputError carrying every issue.
 */
export function loadExperimentText(file: string, text: string, options: LoadOptions = {}): LoadedExperiment {
  const source = parseSource(file, text);
  const issues: InputIssue[] = [...applyOverrides(source, options.set ?? []), ...validateSource(source)];
  if (issues.length > 0) throw issuesError(issues);

  const user = source.doc.toJS() as v1.Experiment;
  const matrix = user.matrix ?? {};
  const resolved: { combination: MatrixCombination; experiment: Experiment }[] = [];
  for (const combination of matrixCombinations(matrix)) {
    const variantSource = withMatrixValues(source, combination);
    const variantIssues = Object.keys(combination).length > 0 ? validateSource(variantSource) : [];
    if (variantIssues.length > 0) issues.push(...variantIssues);
    else resolved.push({ combination, experiment: expandManifestWorkloads(anchorPaths(resolveExperiment(variantSource.doc.toJS() as v1.Experiment), file), file) });
  }
  if (issues.length > 0) throw issuesError(issues);

  const repeat = user.repeat ?? 1;
  return {
    file,
    experiment: expandManifestWorkloads(anchorPaths(resolveExperiment(user), file), file),
    matrix,
    repeat,
    variants: expandVariants(resolved, repeat),
  };
}

/** A copy of the document with one matrix combination written in; the values keep their place in `matrix:`. */
function withMatrixValues(source: SourceDocument, combination: MatrixCombination): SourceDocument {
  if (Object.keys(combination).length === 0) return source;
  const doc = source.doc.clone();
  const origins = new Map(source.origins);
  for (const [path, value] of Object.entries(combination)) {
    const node = matrixValueNode(source, path, value) ?? doc.createNode(value);
    doc.setIn(parseFieldPath(path), node);
  }
  return { ...source, doc, origins };
}

function matrixValueNode(source: SourceDocument, path: string, value: unknown): Node | undefined {
  const matrix = source.doc.get('matrix', true);
  if (!isMap(matrix)) return undefined;
  const values = matrix.get(path, true);
  if (!isSeq(values)) return undefined;
  return (values.items as Node[]).find((item) => (item as { toJSON?: () => unknown }).toJSON?.() === value);
}
