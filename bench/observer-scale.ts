// Benchmark: a kwok cluster of 1000 simulated nodes and a 10,000-pod Deployment, watched by rebootlab's
// observer. Prints figures (cluster start time, events per second, dropped events, gaps, peak RSS, event-loop
// delay); asserts nothing: timings depend on the machine.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as k8s from '@kubernetes/client-node';
import { createKwokProvider } from '../lib/cluster/kwok/index.js';
import { openJournal, readJournal, startObserver } from '../lib/observe/index.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../lib/spec/settings.js';
import type { ClusterSpec } from '../lib/spec/types.js';
import { DEFAULT_KUBERNETES_VERSION } from '../lib/common/versions.js';

/** Options of {@link benchObserverScale}. */
export interface ObserverScaleOptions {
  /** Simulated workers; default 1000. */
  nodes: number;
  /** Pods of the one Deployment; default 10,000. */
  pods: number;
  /** Zones assigned round-robin; default 10. */
  zones: number;
}

/** What {@link benchObserverScale} measured. Durations in seconds, sizes in bytes. */
export interface ObserverScaleFigures {
  nodes: number;
  pods: number;
  clusterStartSeconds: number;
  observerSyncSeconds: number;
  /** From creating the Deployment until the observer saw every pod Ready. */
  rolloutSeconds: number;
  journalRecords: number;
  eventsPerSecond: number;
  /** Pods whose state in an API list after the rollout the observer had not journaled 30 s later. */
  droppedEvents: number;
  gaps: number;
  journalBytes: number;
  peakRssBytes: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

const NS = 'bench';

function benchSpec(o: ObserverScaleOptions): ClusterSpec {
  return {
    provider: 'kwok', name: 'rebootlab-bench', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: o.nodes,
    zones: Array.from({ length: o.zones }, (_, i) => `zone-${i}`), workerLabels: {}, settings: structuredClone(DEFAULT_TIMEOUT_SETTINGS),
    extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
}

const isReady = (o: Record<string, unknown>) =>
  ((o['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * Runs the benchmark and returns its figures; the cluster and journal are deleted afterwards.
 * @throws InfraError when the toolchain is missing or the cluster cannot start.
 */
export async function benchObserverScale(o: ObserverScaleOptions, log: (line: string) => void): Promise<ObserverScaleFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-bench-'));
  const provider = createKwokProvider({ clusterDir: dir, unlimitedQps: true, createTimeoutMs: 900_000 });
  const spec = benchSpec(o);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  try {
    let t0 = performance.now();
    const cluster = await provider.create(spec, { step: (m) => log(`  ${m}`) });
    const clusterStartSeconds = (performance.now() - t0) / 1000;
    log(`  cluster of ${o.nodes} workers ready in ${clusterStartSeconds.toFixed(1)} s`);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });

    const journalPath = join(dir, 'observations.jsonl');
    const journal = openJournal(journalPath);
    let readyPods = 0;
    const readyUids = new Set<string>();
    /** uid → last resourceVersion the observer journaled, to compare with the API server's list. */
    const lastSeen = new Map<string, string>();
    const appendObject = journal.appendObject.bind(journal);
    // Count Ready pods as the observer journals them: the rollout is over when the observer has seen it.
    journal.appendObject = (record) => {
      if (record.kind === 'Pod') lastSeen.set(record.uid, record.resourceVersion);
      if (record.kind === 'Pod' && record.verb !== 'DELETED' && isReady(record.object) && !readyUids.has(record.uid)) {
        readyUids.add(record.uid);
        readyPods++;
      }
      return appendObject(record);
    };
    loopDelay.enable();
    t0 = performance.now();
    const observer = await startObserver({ kubeconfigPath: cluster.kubeconfigPath, journal, namespaces: [NS], log: (level, m) => log(`  observer ${level}: ${m}`) });
    await observer.synced;
    const observerSyncSeconds = (performance.now() - t0) / 1000;
    const recordsBefore = journal.count;

    t0 = performance.now();
    const labels = { app: 'bench' };
    await kc.makeApiClient(k8s.AppsV1Api).createNamespacedDeployment({
      namespace: NS,
      body: { metadata: { name: 'bench' }, spec: { replicas: o.pods, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'fake' }] } } } },
    });
    while (readyPods < o.pods) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if ((performance.now() - t0) / 1000 > 900) throw new Error(`only ${readyPods} of ${o.pods} pods Ready after 900 s`);
    }
    const rolloutSeconds = (performance.now() - t0) / 1000;
    const journalRecords = journal.count - recordsBefore;
    // A pod whose state the API server lists but the observer never journals (within 30 s) is a dropped event.
    const truth = (await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: NS })).items;
    const behind = () => truth.filter((p) => lastSeen.get(p.metadata!.uid!) !== p.metadata!.resourceVersion && Number(lastSeen.get(p.metadata!.uid!) ?? 0) < Number(p.metadata!.resourceVersion));
    for (let waitedMs = 0; behind().length > 0 && waitedMs < 30_000; waitedMs += 500) await new Promise((resolve) => setTimeout(resolve, 500));
    const droppedEvents = behind().length;
    loopDelay.disable();
    await observer.stop();
    journal.close();
    const gaps = readJournal(journalPath).filter((r) => r.type === 'gap').length;
    return {
      nodes: o.nodes, pods: o.pods, clusterStartSeconds, observerSyncSeconds, rolloutSeconds, journalRecords,
      eventsPerSecond: journalRecords / rolloutSeconds, droppedEvents, gaps, journalBytes: statSync(journalPath).size,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6, eventLoopDelayMaxMs: loopDelay.max / 1e6,
    };
  } finally {
    await provider.delete(spec.name);
    rmSync(dir, { recursive: true, force: true });
  }
}
