// Expands `matrix` × `repeat` into named variants, each a resolved experiment.
import { InputError } from '../common/errors.js';
import type { Experiment, Variant } from './types.js';

/**
 * Most runs (matrix combinations × repeat) one experiment file may ask for. Each run takes minutes (a cluster
 * fault, recovery and settling: 2 to 10 minutes in the shipped experiments), so 1000 runs are days of one machine;
 * past it a typo (`repeat: 1000000`) is likelier than intent, and only counting is cheap, not expanding.
 */
export const MAX_RUNS = 1000;

/**
 * The number of runs of `matrix` × `repeat`, from the lengths of the matrix lists alone (nothing expanded; may be
 * Infinity or beyond 2^53 for absurd inputs, which only compare greater than {@link MAX_RUNS}).
 */
export function countRuns(matrix: Record<string, readonly unknown[]>, repeat: number): number {
  let count = repeat;
  for (const values of Object.values(matrix)) count *= values.length;
  return count;
}

/** One matrix combination: dotted settings path → the value this combination uses. */
export type MatrixCombination = Record<string, unknown>;

/**
 * Matrix axes that need a cluster of their own (lib/run/reconfigure-cluster.ts `reconfigurableInPlace`: another
 * provider, name, Kubernetes version, node image, node count or zones means a new cluster).
 */
export const CLUSTER_SHAPE_AXES: readonly string[] = [
  'cluster.provider', 'cluster.name', 'cluster.kubernetesVersion', 'cluster.nodeImage', 'cluster.workers', 'cluster.nodes', 'cluster.zones',
];

/**
 * Every combination of the matrix axes. Axes in {@link CLUSTER_SHAPE_AXES} vary slowest, so one cluster (e.g. one
 * per Kubernetes version) serves every combination of the other axes before the next is made; otherwise the first
 * axis written is the slowest. Each combination's keys keep the file's order (variant names follow it).
 * An empty matrix gives one empty combination.
 */
export function matrixCombinations(matrix: Record<string, readonly unknown[]>): MatrixCombination[] {
  const axes = Object.entries(matrix);
  const shape = (path: string) => CLUSTER_SHAPE_AXES.includes(path);
  let combinations: MatrixCombination[] = [{}];
  for (const [path, values] of [...axes.filter(([p]) => shape(p)), ...axes.filter(([p]) => !shape(p))]) {
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [path]: value })));
  }
  return combinations.map((combination) => Object.fromEntries(axes.map(([path]) => [path, combination[path]])));
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

/** A `--shard i/n` slice: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parses `--shard i/n` (1 ≤ i ≤ n). @throws InputError (one line) for anything else.
 */
export function parseShard(text: string): Shard {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new InputError(`--shard ${text}: write i/n with 1 ≤ i ≤ n, e.g. --shard 1/2`);
  return { index, count };
}

/**
 * The variants shard `shard` runs: every n-th of the matrix × repeat expansion, starting at the i-th (round robin,
 * so each shard gets a share of every combination's repeats and of the slow combinations). Deterministic: the same
 * file and `--set` give every runner the same expansion, and the shards together run each variant exactly once.
 * @throws InputError when the shard would be empty (more shards than runs).
 */
export function shardVariants(variants: readonly Variant[], shard: Shard): Variant[] {
  const mine = variants.filter((_, k) => k % shard.count === shard.index - 1);
  if (mine.length === 0) throw new InputError(`--shard ${shard.index}/${shard.count}: the experiment has only ${variants.length} run(s) (matrix × repeat); use at most ${variants.length} shards`);
  return mine;
}
