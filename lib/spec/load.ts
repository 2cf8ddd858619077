// Loads an experiment file: read, parse with positions, apply `--set`, validate every matrix
// combination, resolve defaults, expand variants. The one entry point the CLI and the runner use.
import { isMap, isSeq, type Node } from 'yaml';
import { InputError, type InputIssue } from '../common/errors.js';
import { readInputText } from '../common/read-input.js';
import { parseDurationMs } from '../common/units.js';
import { resolveExperiment } from './defaults.js';
import { countRuns, expandVariants, MAX_RUNS, matrixCombinations, variantName, type MatrixCombination } from './matrix.js';
import { applyOverrides, parseFieldPath } from './overrides.js';
import { anchorPaths } from './paths.js';
import { expandManifestWorkloads } from './manifests.js';
import { issueAt, issuesError, parseSource, type SourceDocument } from './source.js';
import { describeValue } from './schema-check.js';
import type { Experiment, LoadedExperiment } from './types.js';
import type * as v1 from './v1alpha1/types.js';
import { validateSource } from './validate.js';

/** Options of loadExperiment. */
export interface LoadOptions {
  /** `--set path=value` overrides, applied in order before validation. */
  set?: readonly string[];
}

/**
 * Largest experiment file read, bytes. The largest shipped file is 3.3 KiB; 256 KiB bounds the YAML parser's work
 * (about 0.5 s on this machine's 2 cores, bench/hostile-input.ts) whatever the file holds.
 */
export const MAX_EXPERIMENT_FILE_BYTES = 256 * 1024;

/**
 * Reads and validates an experiment file and resolves every variant.
 * @param file path as the user gave it; issues name it verbatim.
 * @throws InputError carrying every issue (`file:line:col: path: message`), or one line if `file` is empty, cannot be
 *   read, is not a regular text file of at most {@link MAX_EXPERIMENT_FILE_BYTES}, or is a scripted experiment.
 */
export async function loadExperiment(file: string, options: LoadOptions = {}): Promise<LoadedExperiment> {
  if (/\.(m?ts|m?js|cjs|cts)$/.test(file)) {
    const message = `a scripted experiment, not an experiment file (YAML); it is type-checked and validated when run: rebootlab run ${file}`;
    throw new InputError(`${file}: ${message}`, undefined, { issues: [{ file, path: '', message }] });
  }
  if (file === '') {
    // Named `''`: an issue line starting `: ` would not say which file.
    const message = 'no experiment file given (the path is empty)';
    throw new InputError(`'': ${message}`, undefined, { issues: [{ file: "''", path: '', message }] });
  }
  let text: string;
  try {
    text = readInputText(file, { maxBytes: MAX_EXPERIMENT_FILE_BYTES });
  } catch (error) {
    const message = (error as Error).message.slice(`${file}: `.length);
    throw new InputError(`${file}: ${message}`, undefined, { issues: [{ file, path: '', message }] });
  }
  return loadExperimentText(file, text, options);
}

/**
 * Like loadExperiment, for text already in memory. Work is bounded before anything is expanded: matrix × repeat
 * is counted from the lengths of the matrix lists (at most {@link MAX_RUNS} runs), and equal matrix values, which
 * would give two variants one run directory, are refused.
 * @throws InputError carrying every issue.
 */
