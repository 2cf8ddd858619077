// Measurement: every predicted event derived from its observed cause, judged against what happened; `count(predictions.<list>)`.
import type { PredictionField } from '../../spec/expectation.js';
import { secondsSince } from '../clock.js';
import { evictionApiEvictions, kubeletTerminations } from '../events.js';
import { part, type Measurement } from '../measurement.js';
import { get } from '../objects.js';
import { predict, versionWarning } from '../predict.js';
import type { Observation } from '../../observe/types.js';
import type { Experiment } from '../../spec/types.js';
import type { PredictionItem } from '../types.js';

const PREDICTION_LISTS: Record<PredictionField, (items: PredictionItem[]) => PredictionItem[]> = {
  missed: (items) => items.filter((i) => i.held === false),
  held: (items) => items.filter((i) => i.held === true),
  open: (items) => items.filter((i) => i.held === null && i.notModelled === undefined),
  notModelled: (items) => items.filter((i) => i.notModelled !== undefined),
  items: (items) => items,
};

/**
 * Whether the experiment's kube-controller-manager force-detaches after maxWaitForUnmountDuration: not with
 * `--disable-force-detach-on-timeout` (a flag of v1.30 and later) among its extra args. Unknown experiment: the default, true.
 */
function forceDetachOnTimeout(experiment: Experiment | undefined): boolean {
  const value = experiment?.cluster.extraArgs.controllerManager['disable-force-detach-on-timeout'];
  return value === undefined || value === 'false';
}

/**
 * The causal model (lib/analyze/predict*.ts) over the observed nodes, pods, faults, steps, Lease renewals and leader
 * changes. Its tables are drawn by the reporters themselves (missed first, each row's cause on hover).
 */
export const predictionsMeasurement: Measurement = {
  name: 'predictions',
  describes: 'detection, taints, evictions, PodGC and replacements predicted from their observed cause, each held or missed',
  needs: ['nodes', 'pods', 'faults', 'steps', 'leaseRenewals', 'statusPosts', 'leaderChanges', 'observerLag', 'jobFacts', 'volumes'],
  provides: ['predictions'],
  measure: ({ observations, ctx, options, warn }, earlier) => {
    const kubernetesVersion = options.kubernetesVersion ?? options.experiment?.cluster.kubernetesVersion ?? null;
    const kubeletVersions = kubeletVersionsOf(observations);
    for (const line of new Set([versionWarning(kubernetesVersion), ...[...kubeletVersions.values()].map(versionWarning)])) if (line !== null) warn(line);
    return { predictions: predict(options.settings, {
      nodes: part(earlier, 'nodes'),
      pods: part(earlier, 'pods'),
      faults: part(earlier, 'faults'),
      steps: part(earlier, 'steps'),
      leaseRenewals: part(earlier, 'leaseRenewals'),
      statusPosts: part(earlier, 'statusPosts'),
      leaderChanges: part(earlier, 'leaderChanges'),
      observerLag: part(earlier, 'observerLag'),
      apiEvictions: evictionApiEvictions(observations, ctx.faultMs),
      kubeletTerminations: kubeletTerminations(observations, ctx.faultMs),
      jobs: part(earlier, 'jobFacts'),
      endSeconds: secondsSince(ctx.faultMs, ctx.endMs),
      kubernetesVersion,
      kubeletVersions,
      ...(earlier.volumes ? { volumes: earlier.volumes, forceDetachOnTimeout: forceDetachOnTimeout(options.experiment) } : {}),
    }) };
  },
  expectations: {
    scope: 'predictions',
    values(analysis, s) {
      if (s.scope !== 'predictions') return 'not a predictions subject';
      return PREDICTION_LISTS[s.field](analysis.predictions.items).map((i) => ({ label: `${i.taintKey ? `${i.event} (${i.taintKey})` : i.event} of ${i.pod ?? i.node}`, value: true }));
    },
  },
};

/** Per node, the kubeletVersion of its last journaled Node record (status.nodeInfo.kubeletVersion); journals before it was kept have none. */
export function kubeletVersionsOf(observations: readonly Observation[]): Map<string, string> {
  const versions = new Map<string, string>();
  for (const o of observations) {
    if (o.type !== 'object' || o.kind !== 'Node') continue;
    const v = get(o.object, 'status', 'nodeInfo', 'kubeletVersion');
    if (typeof v === 'string' && v !== '') versions.set(o.name, v);
  }
  return versions;
}
