// kwok tier: real etcd, kube-apiserver, kube-controller-manager and kube-scheduler with 4 simulated workers
// and tuned timeouts. One node loses its heartbeats: it must go Unknown inside the predicted window, get the
// unreachable NoExecute taint, and its pods must be deleted tolerationSeconds later and replaced elsewhere.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { createKwokProvider, type KwokCluster } from '../../../lib/cluster/kwok/index.js';
import { STOPPED_NODE_POLICY } from '../../../lib/cluster/kwok/heartbeat-guard.js';
import type { Undo } from '../../../lib/cluster/provider.js';
import { detectionWindowFromSilence } from '../../../lib/analyze/index.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import type { ClusterSpec } from '../../../lib/spec/types.js';
import { collectionOf } from '../../../lib/cluster/watch-list.js';
import { describeNodes, describePods, hasTaint, podServing, readyStatus, Recorder, secondsBetween, taintAddedAtMs } from './recorder.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../lib/common/versions.js';

const NS = 'kwok-it';
const REPLICAS = 8;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

function tunedSpec(): ClusterSpec {
  const settings = structuredClone(DEFAULT_TIMEOUT_SETTINGS);
  settings.controllerManager.nodeMonitorGracePeriodMs = 20_000;
  settings.apiServer.defaultNotReadyTolerationSeconds = 30;
  settings.apiServer.defaultUnreachableTolerationSeconds = 30;
  settings.kubelet.nodeLeaseDurationSeconds = 20;
  return {
    provider: 'kwok', name: 'kwok-it', kubernetesVersion: DEFAULT_KUBERNETES_VERSION, nodeImage: null, workers: 4, zones: ['zone-a'], workerLabels: {},
    settings, extraArgs: { controllerManager: {}, apiServer: {}, scheduler: {} }, kubeletExtraConfig: {}, kubeletFieldsSet: [], existing: null,
  };
}