export function loadExperimentText(file: string, text: string, options: LoadOptions = {}): LoadedExperiment {
  if (text.length > MAX_EXPERIMENT_FILE_BYTES) {
    throw issuesError([{ file, path: '', message: `${text.length} characters; an experiment file holds at most ${MAX_EXPERIMENT_FILE_BYTES} bytes` }]);
  }
  const source = parseSource(file, text);
  // Counted before validation, which checks every workload (and every name against all others) at length.
  const workloadCount = source.doc.get('workloads', true);
  if (isSeq(workloadCount) && workloadCount.items.length > MAX_WORKLOADS) throw issuesError([tooManyWorkloads(source, workloadCount.items.length, '')]);
  const issues: InputIssue[] = [...applyOverrides(source, options.set ?? []), ...validateSource(source)];
  if (issues.length > 0) throw issuesError(issues);

  const user = source.doc.toJS() as v1.Experiment;
  const matrix = user.matrix ?? {};
  const repeat = user.repeat ?? 1;
  issues.push(...checkRunCount(source, matrix, repeat), ...checkMatrixValues(source, user.metadata.name, matrix), ...checkVariantNameLength(source, user.metadata.name, matrix));
  if (issues.length > 0) throw issuesError(issues);
  const resolved: { combination: MatrixCombination; experiment: Experiment }[] = [];
  for (const combination of matrixCombinations(matrix)) {
    const variantSource = withMatrixValues(source, combination);
    const variantIssues = Object.keys(combination).length > 0 ? validateSource(variantSource) : [];
    if (variantIssues.length > 0) issues.push(...variantIssues);
    else resolved.push({ combination, experiment: expandManifestWorkloads(anchorPaths(resolveExperiment(variantSource.doc.toJS() as v1.Experiment), file), file) });
  }
  if (issues.length > 0) throw issuesError(issues);
  issues.push(...checkScale(source, resolved));
  if (issues.length > 0) throw issuesError(issues);

  return {
    file,
    experiment: expandManifestWorkloads(anchorPaths(resolveExperiment(user), file), file),
    matrix,
    repeat,
    variants: expandVariants(resolved, repeat),
  };
}

/**
 * Most workloads one experiment deploys (inline and from manifests). Each is a controller rebootlab applies, waits for
 * and times, and a row in every report; the shipped experiments have at most 4. More is a generated file gone wrong.
 */
export const MAX_WORKLOADS = 100;
/**
 * Most pods the workloads of one variant ask for at once: replicas summed, a DaemonSet counted once per worker, a Job
 * by its parallelism (pods already running, `selector` workloads, are not counted). 10,000 is the most rebootlab's
 * observer was measured at (bench/observer-scale.ts: a 10,000-pod Deployment on 1000 kwok nodes); a kind cluster of at
 * most 10 workers holds 1100 at the kubelet's default of 110 pods per node.
 */
export const MAX_PODS = 10_000;

/** The issue for `count` workloads, over {@link MAX_WORKLOADS}; `variant` e.g. ` (variant x--replicas-3)` or ''. */
function tooManyWorkloads(source: SourceDocument, count: number, variant: string): InputIssue {
  return issueAt(source, ['workloads'], `${count} workloads${variant}; at most ${MAX_WORKLOADS} (each is deployed, waited for and reported on its own); split them over several experiments`);
}

/**
 * At most {@link MAX_WORKLOADS} workloads and {@link MAX_PODS} pods in each resolved variant (after matrix values and
 * manifests are in): one issue at `workloads` for the first variant over a limit, naming the variant under a matrix.
 */
function checkScale(source: SourceDocument, resolved: readonly { combination: MatrixCombination; experiment: Experiment }[]): InputIssue[] {
  for (const { combination, experiment } of resolved) {
    const variant = Object.keys(combination).length > 0 ? ` (variant ${variantName(experiment.metadata.name, combination)})` : '';
    const workloads = experiment.workloads;
    if (workloads.length > MAX_WORKLOADS) return [tooManyWorkloads(source, workloads.length, variant)];
    const podsOf = (w: Experiment['workloads'][number]): number => (w.selected ? 0 : w.replicas ?? experiment.cluster.workers);
    const pods = workloads.reduce((sum, w) => sum + podsOf(w), 0);
    if (pods > MAX_PODS) {
      const largest = [...workloads].sort((a, b) => podsOf(b) - podsOf(a)).slice(0, 3).map((w) => `${w.name} ${podsOf(w)}`).join(', ');
      return [issueAt(source, ['workloads'], `ask for ${pods} pods${variant} (${largest}${workloads.length > 3 ? ', ...' : ''}); at most ${MAX_PODS} in all, the most rebootlab's observer was measured at (1000 kwok nodes); lower replicas`)];
    }
  }
  return [];
}

