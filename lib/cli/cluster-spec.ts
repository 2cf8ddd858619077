// The cluster settings for `rebootlab cluster create`: from an experiment file, or the defaults.
import { InputError } from '../common/errors.js';
import { loadExperiment, loadExperimentText } from '../spec/load.js';
import type { ClusterSpec } from '../spec/types.js';

/** A minimal valid experiment, used to resolve cluster defaults when no file is given. */
const DEFAULTS_DOCUMENT = `apiVersion: rebootlab.dev/v1alpha1
kind: Experiment
metadata: {name: cluster}
fault: {type: reboot}
`;

/**
 * Resolves the cluster section to create: from `experimentFile` (validated whole, `set` applied),
 * or the defaults with `set` applied to them (paths start with `cluster.`). `name` overrides the cluster name.
 * @throws InputError on a bad file, override or name.
 */
export async function loadClusterSpec(experimentFile: string | null, set: readonly string[], name: string | undefined): Promise<ClusterSpec> {
  const overrides = name === undefined ? [...set] : [...set, `cluster.name=${name}`];
  const loaded =
    experimentFile === null
      ? loadExperimentText('(defaults)', DEFAULTS_DOCUMENT, { set: overrides })
      : await loadExperiment(experimentFile, { set: overrides });
  const cluster = loaded.experiment.cluster;
  if (!cluster.name) throw new InputError('--name: cluster name is empty');
  return cluster;
}
