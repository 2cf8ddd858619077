// kwok tier at scale: one zone of 100 simulated workers, 10 of them lose heartbeats at once. The zone stays
// Normal (10% < --unhealthy-zone-threshold 55%), so the node lifecycle controller taints them NoExecute at
// --node-eviction-rate 0.1 nodes/s: one every 10 s. About 2.5 minutes: runs only under `npm run test:slow`.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { createKwokProvider, type KwokCluster } from '../../../lib/cluster/kwok/index.js';
import type { Undo } from '../../../lib/cluster/provider.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';
import { collectionOf } from '../../../lib/cluster/watch-list.js';
import { hasTaint, Recorder, secondsBetween, taintAddedAtMs } from './recorder.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/common/versions.js';

const WORKERS = 100;
const SILENCED = 10;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const slow = process.env['REBOOTLAB_SLOW'] === '1';

function largeZoneSpec(): ClusterSpec {
  const settings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  settings.kubelet.nodeLeaseDurationSeconds = 20;
  return {
    provider: 'kwok', name: 'kwok-rate', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: WORKERS, zones: ['zone-a'], workerLabels: {},
    settings, extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
}

(slow ? describe : describe.skip)(`kwok: ${SILENCED} of ${WORKERS} nodes in one zone lose heartbeats (slow: REBOOTLAB_SLOW=1)`, function () {
  this.timeout(240_000);
  const spec = largeZoneSpec();
  let dir = '';
  let provider: ReturnType<typeof createKwokProvider>;
  const undos: Undo[] = [];
  let nodes: Recorder<k8s.V1Node>;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-kwok-rate-'));
    provider = createKwokProvider({ clusterDir: dir });
    const startedAtMs = performance.now();
    const cluster = (await provider.create(spec, { step: () => {} })) as KwokCluster;
    console.log(`      kwok cluster with ${WORKERS} workers up in ${((performance.now() - startedAtMs) / 1000).toFixed(1)} s`);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    nodes = new Recorder(kc, collectionOf(kc, 'Node'));
    await nodes.start();
    const targets = (await cluster.nodes()).filter((n) => n.role === 'worker').slice(0, SILENCED).map((n) => n.name);
    for (const node of targets) undos.push(await cluster.act(node, 'stop-heartbeat'));
  });

  after(async function () {
    nodes?.stop();
    for (const undo of undos) await undo().catch(() => {});
    await provider?.delete(spec.name);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('taints them NoExecute one every 10 s (node-eviction-rate 0.1 nodes/s, within 10%)', async function () {
    const firstSeenMs = new Map<string, number>();
    const record = (m: Map<string, k8s.V1Node>) => {
      for (const [name, node] of m) if (hasTaint(node, UNREACHABLE) && !firstSeenMs.has(name)) firstSeenMs.set(name, Date.now());
      return firstSeenMs.size >= SILENCED;
    };
    await nodes.until(`${SILENCED} nodes tainted ${UNREACHABLE}:NoExecute`, record, 200_000);
    const seen = [...firstSeenMs.values()].sort((a, b) => a - b);
    const added = [...firstSeenMs.keys()].map((n) => taintAddedAtMs(nodes.objects.get(n), UNREACHABLE)!).sort((a, b) => a - b);
    const rate = (SILENCED - 1) / (secondsBetween(seen[0]!, seen[seen.length - 1]!));
    const rateByTimeAdded = (SILENCED - 1) / (secondsBetween(added[0]!, added[added.length - 1]!));
    const gaps = seen.slice(1).map((t, i) => secondsBetween(seen[i]!, t));
    console.log(`      taint pacing ${rate.toFixed(4)} nodes/s by watch receipt, ${rateByTimeAdded.toFixed(4)} by timeAdded (expected 0.1); gaps ${gaps.join(', ')} s`);
    expect(rate).to.be.within(0.09, 0.11);
    expect(firstSeenMs.size).to.equal(SILENCED);
  });
});
