// The traffic prober under load (issue 13): its memory at 50 requests/s, alone in a process, and whether the
// observer, watching a kwok cluster through a rollout in the same process as a 50/s prober, records any watch gap.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { buildProbeSummaries } from '../lib/analyze/index.js';
import { createKwokProvider } from '../lib/cluster/kwok/index.js';
import { openJournal, readJournal, startObserver, startProber } from '../lib/observe/index.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../lib/spec/settings.js';
import type { ClusterSpec } from '../lib/spec/types.js';
import { DEFAULT_KUBERNETES_VERSION } from '../lib/common/versions.js';

/** What {@link benchProberLoad} measured; sizes in bytes. */
export interface ProberLoadFigures {
  ratePerSecond: number;
  seconds: number;
  /** The prober alone in a child process. */
  alone: { sent: number; records: number; lostRecords: number | null; stalls: number; baselineRssBytes: number; peakRssBytes: number };
  /** Observer (kwok cluster, rollout of `pods` pods) and prober in one process. */
  withObserver: { sent: number; records: number; lostRecords: number | null; stalls: number; watchGaps: number; objectRecords: number };
}

/** A loopback server answering as the workload server does (`pod=<name>`), so the prober's records carry a pod. */
async function workloadServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.end('pod=bench-0 startedAt=2026-12-01T00:00:00Z\n'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

function summary(path: string, sent: number) {
  const observations = readJournal(path);
  const [probe] = buildProbeSummaries(observations, observations[0]!.receivedAtMs, null);
  return { sent, records: probe?.sent ?? 0, lostRecords: probe?.lostRecords ?? null, stalls: probe?.gaps.length ?? 0, observations };
}

/**
 * Runs both parts for `seconds` each at `ratePerSecond` and returns the figures; the cluster and files are removed.
 * @throws InfraError when the kwok toolchain is missing.
 */
export async function benchProberLoad(o: { ratePerSecond: number; seconds: number; nodes: number; pods: number }, log: (line: string) => void): Promise<ProberLoadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-bench-prober-'));
  const server = await workloadServer();
  const provider = createKwokProvider({ clusterDir: dir, unlimitedQps: true, createTimeoutMs: 600_000 });
  const spec: ClusterSpec = {
    provider: 'kwok', name: 'rebootlab-bench-prober', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: o.nodes, zones: [], workerLabels: {},
    settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS), extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
  try {
    // 1. The prober alone in a child process: its memory is that process's.
    const alonePath = join(dir, 'alone.jsonl');
    const child = fork(fileURLToPath(new URL('./prober-child.js', import.meta.url)), [server.url, String(o.ratePerSecond), String(o.seconds), alonePath], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((r) => child.on('exit', r));
    const childFigures = JSON.parse(out.trim()) as { sent: number; baselineRssBytes: number; peakRssBytes: number };
    const { observations: _a, ...aloneSummary } = summary(alonePath, childFigures.sent);
    const alone = { ...aloneSummary, baselineRssBytes: childFigures.baselineRssBytes, peakRssBytes: childFigures.peakRssBytes };
    log(`  prober alone: ${alone.sent} sent, ${alone.records} recorded`);

    // 2. Observer and prober in one process, while a Deployment rolls out on a kwok cluster.
    const cluster = await provider.create(spec, { step: (m) => log(`  ${m}`) });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: 'bench' } } });
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const observer = await startObserver({ kubeconfigPath: cluster.kubeconfigPath, journal, namespaces: ['bench'] });
    await observer.synced;
    const prober = startProber(journal, { name: 'bench', url: server.url, ratePerSecond: o.ratePerSecond, timeoutMs: 1_000 });
    const labels = { app: 'bench' };
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: 'bench', body: { metadata: { name: 'bench' }, spec: { replicas: o.pods, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'fake' }] } } } } });
    // Halfway, scale to zero: a second burst of pod events while the prober keeps sending.
    await new Promise((r) => setTimeout(r, (o.seconds * 1000) / 2));
    await apps.patchNamespacedDeploymentScale({ name: 'bench', namespace: 'bench', body: { spec: { replicas: 0 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await new Promise((r) => setTimeout(r, (o.seconds * 1000) / 2));
    await prober.stop();
    await observer.stop();
    journal.close();
    const s = summary(path, prober.sent);
    return {
      ratePerSecond: o.ratePerSecond, seconds: o.seconds, alone,
      withObserver: { sent: s.sent, records: s.records, lostRecords: s.lostRecords, stalls: s.stalls, watchGaps: s.observations.filter((r) => r.type === 'gap').length, objectRecords: s.observations.filter((r) => r.type === 'object').length },
    };
  } finally {
    await provider.delete(spec.name).catch(() => undefined);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
