// Reads back the timeout settings actually in effect: flags from the control-plane static pod manifests and each
// kubelet's /configz, mapped onto TimeoutSettings. Shared by the providers that read them (kind, kwok, existing).
import { parse } from 'yaml';
import { CLIENT_RATE_FLAGS, DEFAULT_TIMEOUT_SETTINGS, type TimeoutSettings } from '../spec/settings.js';
import type { EffectiveSettings } from './provider.js';
import { parseGoDuration } from '../common/units.js';

/**
 * The flags of a static pod manifest's first container `command` (and `args`), `--name=value` →
 * `{name: value}`; a bare `--flag` maps to `"true"`. @throws Error when the text is not a Pod manifest.
 */
export function parseStaticPodFlags(manifestYaml: string): Record<string, string> {
  const pod = parse(manifestYaml) as { spec?: { containers?: { command?: string[]; args?: string[] }[] } };
  const container = pod?.spec?.containers?.[0];
  if (!container) throw new Error('not a Pod manifest: spec.containers[0] missing');
  const flags: Record<string, string> = {};
  for (const arg of [...(container.command ?? []), ...(container.args ?? [])]) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (m) flags[m[1]!] = m[2] ?? 'true';
  }
  return flags;
}

type Reader = (value: string) => number;
const goMs: Reader = parseGoDuration;
const num: Reader = (v) => {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${v}`);
  return n;
};

/** The controller-manager timing settings every cluster has (the client rate limits are optional, read below). */
type TimingKey = Exclude<keyof TimeoutSettings['controllerManager'], (typeof CLIENT_RATE_FLAGS)[number][0]>;
const CONTROLLER_MANAGER: [TimingKey, string, Reader][] = [
  ['nodeMonitorPeriodMs', 'node-monitor-period', goMs],
  ['nodeMonitorGracePeriodMs', 'node-monitor-grace-period', goMs],
  ['nodeStartupGracePeriodMs', 'node-startup-grace-period', goMs],
  ['nodeEvictionRate', 'node-eviction-rate', num],
  ['secondaryNodeEvictionRate', 'secondary-node-eviction-rate', num],
  ['unhealthyZoneThreshold', 'unhealthy-zone-threshold', num],
  ['largeClusterSizeThreshold', 'large-cluster-size-threshold', num],
];
const API_SERVER: [keyof TimeoutSettings['apiServer'], string, Reader][] = [
  ['defaultNotReadyTolerationSeconds', 'default-not-ready-toleration-seconds', num],
  ['defaultUnreachableTolerationSeconds', 'default-unreachable-toleration-seconds', num],
];
const KUBELET: [keyof TimeoutSettings['kubelet'], string, Reader][] = [
  ['nodeStatusUpdateFrequencyMs', 'nodeStatusUpdateFrequency', goMs],
  ['nodeStatusReportFrequencyMs', 'nodeStatusReportFrequency', goMs],
  ['nodeLeaseDurationSeconds', 'nodeLeaseDurationSeconds', num],
  ['shutdownGracePeriodMs', 'shutdownGracePeriod', goMs],
  ['shutdownGracePeriodCriticalPodsMs', 'shutdownGracePeriodCriticalPods', goMs],
];

/**
 * Maps read-back flags and kubelet configs to TimeoutSettings. A flag or field that is absent (or
 * unparsable) takes the Kubernetes 1.34 default (DEFAULT_TIMEOUT_SETTINGS) and its path is listed in
 * `missing`; a kubelet field that differs between nodes keeps the first node's value (nodes sorted
 * by name) and is listed in `inconsistent`.
 */
export function toEffectiveSettings(
  controllerManagerFlags: Record<string, string>,
  apiServerFlags: Record<string, string>,
  kubeletConfigs: Record<string, Record<string, unknown>>,
): EffectiveSettings {
  const settings: TimeoutSettings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  const missing: string[] = [];
  const inconsistent: string[] = [];
  const readInto = <K extends string>(target: Record<K, number>, section: string, table: [K, string, Reader][], source: Record<string, unknown>[]) => {
    for (const [field, key, reader] of table) {
      const values: number[] = [];
      for (const s of source) {
        const raw = s[key];
        if (raw === undefined || raw === null) continue;
        try {
          values.push(reader(String(raw)));
        } catch {
          /* unparsable: treated as missing below */
        }
      }
      if (values.length === 0) missing.push(`${section}.${field}`);
      else {
        target[field] = values[0]!;
        if (values.some((v) => v !== values[0])) inconsistent.push(`${section}.${field}`);
      }
    }
  };
  readInto(settings.controllerManager as Record<TimingKey, number>, 'controllerManager', CONTROLLER_MANAGER, [controllerManagerFlags]);
  // Client rate limits: absent means the component's default, which the analysis knows; not "missing".
  for (const [field, flag] of CLIENT_RATE_FLAGS) {
    const value = Number(controllerManagerFlags[flag]);
    if (controllerManagerFlags[flag] !== undefined && Number.isFinite(value)) settings.controllerManager[field] = value;
  }
  readInto(settings.apiServer, 'apiServer', API_SERVER, [apiServerFlags]);
  const nodes = Object.keys(kubeletConfigs).sort();
  readInto(settings.kubelet, 'kubelet', KUBELET, nodes.map((n) => kubeletConfigs[n]!));
  return { settings, controllerManagerFlags, apiServerFlags, kubeletConfigs, missing, inconsistent };
}

/** The `kubeletconfig` object of a kubelet's `/configz` response body. @throws Error when the body is not configz JSON. */
export function parseConfigz(body: string): Record<string, unknown> {
  const parsed = JSON.parse(body) as { kubeletconfig?: Record<string, unknown> };
  if (!parsed.kubeletconfig) throw new Error('configz response has no kubeletconfig');
  return parsed.kubeletconfig;
}
