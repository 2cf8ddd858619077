// `rebootlab predict <file>`: the forecast of every variant of an experiment file, from the experiment alone (no
// cluster, no Docker): what the settings say will happen, and when.
import { forecast } from '../analyze/forecast/index.js';
import type { ForecastDocument } from '../report/forecast-render.js';
import { versionChanges } from '../report/forecast-upgrade.js';
import type { LoadedExperiment } from '../spec/types.js';
import { preFaultStateOf } from './predict-state.js';

/**
 * The forecast document of `loaded`: one forecast per variant (matrix × repeat; repeats of a variant are the same
 * forecast, so only repeat 0 is kept), each from the variant's requested settings and Kubernetes version and the
 * pre-fault state a run would start from (lib/run/predict-state.ts), and with a cluster.kubernetesVersion axis what
 * changes from each version to the next (lib/report/forecast-upgrade.ts). Pure.
 * @throws InputError when a variant's fault target is not among the nodes the experiment creates.
 */
export function predictExperiment(loaded: Pick<LoadedExperiment, 'file' | 'variants'>): ForecastDocument {
  const doc: ForecastDocument = {
    apiVersion: 'rebootlab.dev/v1alpha1',
    kind: 'Forecast',
    file: loaded.file,
    variants: loaded.variants.filter((v) => v.repeatIndex === 0).map((v) => ({
      variant: v.variantName,
      matrixValues: v.matrixValues,
      forecast: forecast({ experiment: v.experiment, settings: v.experiment.cluster.settings, kubernetesVersion: v.experiment.cluster.kubernetesVersion, preFault: preFaultStateOf(v.experiment) }),
    })),
  };
  const changes = versionChanges(doc);
  return changes.length > 0 ? { ...doc, versionChanges: changes } : doc;
}