/** At most {@link MAX_RUNS} runs (matrix combinations × repeat), counted without expanding anything. */
function checkRunCount(source: SourceDocument, matrix: Record<string, readonly unknown[]>, repeat: number): InputIssue[] {
  const count = countRuns(matrix, repeat);
  if (count <= MAX_RUNS) return [];
  const axes = Object.entries(matrix).map(([path, values]) => `${values.length} ${path.split('.').pop()}`).join(' × ');
  const path = Object.keys(matrix).length > 0 ? ['matrix'] : ['repeat'];
  return [issueAt(source, path, `${axes ? `${axes} × ` : ''}repeat ${repeat} is ${count > 1e15 ? count.toExponential(1) : count} runs; at most ${MAX_RUNS} (each run takes minutes); split the matrix over several experiment files`)];
}

/**
 * Refuses equal values in one matrix list (`[60s, 60s]`, `[0.5, 0.50]`, equal once parsed, or `[60s, 1m]` on an axis
 * of durations, equal in milliseconds: lib/common/units.ts parseDurationMs) and values whose
 * variant names collide once reduced to directory-safe characters (`a/b` and `a_b`): either would give two variants
 * one name and one run directory, the second overwriting the first's journal.
 */
function checkMatrixValues(source: SourceDocument, name: string, matrix: Record<string, readonly unknown[]>): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const [path, values] of Object.entries(matrix)) {
    const byName = new Map<string, number>();
    // An axis of durations compares them by value: `60s`, `1m` and `60000ms` are one setting, one run three times.
    const durations = values.map((v) => (typeof v === 'string' ? parseDurationMs(v) : null));
    const byDuration = durations.every((d) => d !== null) ? new Map<number, number>() : null;
    values.forEach((value, index) => {
      const variant = variantName(name, { [path]: value });
      const first = byName.get(variant);
      const sameDuration = byDuration?.get(durations[index]!);
      if (first === undefined && sameDuration !== undefined) {
        issues.push(issueAt(source, ['matrix', path, index], `${describeValue(value)} is the duration of matrix.${path}[${sameDuration}] ${describeValue(values[sameDuration])} (${durations[index]} ms); each value runs once (use repeat: for more runs)`));
        return;
      }
      byDuration?.set(durations[index]!, index);
      if (first === undefined) byName.set(variant, index);
      else {
        const same = values[first] === value;
        issues.push(issueAt(source, ['matrix', path, index], same
          ? `${describeValue(value)} is already matrix.${path}[${first}]; each value runs once (use repeat: for more runs)`
          : `${describeValue(value)} and matrix.${path}[${first}] ${describeValue(values[first])} give one variant name "${variant}" and one run directory; make them differ in letters, digits, ".", "_" or "-"`));
      }
    });
  }
  return issues;
}

/**
 * Longest variant name, characters: a matrix run's directory is `<variant name>-r<repeat index>` (lib/run/run-experiment.ts),
 * and a directory name holds at most 255 bytes on Linux and macOS; 240 leaves room for `-r999`.
 */
export const MAX_VARIANT_NAME_CHARS = 240;

/**
 * Refuses a matrix whose longest variant name (the experiment's name and, per axis, its longest value's part) is
 * over {@link MAX_VARIANT_NAME_CHARS}: a run would create its cluster and then fail to make the run directory
 * (ENAMETOOLONG), or fail after the other variants ran. The issue names the longest value of the axis adding most.
 */
function checkVariantNameLength(source: SourceDocument, name: string, matrix: Record<string, readonly unknown[]>): InputIssue[] {
  let length = name.length;
  let longest: { path: string; index: number; chars: number } | null = null;
  for (const [path, values] of Object.entries(matrix)) {
    let axis: { path: string; index: number; chars: number } | null = null;
    for (const [index, value] of values.entries()) {
      const chars = variantName('', { [path]: value }).length;
      if (axis === null || chars > axis.chars) axis = { path, index, chars };
    }
    if (axis === null) continue;
    length += axis.chars;
    if (longest === null || axis.chars > longest.chars) longest = axis;
  }
  if (length <= MAX_VARIANT_NAME_CHARS || longest === null) return [];
  return [issueAt(source, ['matrix', longest.path, longest.index], `gives a variant name of ${length} characters; at most ${MAX_VARIANT_NAME_CHARS} fit a run directory name (255 bytes with -r<repeat>); write the value shorter (no leading zeros) or use fewer axes`)];
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
