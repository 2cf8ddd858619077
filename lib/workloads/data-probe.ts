// The data probe: a random marker written to a workload's /data volume before the fault and read after,
// through the pod exec API, telling whether the data survived.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { CoreV1Api, Exec, type KubeConfig, type V1Status } from '@kubernetes/client-node';
import { apiError } from '../cluster/kube-client.js';
import { CONTAINER_NAME, DATA_MOUNT_PATH, WORKLOAD_LABEL, WORKLOAD_NAMESPACE } from './pod-template.js';

/** File the marker is written to inside the volume. */
export const MARKER_PATH = `${DATA_MOUNT_PATH}/.rebootlab-marker`;

/** What the probe found: the marker itself, a volume without it, or no pod that could be asked. */
export type DataProbeOutcome = 'kept' | 'lost' | 'unreadable';

/** Result of reading the marker of one workload after the fault. */
export interface DataProbeResult {
  workload: string;
  marker: string;
  outcome: DataProbeOutcome;
  /** Per pod: what was found, or the error that made it unreadable. */
  pods: { pod: string; node: string; outcome: DataProbeOutcome; error?: string }[];
}

/** Exec timeout, milliseconds. */
const EXEC_TIMEOUT_MS = 15_000;

// Commands use shell builtins only (echo, read): the workload image promises /bin/sh, not coreutils.
/** Runs a command in the workload container and resolves to its stdout and whether it exited 0. */
async function execIn(kc: KubeConfig, pod: string, command: string[]): Promise<{ ok: boolean; stdout: string; message: string }> {
  let stdout = '';
  const sink = new Writable({ write(chunk, _enc, next) { stdout += chunk.toString(); next(); } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`exec timed out after ${EXEC_TIMEOUT_MS} ms`)), EXEC_TIMEOUT_MS);
    new Exec(kc)
      .exec(WORKLOAD_NAMESPACE, pod, CONTAINER_NAME, command, sink, null, null, false, (status: V1Status) => {
        clearTimeout(timer);
        resolve({ ok: status.status === 'Success', stdout, message: status.message ?? '' });
      })
      .then((ws) => ws.on('error', (e: Error) => { clearTimeout(timer); reject(e); }))
      .catch((error: unknown) => { clearTimeout(timer); reject(error); });
  });
}

async function runningPods(kc: KubeConfig, workload: string): Promise<{ name: string; node: string }[]> {
  try {
    const list = await kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: WORKLOAD_NAMESPACE, labelSelector: `${WORKLOAD_LABEL}=${workload}` });
    return list.items
      .filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
      .map((p) => ({ name: p.metadata!.name!, node: p.spec?.nodeName ?? '' }));
  } catch (error) {
    throw apiError(`list pods of workload ${workload}`, error);
  }
}

/**
 * Writes a new random marker to /data/.rebootlab-marker in every running pod of `workload` and resolves
 * to it. @throws InfraError when no pod is running or a write fails.
 */
export async function writeDataMarker(kc: KubeConfig, workload: string): Promise<string> {
  const marker = `rebootlab-${randomBytes(8).toString('hex')}`;
  const pods = await runningPods(kc, workload);
  if (pods.length === 0) throw apiError(`write data marker for ${workload}`, new Error('no running pod'));
  for (const pod of pods) {
    const result = await execIn(kc, pod.name, ['/bin/sh', '-c', `echo ${marker} > ${MARKER_PATH} && { sync 2>/dev/null || true; }`]).catch((e: Error) => ({ ok: false, stdout: '', message: e.message }));
    if (!result.ok) throw apiError(`write data marker in pod ${pod.name}`, new Error(result.message));
  }
  return marker;
}

/**
 * Reads the marker from every running pod of `workload` (replacements included): `kept` when every pod
 * that answered has it, `lost` when one that answered has not, `unreadable` when no pod answered.
 * @throws InfraError only when the pods cannot be listed.
 */
export async function readDataMarker(kc: KubeConfig, workload: string, marker: string): Promise<DataProbeResult> {
  const pods = await runningPods(kc, workload);
  const results: DataProbeResult['pods'] = [];
  for (const pod of pods) {
    try {
      const r = await execIn(kc, pod.name, ['/bin/sh', '-c', `read -r line < ${MARKER_PATH} 2>/dev/null && echo "$line" || true`]);
      if (!r.ok) results.push({ pod: pod.name, node: pod.node, outcome: 'unreadable', error: r.message });
      else results.push({ pod: pod.name, node: pod.node, outcome: r.stdout.trim() === marker ? 'kept' : 'lost' });
    } catch (error) {
      results.push({ pod: pod.name, node: pod.node, outcome: 'unreadable', error: (error as Error).message });
    }
  }
  const answered = results.filter((r) => r.outcome !== 'unreadable');
  const outcome: DataProbeOutcome = answered.length === 0 ? 'unreadable' : answered.every((r) => r.outcome === 'kept') ? 'kept' : 'lost';
  return { workload, marker, outcome, pods: results };
}