describe('kwok: heartbeat loss on one of 4 simulated nodes (grace 20 s, lease 20 s, tolerations 30 s)', function () {
  this.timeout(150_000);
  const spec = tunedSpec();
  let dir = '';
  let provider: ReturnType<typeof createKwokProvider>;
  const kc = new k8s.KubeConfig();
  let cluster: KwokCluster;
  let nodes: Recorder<k8s.V1Node>;
  let pods: Recorder<k8s.V1Pod>;
  let target = '';
  let actedAtMs = 0;
  let undo: Undo | undefined;
  const onTarget = (p: k8s.V1Pod) => p.spec?.nodeName === target;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-kwok-it-'));
    provider = createKwokProvider({ clusterDir: dir });
    const startedAtMs = performance.now();
    cluster = (await provider.create(spec, { step: () => {} })) as KwokCluster;
    console.log(`      kwok cluster with ${spec.workers} workers up in ${((performance.now() - startedAtMs) / 1000).toFixed(1)} s`);
    kc.loadFromFile(cluster.kubeconfigPath);
    nodes = new Recorder(kc, collectionOf(kc, 'Node'));
    pods = new Recorder(kc, collectionOf(kc, 'Pod', { namespace: NS }));
    await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
    await Promise.all([nodes.start(), pods.start()]);
    const labels = { app: 'web' };
    await kc.makeApiClient(k8s.AppsV1Api).createNamespacedDeployment({
      namespace: NS,
      body: {
        metadata: { name: 'web' },
        spec: { replicas: REPLICAS, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'fake' }] } } },
      },
    });
    await pods.until(`${REPLICAS} web pods Ready`, (m) => [...m.values()].filter(podServing).length === REPLICAS, 60_000, describePods);
  });

  after(async function () {
    nodes?.stop();
    pods?.stop();
    await undo?.().catch(() => {});
    await provider?.delete(spec.name);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the Deployment on simulated workers only, Running and Ready', function () {
    const running = [...pods.objects.values()];
    expect(running.every((p) => p.status?.phase === 'Running')).to.equal(true);
    expect(running.some((p) => p.spec?.nodeName === `${spec.name}-control-plane`)).to.equal(false);
  });

  it('reads back the settings in effect from the running processes and kwok\'s stages', async function () {
    const effective = await cluster.effectiveSettings();
    expect(effective.missing).to.deep.equal([]);
    expect(effective.settings).to.deep.equal(spec.settings);
    expect(effective.controllerManagerFlags['node-monitor-grace-period']).to.equal('20s');
  });

  it('marks the node Unknown inside [grace − lease renew interval, grace + monitor period] and taints it NoExecute', async function () {
    const counts = new Map<string, number>();
    for (const p of pods.objects.values()) counts.set(p.spec!.nodeName!, (counts.get(p.spec!.nodeName!) ?? 0) + 1);
    target = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    undo = await cluster.act(target, 'stop-heartbeat', { afterAct: (r) => (actedAtMs = r.actedAtMs!) });
    const unknownAtMs = await nodes.until(`${target} Ready=Unknown`, (m) => readyStatus(m.get(target)) === 'Unknown', 60_000);
    const taintedAtMs = await nodes.until(`${target} unreachable:NoExecute`, (m) => hasTaint(m.get(target), UNREACHABLE), 30_000);
    // The last heartbeat happened at most one heartbeat interval before the heartbeat stopped; detection follows it
    // (the window the forecast, the causal model and the run loop share: lib/analyze/windows.ts).
    const window = detectionWindowFromSilence(spec.settings);
    const detectedSeconds = secondsBetween(actedAtMs, unknownAtMs);
    console.log(`      ${target}: Unknown after ${detectedSeconds} s (predicted [${window.fromSeconds}, ${window.toSeconds}]), unreachable:NoExecute after ${secondsBetween(actedAtMs, taintedAtMs)} s`);
    expect(detectedSeconds).to.be.within(window.fromSeconds, window.toSeconds);
    expect(secondsBetween(unknownAtMs, taintedAtMs)).to.be.below(spec.settings.controllerManager.nodeMonitorPeriodMs / 1000 + 1);
  });

  it('refuses a status heartbeat on the stopped node (kwok v0.7\'s stale stage jobs), not the controller\'s Unknown write', async function () {
    // The controller's write went through: the node is Unknown (previous test). A stale kwok job posts the Ready
    // condition with a fresh lastHeartbeatTime, as this patch does.
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const ready = nodes.objects.get(target)!.status!.conditions!.find((c) => c.type === 'Ready')!;
    const heartbeat = { ...ready, status: 'True', reason: 'KubeletReady', lastHeartbeatTime: new Date() };
    const error = await core.patchNodeStatus({ name: target, body: { status: { conditions: [heartbeat] } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch))
      .then(() => null, (e: unknown) => e);
    expect(error, 'the heartbeat was accepted').to.not.equal(null);
    expect(String((error as { body?: unknown }).body ?? error)).to.include(STOPPED_NODE_POLICY);
    expect(readyStatus((await core.readNode({ name: target })))).to.equal('Unknown');
  });

  it('deletes the pods on the node tolerationSeconds (30 s) after the taint and replaces them on other nodes', async function () {
    const victims = [...pods.objects.values()].filter(onTarget).map((p) => p.metadata!.name!);
    expect(victims.length).to.be.greaterThan(0);
    const deletedAtMs = await pods.until('pods on the target get a deletionTimestamp', (m) => victims.every((v) => m.get(v)?.metadata?.deletionTimestamp), 60_000, describePods);
    await pods.until(`${REPLICAS} serving pods off the target`, (m) => [...m.values()].filter((p) => podServing(p) && !onTarget(p)).length === REPLICAS, 30_000, describePods);
    const replacedAtMs = Date.now();
    const taintAtMs = taintAddedAtMs(nodes.objects.get(target), UNREACHABLE)!;
    const afterTaintSeconds = secondsBetween(taintAtMs, deletedAtMs);
    console.log(`      ${victims.length} pods deleted ${secondsBetween(actedAtMs, deletedAtMs)} s after the heartbeat stop (${afterTaintSeconds} s after the taint's timeAdded), all replaced by ${secondsBetween(actedAtMs, replacedAtMs)} s`);
    // timeAdded has 1 s resolution (server clock, RFC 3339 seconds); the taint manager fires at timeAdded + 30 s.
    expect(afterTaintSeconds).to.be.within(29, 33);
  });

  it('force-deletes the stuck Terminating pods once the out-of-service taint is added', async function () {
    const stuck = [...pods.objects.values()].filter(onTarget).map((p) => p.metadata!.name!);
    const undoTaint = await cluster.act(target, 'taint-out-of-service');
    const taintedAtMs = Date.now();
    await nodes.until('out-of-service taint visible', (m) => hasTaint(m.get(target), OUT_OF_SERVICE), 10_000);
    expect(hasTaint(nodes.objects.get(target), UNREACHABLE), 'the controller\'s unreachable taint is kept').to.equal(true);
    // Pod garbage collection removes terminating pods on out-of-service nodes (KEP-2268) every 20 s (gcCheckPeriod).
    const goneAtMs = await pods.until('Terminating pods removed', (m) => stuck.every((name) => !m.has(name)), 45_000, describePods);
    console.log(`      ${stuck.length} Terminating pods removed ${secondsBetween(taintedAtMs, goneAtMs)} s after the out-of-service taint`);
    await undoTaint();
    await nodes.until('out-of-service taint removed', (m) => !hasTaint(m.get(target), OUT_OF_SERVICE), 10_000);
    expect(hasTaint(nodes.objects.get(target), UNREACHABLE)).to.equal(true);
  });

  it('brings the node back to Ready when heartbeats resume, and re-creates a deleted Node object on undo', async function () {
    const restartAtMs = Date.now();
    await undo!();
    await nodes.until(`${target} Ready again`, (m) => readyStatus(m.get(target)) === 'True', 20_000);
    const readyAtMs = Date.now();
    // kwok's Ready=True reaches the API at once, but the node lifecycle controller takes it into its own node health
    // only at its next monitor pass (monitorNodeHealth, every node-monitor-period); until then processPod marks any
    // pod bound to the node NotReady (nodelifecycle processPod, v1.37.2), and kwok, having no kubelet status manager,
    // never makes it Ready again. The controller removes the unreachable NoExecute taint in that same pass.
    const reachableAtMs = await nodes.until(`${target} unreachable taint removed by the controller`, (m) => !hasTaint(m.get(target), UNREACHABLE), spec.settings.controllerManager.nodeMonitorPeriodMs + 10_000, describeNodes);
    const victim = `${spec.name}-worker`;
    const undoDelete = await cluster.act(victim, 'delete-node-object');
    await nodes.until(`${victim} deleted`, (m) => !m.has(victim), 10_000);
    await undoDelete();
    await nodes.until(`${victim} re-registered and Ready`, (m) => readyStatus(m.get(victim)) === 'True', 20_000);
    console.log(`      ${target} Ready ${secondsBetween(restartAtMs, readyAtMs)} s after heartbeats resumed, reachable for the controller after ${secondsBetween(restartAtMs, reachableAtMs)} s; ${victim} deleted and re-created`);
    expect(secondsBetween(readyAtMs, reachableAtMs)).to.be.at.most(spec.settings.controllerManager.nodeMonitorPeriodMs / 1000 + 1);
    expect((await cluster.nodes()).map((n) => n.state)).to.not.include('heartbeat-stopped');
  });

  it('cordon marks a node unschedulable (undo uncordons); force-delete-pods removes its pods at once and the Deployment replaces them', async function () {
    const victim = [...pods.objects.values()].find(podServing)!.spec!.nodeName!;
    const undoCordon = await cluster.act(victim, 'cordon');
    await nodes.until(`${victim} cordoned`, (m) => m.get(victim)?.spec?.unschedulable === true, 10_000);
    // The scheduler watches nodes on its own: a pod pinned to the victim by nodeSelector is refused as unschedulable
    // only once the scheduler's cache has the cordon, so replacements created after that cannot land there.
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const refused = (p: k8s.V1Pod | undefined) => p?.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && /unschedulable/.test(c.message ?? '')) ?? false;
    for (let attempt = 1; ; attempt += 1) {
      const probe = `cordon-seen-by-scheduler-${attempt}`;
      await core.createNamespacedPod({ namespace: NS, body: { metadata: { name: probe }, spec: { nodeSelector: { 'kubernetes.io/hostname': victim }, containers: [{ name: 'probe', image: 'fake' }] } } });
      await pods.until(`${probe} refused or bound`, (m) => refused(m.get(probe)) || !!m.get(probe)?.spec?.nodeName, 10_000, describePods);
      const seen = refused(pods.objects.get(probe));
      await core.deleteNamespacedPod({ name: probe, namespace: NS, gracePeriodSeconds: 0 });
      await pods.until(`${probe} gone`, (m) => !m.has(probe), 10_000, describePods);
      if (seen) break;
      expect(attempt, 'the scheduler still binds pods to the cordoned node').to.be.below(5);
    }
    const onVictim = [...pods.objects.values()].filter((p) => p.spec?.nodeName === victim).map((p) => p.metadata!.name!);
    expect(onVictim.length, `pods on ${victim}`).to.be.greaterThan(0);
    const deletingAtMs = Date.now();
    await cluster.act(victim, 'force-delete-pods');
    const goneAtMs = await pods.until(`pods on ${victim} removed`, (m) => onVictim.every((name) => !m.has(name)), 10_000, describePods);
    await pods.until(`${REPLICAS} serving pods, none on the cordoned ${victim}`, (m) => [...m.values()].filter((p) => podServing(p) && p.spec?.nodeName !== victim).length === REPLICAS, 30_000, (m) => `${describePods(m)}; nodes: ${describeNodes(nodes.objects)}`);
    console.log(`      ${onVictim.length} pods force-deleted from ${victim} in ${secondsBetween(deletingAtMs, goneAtMs)} s and replaced elsewhere`);
    await undoCordon();
    await nodes.until(`${victim} uncordoned`, (m) => !m.get(victim)?.spec?.unschedulable, 10_000);
  });
});
