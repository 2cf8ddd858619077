// File paths written in an experiment (a kubeconfig, workload manifests) are relative to the experiment file, as
// `kubectl apply -f` paths are relative to where it runs; `~/` is the user's home. Resolved once, after defaults.
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Experiment } from './types.js';

/** `path` made absolute: `~/x` → `$HOME/x`, a relative path → against `baseDir`. An empty path stays empty. */
export function anchorPath(path: string, baseDir: string): string {
  if (path === '') return path;
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/** A copy of `experiment` with its file paths absolute, relative ones taken against the directory of `file`. */
export function anchorPaths(experiment: Experiment, file: string): Experiment {
  const baseDir = dirname(resolve(file));
  const existing = experiment.cluster.existing;
  if (!existing) return experiment;
  return { ...experiment, cluster: { ...experiment.cluster, existing: { ...existing, kubeconfig: anchorPath(existing.kubeconfig, baseDir) } } };
}
