// Expands `matrix` × `repeat` into named variants, each a resolved experiment.
import type { Experiment, Variant } from './types.js';

/** One matrix combination: dotted settings path → the value this combination uses. */
export type MatrixCombination = Record<string, unknown>;

/**
 * Every combination of the matrix axes, first axis slowest (as written in the file).
 * An empty matrix gives one empty combination.
 */
export function matrixCombinations(matrix: Record<string, readonly unknown[]>): MatrixCombination[] {
  let combinations: MatrixCombination[] = [{}];
  for (const [path, values] of Object.entries(matrix)) {
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [path]: value })));
  }
  return combinations;
}

/**
 * The variant name of a combination: `metadata.name`, then `--<last path segment>-<value>` per axis,
 * reduced to characters safe in a directory name. `outage` + `{cluster.controllerManager.nodeMonitorGracePeriod: 20s}`
 * → `outage--nodeMonitorGracePeriod-20s`.
 */
export function variantName(experimentName: string, combination: MatrixCombination): string {
  let name = experimentName;
  for (const [path, value] of Object.entries(combination)) {
    const setting = path.split('.').pop() ?? path;
    name += `--${setting}-${String(value)}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  }
  return name;
}

/**
 * Expands combinations (each paired with its resolved experiment) × `repeat` into variants,
 * matrix-major: all repeats of the first combination, then the next.
 * @param repeat runs per combination, ≥ 1.
 */
export function expandVariants(
  resolved: readonly { combination: MatrixCombination; experiment: Experiment }[],
  repeat: number,
): Variant[] {
  const variants: Variant[] = [];
  for (const { combination, experiment } of resolved) {
    for (let repeatIndex = 0; repeatIndex < repeat; repeatIndex++) {
      variants.push({ variantName: variantName(experiment.metadata.name, combination), repeatIndex, matrixValues: combination, experiment });
    }
  }
  return variants;
}
