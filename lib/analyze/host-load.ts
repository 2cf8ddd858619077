// How busy the host running the nodes was (kind, kwok: the `host-load` markers a run journals, lib/observe/host-load.ts),
// said where it matters: a forecast's conditions and a warning beside the judged windows. A busy host does not move
// a Kubernetes timer (grace periods, tolerations, token rates keep their time), but it slows what the windows measured
// from runs rest on: a restarted kubelet's Ready, a pod's start-up, a docker command's return, the observer's receipt.
import { HOST_LOAD_PHASE } from '../observe/host-load.js';
import type { Observation, PhaseObservation } from '../observe/types.js';

/**
 * Load per CPU (1-minute load average ÷ CPUs) from which the host counts as overloaded: twice as many runnable tasks
 * as CPUs, so a task waits for a CPU as long as it runs. On this project's 2-core machine, kind runs at load averages
 * of 10 to 12 (a Go build beside two clusters, 5 Dec 2026) missed the measured windows by 0.7 to 24 s (docs/predictions.md).
 */
export const HOST_OVERLOADED_LOAD_PER_CPU = 2;

/** One journaled reading of the host's load: 1- and 5-minute load averages, CPUs, and when (`atMs`: the marker's client time, Unix epoch milliseconds). */
export interface HostLoadReading {
  loadAverage1m: number;
  loadAverage5m: number;
  cpus: number;
  atMs: number;
}

/** The reading a `host-load` marker holds, or null for any other record or a malformed detail (older or edited journals). */
export function hostLoadOf(record: Observation): HostLoadReading | null {
  if (record.type !== 'phase' || record.phase !== HOST_LOAD_PHASE) return null;
  const detail = (record as PhaseObservation).detail ?? {};
  const number = (key: string) => (typeof detail[key] === 'number' && Number.isFinite(detail[key]) && (detail[key] as number) >= 0 ? (detail[key] as number) : null);
  const [one, five, cpus] = [number('loadAverage1m'), number('loadAverage5m'), number('cpus')];
  if (one === null || five === null || cpus === null || cpus < 1) return null;
  return { loadAverage1m: one, loadAverage5m: five, cpus, atMs: record.receivedAtMs };
}

/** Load per CPU of a reading, rounded to 0.01. */
export const loadPerCpu = (r: Pick<HostLoadReading, 'loadAverage1m' | 'cpus'>): number => Math.round((r.loadAverage1m / r.cpus) * 100) / 100;

/**
 * The forecast condition for the reading taken just before it was frozen, e.g. "the host running the nodes at load
 * average 0.84 over 1 min on 2 CPUs (0.42 per CPU)"; overloaded, it adds that the measured windows may be too short.
 */
export function hostLoadCondition(r: HostLoadReading): string {
  const base = `the host running the nodes at load average ${r.loadAverage1m} over 1 min on ${r.cpus} CPUs (${loadPerCpu(r)} per CPU)`;
  return loadPerCpu(r) >= HOST_OVERLOADED_LOAD_PER_CPU
    ? `${base}: overloaded (from ${HOST_OVERLOADED_LOAD_PER_CPU} per CPU), so the windows measured from runs (a restarted kubelet's Ready, a pod's start-up, a docker command's return) may be too short`
    : base;
}

/**
 * One line when the host was overloaded at any reading from the forecast to the end of the journal (`fromMs`: the
 * forecast's or time zero's client time, Unix epoch milliseconds), naming the highest reading and when; null otherwise.
 * `toSeconds` converts a client time to seconds since time zero.
 */
export function hostLoadWarning(observations: readonly Observation[], fromMs: number, toSeconds: (ms: number) => number): string | null {
  let peak: HostLoadReading | null = null;
  for (const record of observations) {
    const r = hostLoadOf(record);
    if (r === null || r.atMs < fromMs) continue;
    if (peak === null || loadPerCpu(r) > loadPerCpu(peak)) peak = r;
  }
  if (peak === null || loadPerCpu(peak) < HOST_OVERLOADED_LOAD_PER_CPU) return null;
  return `the host running the nodes was overloaded during the run: load average up to ${peak.loadAverage1m} over 1 min on ${peak.cpus} CPUs (${loadPerCpu(peak)} per CPU, at ${toSeconds(peak.atMs).toFixed(1)} s); Kubernetes' timers keep their time, but the windows measured from runs (a restarted kubelet's Ready, a pod's start-up, a docker command's return) may be too short, so a miss among them may be the host's, not Kubernetes'`;
}
