// A resolved kwok ClusterSpec for the kwok unit tests.
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../../lib/spec/types.js';
import { clusterFiles } from '../../../../lib/cluster/kwok/paths.js';

/** Tuned settings (grace 20 s, monitor period 2 s, lease 20 s, toleration 30 s), 5 nodes in zones a/b. */
export function kwokSpec(overrides: Partial<ClusterSpec> = {}): ClusterSpec {
  const settings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  settings.controllerManager.nodeMonitorPeriodMs = 2_000;
  settings.controllerManager.nodeEvictionRate = 0.5;
  settings.apiServer.defaultUnreachableTolerationSeconds = 30;
  settings.kubelet.nodeLeaseDurationSeconds = 20;
  settings.kubelet.nodeStatusReportFrequencyMs = 60_000;
  return {
    provider: 'kwok',
    name: 'kw',
    kubernetesVersion: 'v1.34.4',
    nodeImage: null,
    workers: 5,
    zones: ['zone-a', 'zone-b'], workerLabels: {},
    settings,
    extraArgs: { controllerManager: { v: '2' }, apiServer: {}, scheduler: {} },
    kubeletExtraConfig: {}, kubeletFieldsSet: ['nodeStatusReportFrequency'], existing: null,
    ...overrides,
  };
}

/** The file layout of cluster `kw` under /tmp/kwok-unit. */
export const files = clusterFiles('/tmp/kwok-unit', 'kw');
