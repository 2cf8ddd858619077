// The typed input of scripted experiments: the experiment file's fields with durations as template-literal
// types (template-literal duration types, as zx does), so a bare number or a missing unit is a compile error as well as a runtime one.
import type * as v1 from '../spec/v1alpha1/types.js';

/** Units a {@link Duration} may carry: milliseconds, seconds, minutes, hours. */
export type DurationUnit = 'ms' | 's' | 'm' | 'h';

/**
 * A duration with a unit, e.g. `'30s'`, `'500ms'`, `'2m'`, `'1m30s'` (Go duration syntax, as in experiment
 * files). A bare number (`30`, `'30'`) does not type-check; at runtime it is an InputError ("add a unit").
 */
export type Duration = `${number}${DurationUnit}` | `${number}m${number}s` | `${number}h${number}m`;

/** kube-controller-manager settings with typed durations (see the experiment file reference for each default). */
export interface ScriptControllerManager extends Omit<v1.ControllerManager, 'nodeMonitorPeriod' | 'nodeMonitorGracePeriod' | 'nodeStartupGracePeriod'> {
  /** `--node-monitor-period`, default 5s. */
  nodeMonitorPeriod?: Duration;
  /** `--node-monitor-grace-period`, default 50s (since 1.32). */
  nodeMonitorGracePeriod?: Duration;
  /** `--node-startup-grace-period`, default 1m. */
  nodeStartupGracePeriod?: Duration;
}

/** kubelet settings with typed durations; `nodeLeaseDurationSeconds` stays an integer number of seconds (upstream unit). */
export interface ScriptKubelet extends Omit<v1.Kubelet, 'nodeStatusUpdateFrequency' | 'nodeStatusReportFrequency' | 'shutdownGracePeriod' | 'shutdownGracePeriodCriticalPods'> {
  /** `nodeStatusUpdateFrequency`, default 10s. */
  nodeStatusUpdateFrequency?: Duration;
  /** `nodeStatusReportFrequency`, default 5m. */
  nodeStatusReportFrequency?: Duration;
  /** `shutdownGracePeriod`, default 0s. */
  shutdownGracePeriod?: Duration;
  /** `shutdownGracePeriodCriticalPods`, default 0s. */
  shutdownGracePeriodCriticalPods?: Duration;
}

/** The cluster of a scripted experiment: the experiment file's `cluster:` section with typed durations. */
export interface ScriptCluster extends Omit<v1.Cluster, 'controllerManager' | 'kubelet'> {
  controllerManager?: ScriptControllerManager;
  kubelet?: ScriptKubelet;
}

/**
 * What a script declares up front; validated exactly like an experiment file (same messages, same defaults),
 * with `--set path=value` applied (e.g. `--set cluster.name=mine`). The faults are the script's own steps.
 */
export interface ScriptExperiment {
  /** DNS-1123 label: the run directory is `<out>/<name>-<UTC time>/`. */
  name: string;
  description?: string;
  cluster?: ScriptCluster;
  /** Workloads `lab.deploy()` creates in namespace `rebootlab` (the experiment file's `workloads:`). */
  workloads?: v1.Workload[];
  /**
   * Traffic probers (the experiment file's `probes:`): `lab.deploy()` starts them once the workloads are ready, through
   * a node not in `placeOn` (or `node:`); they stop after the body, once every fault is restored.
   */
  probes?: v1.TrafficProbe[];
  /** Assertions on result.json, in the experiment file's `expect:` language, e.g. `workloads.web.minimumReady >= 2`. */
  expect?: string[];
}
