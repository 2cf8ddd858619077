// Resolved ClusterSpec fixtures for the cluster unit tests.
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';

/** A 1.34 spec with tuned settings, 3 workers in zones a/b, and extraArgs for every component. */
export function tunedSpec(overrides: Partial<ClusterSpec> = {}): ClusterSpec {
  const settings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  settings.controllerManager.nodeMonitorPeriodMs = 500;
  settings.controllerManager.nodeStartupGracePeriodMs = 90_000;
  settings.apiServer.defaultUnreachableTolerationSeconds = 30;
  settings.kubelet.nodeLeaseDurationSeconds = 20;
  settings.kubelet.shutdownGracePeriodMs = 30_000;
  settings.kubelet.shutdownGracePeriodCriticalPodsMs = 10_000;
  return {
    provider: 'kind',
    name: 'rebootlab-test',
    kubernetesVersion: 'v1.34.4',
    nodeImage: null,
    workers: 3,
    zones: ['zone-a', 'zone-b'], workerLabels: {},
    settings,
    extraArgs: { controllerManager: { v: '2' }, apiServer: { 'audit-log-maxage': '1' }, scheduler: { 'bind-timeout-seconds': '10' } },
    kubeletExtraConfig: { maxPods: 50 },
    kubeletFieldsSet: ['nodeLeaseDurationSeconds', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'],
    existing: null,
    ...overrides,
  };
}
