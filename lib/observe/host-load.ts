// The load of the machine rebootlab runs on, journaled as `host-load` phase markers: with kind and kwok the nodes,
// the control plane and the observer all share it, so a busy host slows a restarted kubelet or a pod's start-up
// (the windows measured from runs) and the observer's receive times. The analysis reads the markers back
// (lib/analyze/host-load.ts) to say so beside a forecast it judges.
import { availableParallelism, loadavg } from 'node:os';

/** Phase name of the markers. */
export const HOST_LOAD_PHASE = 'host-load';

/** How often a run journals the host's load while it observes, milliseconds. */
export const HOST_LOAD_INTERVAL_MS = 15_000;

/**
 * One reading of the host's load: the kernel's 1-minute and 5-minute load averages (runnable plus uninterruptible
 * tasks, /proc/loadavg via os.loadavg) and the CPUs this process may use (os.availableParallelism).
 */
export interface HostLoadSample {
  loadAverage1m: number;
  loadAverage5m: number;
  cpus: number;
}

/** The host's load now, load averages rounded to 0.01. */
export function sampleHostLoad(): HostLoadSample {
  const [oneMinute = 0, fiveMinutes = 0] = loadavg();
  return { loadAverage1m: Math.round(oneMinute * 100) / 100, loadAverage5m: Math.round(fiveMinutes * 100) / 100, cpus: availableParallelism() };
}
