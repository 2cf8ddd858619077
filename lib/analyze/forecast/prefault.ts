// The pre-fault state from journal records: fed the records as they come (a run, just before its first fault
// command), or the records before the fault of a finished journal; the same code either way, so a forecast
// recomputed later equals the one frozen then.
import type { Toleration } from '../../spec/types.js';
import type { ObjectObservation, Observation, PhaseObservation } from '../../observe/types.js';
import { hostLoadOf, type HostLoadReading } from '../host-load.js';
import { workloadMembership, type WorkloadOf } from '../membership.js';
import { condition, get, renewTime } from '../objects.js';
import type { WorkloadRef } from '../types.js';
import type { PreFaultNode, PreFaultPod, PreFaultState } from './types.js';

/**
 * How long before time zero a run's forecast is made at most, seconds: the runner journals it and starts the first
 * fault command at once (lib/run/run-variant.ts), so time zero follows within milliseconds; the analysis warns
 * when a journal shows more.
 */
export const FORECAST_LEAD_SECONDS = 0.5;

/** Label of control-plane nodes (kubeadm). */
const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';

/**
 * Keeps the latest Node, kubelet Lease and Pod records it is fed (one of each per object: memory bounded by the
 * cluster, not the journal), the fault targets of the `workloads-ready` marker and the last `host-load` reading;
 * `state` reads them at an instant.
 */
export class PreFaultRecorder {
  private readonly nodes = new Map<string, ObjectObservation>();
  private readonly leases = new Map<string, ObjectObservation>();
  private readonly pods = new Map<string, ObjectObservation>();
  private targets: string[] = [];
  private host: HostLoadReading | null = null;
  private readonly workloadOf: WorkloadOf;

  /** `workloads`: the run's workload references, for the pods of selected workloads (matched by namespace and labels). */
  constructor(workloads: readonly WorkloadRef[] = []) {
    this.workloadOf = workloadMembership(workloads);
  }

  /** Feed one record, in journal order. Fault markers and everything after them must not be fed for a pre-fault state. */
  add(record: Observation): void {
    if (record.type === 'phase') return this.addPhase(record);
    if (record.type !== 'object') return;
    const map = record.kind === 'Node' ? this.nodes : record.kind === 'Pod' ? this.pods : record.kind === 'Lease' && (record.namespace === undefined || record.namespace === 'kube-node-lease') ? this.leases : null;
    if (map === null) return;
    const id = record.kind === 'Pod' ? record.uid : record.name;
    if (record.verb === 'DELETED') map.delete(id);
    else map.set(id, record);
  }

  private addPhase(marker: PhaseObservation): void {
    this.host = hostLoadOf(marker) ?? this.host;
    if (marker.phase === 'workloads-ready' && marker.nodes && marker.nodes.length > 0) this.targets = [...marker.nodes];
  }

  /**
   * The state at `atMs` (Unix epoch milliseconds, client clock): time zero, or the forecast's instant, taken as time
   * zero up to `leadSeconds` (≥ 0) later. Heartbeat instants are seconds relative to `atMs` (server timestamps).
   */
  state(atMs: number, leadSeconds: number): PreFaultState {
    const nodes: PreFaultNode[] = [...this.nodes.values()].map((r) => {
      const labels = (get(r.object, 'metadata', 'labels') as Record<string, string> | undefined) ?? {};
      const lease = this.leases.get(r.name);
      const renewal = lease ? renewTime(lease.object) : null;
      const heartbeat = (condition(r.object, 'Ready') as { lastHeartbeatTime?: string } | null)?.lastHeartbeatTime ?? null;
      const since = (t: string | null) => (t === null || Number.isNaN(Date.parse(t)) ? null : Math.round(Date.parse(t) - atMs) / 1000);
      const kubelet = get(r.object, 'status', 'nodeInfo', 'kubeletVersion');
      return {
        name: r.name, labels, controlPlane: CONTROL_PLANE_LABEL in labels, lastLeaseRenewSeconds: since(renewal), lastStatusPostSeconds: since(heartbeat),
        ...(typeof kubelet === 'string' && kubelet !== '' ? { kubeletVersion: kubelet } : {}),
      };
    }).sort((a, b) => a.name.localeCompare(b.name));
    const pods: PreFaultPod[] = [];
    for (const r of this.pods.values()) {
      const node = get(r.object, 'spec', 'nodeName');
      if (typeof node !== 'string' || node === '' || get(r.object, 'metadata', 'deletionTimestamp') !== undefined) continue;
      const phase = get(r.object, 'status', 'phase');
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const owner = (get(r.object, 'metadata', 'ownerReferences') as { kind?: string; controller?: boolean }[] | undefined)?.find((o) => o.controller === true);
      pods.push({
        namespace: r.namespace ?? 'default', name: r.name, workload: this.workloadOf(r), ownerKind: owner?.kind ?? null, node,
        tolerations: (get(r.object, 'spec', 'tolerations') as Toleration[] | undefined) ?? [],
        ...startedOf(r.object, atMs),
        ...numberField('priority', get(r.object, 'spec', 'priority')),
        ...numberField('terminationGracePeriodSeconds', get(r.object, 'spec', 'terminationGracePeriodSeconds')),
      });
    }
    pods.sort((a, b) => a.node.localeCompare(b.node) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
    return { source: 'journal', nodes, targets: [...this.targets], pods, leadSeconds, host: this.host };
  }
}

/** `{ [key]: value }` when the record holds a number there, `{}` otherwise (a journal written before the field was kept). */
function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}

/** `{ startedSeconds }`: the latest running container's startedAt, seconds relative to `atMs` (Unix epoch ms); `{}` when none is running. */
function startedOf(pod: Record<string, unknown>, atMs: number): { startedSeconds?: number } {
  const statuses = (get(pod, 'status', 'containerStatuses') as { state?: { running?: { startedAt?: string } } }[] | undefined) ?? [];
  const started = statuses.map((c) => Date.parse(c.state?.running?.startedAt ?? '')).filter((t) => !Number.isNaN(t));
  return started.length === 0 ? {} : { startedSeconds: Math.round(Math.max(...started) - atMs) / 1000 };
}

/**
 * The pre-fault state of a finished journal: every record before its time zero (the first `fault-injecting` marker,
 * else the first `fault-injected`) fed to a PreFaultRecorder, read at that marker's instant (lead 0). Reads no
 * record after the marker; null when the journal has no fault marker.
 */
export function preFaultStateOfJournal(observations: readonly Observation[], workloads: readonly WorkloadRef[] = []): PreFaultState | null {
  const sorted = [...observations].sort((a, b) => a.seq - b.seq);
  const zero = sorted.find((o) => o.type === 'phase' && o.phase === 'fault-injecting') ?? sorted.find((o) => o.type === 'phase' && o.phase === 'fault-injected');
  if (!zero) return null;
  const recorder = new PreFaultRecorder(workloads);
  for (const o of sorted) {
    if (o.seq >= zero.seq) break;
    recorder.add(o);
  }
  return recorder.state(zero.receivedAtMs, 0);
}
