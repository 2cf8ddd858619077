// Tests for lib/analyze/endpoint-timeline.ts and lib/analyze/events.ts: recorded kind journals (real EndpointSlices
// and Events) and slices built in the discovery.k8s.io/v1 EndpointSlice shape for the cases no recording has.
import { expect } from 'chai';
import { analyze } from '../../../lib/analyze/analyze.js';
import { evaluateExpectations } from '../../../lib/analyze/expect.js';
import { toEventRecord } from '../../../lib/analyze/events.js';
import type { ObjectObservation, Observation } from '../../../lib/observe/types.js';
import { parseExpectation, type Expectation } from '../../../lib/spec/expectation.js';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../../lib/spec/settings.js';
import { loadFixtureRun } from './fixture-runs.js';

const parse = (text: string): Expectation => {
  const parsed = parseExpectation(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.expectation;
};

describe('analyze/endpoint-timeline on a recorded kind run (StatefulSet db behind its headless Service)', () => {
  // kind-sts-force-delete-recorded: v1.34.4, grace 20 s, tolerations 30 s, the worker with db-0 and web powered off;
  // a force-delete-pods step removed db-0 60 s after docker stop returned (61.858 s after time zero: the command took 1.858 s). run.json predates serviceName, so the test names the Service
  // the StatefulSet had (lib/workloads renderService: headless, named after the workload).
  const run = loadFixtureRun('kind-sts-force-delete-recorded');
  const workloads = run.info.workloads.map((w) => (w.kind === 'StatefulSet' ? { ...w, serviceName: w.name } : w));
  const analysis = analyze(run.observations, { settings: run.info.settings, workloads });
  const db = analysis.pods.find((p) => p.name === 'db-0')!;
  const node = analysis.nodes.find((n) => n.faultTarget)!;

  it('the endpoint stops being ready when the node lifecycle controller marks the pod NotReady', () => {
    expect(db.endpointReadyAtFault).to.equal(true);
    expect(db.endpointNotReadyAfterSeconds).to.equal(20.351);
    // Node Ready→Unknown at 20.162 s (server lastTransitionTime, 1 s resolution); the slice follows within a second.
    expect(db.endpointNotReadyAfterSeconds! - node.notReadyAfterSeconds!).to.be.within(0, 1);
  });

  it('turns terminating at the taint eviction, is removed at the pod deletion, and is ready again with the replacement', () => {
    expect(db.endpointTerminatingAfterSeconds).to.equal(50.384);
    expect(db.endpointTerminatingAfterSeconds! - db.evictedAfterSeconds!).to.be.within(0, 0.5);
    expect(db.endpointRemovedAfterSeconds).to.equal(62.273);
    expect(db.endpointRemovedAfterSeconds! - db.deletedAfterSeconds!).to.be.within(0, 0.5);
    expect(db.endpointReadyAgainAfterSeconds).to.equal(63.902);
    expect(db.endpointReadyAgainAfterSeconds! - db.replacement!.readyAfterSeconds!).to.be.within(0, 0.5);
  });

  it('counts the seconds with no ready endpoint for the workload', () => {
    const endpoints = analysis.workloads.find((w) => w.name === 'db')!.endpoints!;
    expect(endpoints).to.deep.equal({
      service: 'db', readyAtFault: 1, minimumReady: 0, noReadyEndpointSeconds: 43.551, noReadyEndpointAfterSeconds: 20.351,
      readySeries: [[20.351, 0], [63.902, 1]],
    });
  });

  it('gives null for a workload without a Service', () => {
    const web = analysis.pods.find((p) => p.workload === 'web')!;
    expect([web.endpointReadyAtFault, web.endpointNotReadyAfterSeconds, web.endpointRemovedAfterSeconds, web.endpointReadyAgainAfterSeconds]).to.deep.equal([null, null, null, null]);
    expect(analysis.workloads.find((w) => w.name === 'web')!.endpoints).to.equal(null);
  });

  it('answers expectations on the endpoint fields', () => {
    const results = evaluateExpectations(analysis, [
      parse('pods[workload=db].endpointRemovedAfterSeconds in [61.5, 62.5]'),
      parse('workloads.db.noReadyEndpointSeconds < 45'),
      parse('workloads.db.minimumReadyEndpoints == 0'),
      parse('pods[workload=web].endpointRemovedAfterSeconds == null'),
      parse('workloads.db.noReadyEndpointSeconds < 40'),
    ]);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true, true, true, false]);
    expect(results[4]!.message).to.equal('db: 43.551 (not < 40)');
  });
});

describe('analyze/endpoint-timeline on a recorded kind run with ClusterIP Services (kind-service-outage-recorded)', () => {
  // test/fixtures/e2e/service-outage.yaml on kind v1.34.4: rl-endpoints-worker powered off for 90 s with grace 20 s,
  // tolerations 30 s; web's two pods and one api pod ran on it, api's other pod on rl-endpoints-worker2.
  const { analysis } = loadFixtureRun('kind-service-outage-recorded');
  const node = analysis.nodes.find((n) => n.faultTarget)!;
  const onTarget = analysis.pods.filter((p) => p.nodeBefore === node.name && p.namespace === 'rebootlab');

  it('every endpoint on the powered-off node stays ready until its pod is marked NotReady: the readiness probe runs on the dead kubelet', () => {
    expect(onTarget.map((p) => p.workload).sort()).to.deep.equal(['api', 'web', 'web']);
    for (const pod of onTarget) {
      expect(pod.endpointReadyAtFault, pod.name).to.equal(true);
      // The Node's Ready→Unknown (server time, whole seconds) comes first; the slice follows the pod update within 1 s.
      expect(pod.endpointNotReadyAfterSeconds! - node.notReadyAfterSeconds!, pod.name).to.be.within(0, 1.5);
      expect(Math.abs(pod.endpointNotReadyAfterSeconds! - pod.notReadyReceivedAfterSeconds!), pod.name).to.be.below(0.2);
    }
  });

  it('turns terminating at the eviction, ready again with the replacement, and leaves the slice once the node is back', () => {
    for (const pod of onTarget) {
      expect(pod.endpointTerminatingAfterSeconds! - pod.evictedAfterSeconds!, pod.name).to.be.within(0, 0.2);
      expect(pod.endpointReadyAgainAfterSeconds! - pod.replacement!.readyAfterSeconds!, pod.name).to.be.within(0, 1);
      // The power-off lasted 90 s: the old endpoint goes only after the node is Ready again and before the pod object is deleted.
      expect(pod.endpointRemovedAfterSeconds!, pod.name).to.be.within(node.readyAgainAfterSeconds!, pod.deletedAfterSeconds!);
    }
  });

  it('web had no ready endpoint from its second pod\'s NotReady to its first replacement\'s Ready; api never lost its last one', () => {
    const web = analysis.workloads.find((w) => w.name === 'web')!.endpoints!;
    const replacementsReady = onTarget.filter((p) => p.workload === 'web').map((p) => p.endpointReadyAgainAfterSeconds!);
    expect(web.noReadyEndpointSeconds).to.equal(Math.round((Math.min(...replacementsReady) - web.noReadyEndpointAfterSeconds!) * 1000) / 1000);
    expect(web.readySeries).to.deep.equal([[19.034, 1], [19.102, 0], [51.491, 1], [52.427, 2]]);
    expect(analysis.workloads.find((w) => w.name === 'api')!.endpoints).to.deep.equal({
      service: 'api', readyAtFault: 2, minimumReady: 1, noReadyEndpointSeconds: 0, noReadyEndpointAfterSeconds: null, readySeries: [[19.105, 1], [51.531, 2]],
    });
  });

  it('the Events agree with the timelines: NodeNotReady at the Node condition, TaintManagerEviction within 1 s before each eviction', () => {
    const notReady = analysis.events.find((e) => e.reason === 'NodeNotReady' && e.object === `Node/${node.name}`)!;
    expect(notReady.afterSeconds).to.equal(node.notReadyAfterSeconds);
    for (const pod of onTarget) {
      const eviction = analysis.events.find((e) => e.reason === 'TaintManagerEviction' && e.object === `Pod/rebootlab/${pod.name}`)!;
      expect(pod.evictedAfterSeconds! - eviction.afterSeconds, pod.name).to.be.within(0, 1);
    }
  });
});

// A journal built in the shapes the observer records: the fault marker at t=1000 ms, pods of workload `web`, and
// EndpointSlices of Service `web` (discovery.k8s.io/v1).
const FAULT_MS = 1_000;
let seq = 0;
function pod(name: string, uid: string, atMs: number, ready: boolean, extra: Record<string, unknown> = {}): ObjectObservation {
  return {
    type: 'object', kind: 'Pod', verb: 'MODIFIED', namespace: 'rebootlab', name, uid, resourceVersion: String(++seq), seq, receivedAtMs: atMs,
    object: {
      metadata: { name, namespace: 'rebootlab', uid, labels: { 'rebootlab.dev/workload': 'web' }, ownerReferences: [{ kind: 'ReplicaSet', controller: true }], ...extra },
      spec: { nodeName: 'w1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    },
  };
}
type Endpoint = { uid?: string; address: string; ready?: boolean; serving?: boolean; terminating?: boolean };
function slice(name: string, atMs: number, endpoints: Endpoint[] | null, verb: ObjectObservation['verb'] = 'MODIFIED'): ObjectObservation {
  return {
    type: 'object', kind: 'EndpointSlice', verb, namespace: 'rebootlab', name, uid: `slice-${name}`, resourceVersion: String(++seq), seq, receivedAtMs: atMs,
    object: {
      metadata: { name, namespace: 'rebootlab', labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' } },
      addressType: 'IPv4',
      endpoints: endpoints?.map((e) => ({
        addresses: [e.address],
        conditions: Object.fromEntries(Object.entries({ ready: e.ready, serving: e.serving, terminating: e.terminating }).filter(([, v]) => v !== undefined)),
        ...(e.uid ? { targetRef: { kind: 'Pod', namespace: 'rebootlab', name: e.uid, uid: e.uid } } : {}),
      })) ?? null,
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    },
  };
}
const marker = (phase: string, atMs: number, nodes?: string[]): Observation => ({ type: 'phase', phase, seq: ++seq, receivedAtMs: atMs, ...(nodes ? { nodes } : {}) });

function analyzeJournal(records: Observation[], serviceName: string | null = 'web') {
  return analyze(records, { settings: DEFAULT_TIMEOUT_SETTINGS, workloads: [{ name: 'web', kind: 'Deployment', desiredReplicas: 2, ...(serviceName ? { serviceName } : {}) }] });
}

describe('analyze/endpoint-timeline on slices in the EndpointSlice API shape', () => {
  it('reads absent ready/serving as true, merges two slices, follows a pod restarted in place, and counts no-endpoint time to the end', () => {
    seq = 0;
    const records: Observation[] = [
      pod('a', 'uid-a', 500, true), pod('b', 'uid-b', 500, true),
      // Conditions absent: ready and serving mean true (API reference), so both count at the fault.
      slice('web-1', 600, [{ uid: 'uid-a', address: '10.0.0.1' }]),
      slice('web-2', 600, [{ uid: 'uid-b', address: '10.0.0.2', ready: true }]),
      marker('fault-injected', FAULT_MS, ['w1']),
      slice('web-1', 3_000, [{ uid: 'uid-a', address: '10.0.0.1', ready: false, serving: false }]),
      // b moves to slice web-1 (rebalancing) while still ready: not a removal.
      slice('web-1', 4_000, [{ uid: 'uid-a', address: '10.0.0.1', ready: false, serving: false }, { uid: 'uid-b', address: '10.0.0.2', ready: true }]),
      slice('web-2', 4_100, null, 'DELETED'),
      slice('web-1', 5_000, [{ uid: 'uid-a', address: '10.0.0.1', ready: false, serving: false }, { uid: 'uid-b', address: '10.0.0.2', ready: false }]),
      slice('web-1', 7_500, [{ uid: 'uid-a', address: '10.0.0.1', ready: true }, { uid: 'uid-b', address: '10.0.0.2', ready: false }]),
      slice('web-1', 9_000, [{ uid: 'uid-a', address: '10.0.0.1', ready: false, serving: true, terminating: true }]),
      slice('web-1', 10_000, []),
      marker('fault-restored', 11_000),
      pod('a', 'uid-a', 12_000, false),
    ];
    const analysis = analyzeJournal(records);
    const [a, b] = ['a', 'b'].map((name) => analysis.pods.find((p) => p.name === name)!);
    expect(a).to.deep.include({
      endpointReadyAtFault: true, endpointNotReadyAfterSeconds: 2, endpointReadyAgainAfterSeconds: 6.5,
      endpointTerminatingAfterSeconds: 8, endpointRemovedAfterSeconds: 9,
    });
    expect(b).to.deep.include({
      endpointReadyAtFault: true, endpointNotReadyAfterSeconds: 4, endpointReadyAgainAfterSeconds: null,
      endpointTerminatingAfterSeconds: null, endpointRemovedAfterSeconds: 8,
    });
    // Ready count: 2 at the fault, 1 at 2 s, 0 at 4 s, 1 at 6.5 s, 0 at 8 s until the journal ends at 11 s.
    expect(analysis.workloads[0]!.endpoints).to.deep.equal({
      service: 'web', readyAtFault: 2, minimumReady: 0, noReadyEndpointSeconds: 5.5, noReadyEndpointAfterSeconds: 4,
      readySeries: [[2, 1], [4, 0], [6.5, 1], [8, 0]],
    });
  });

  it('counts from the fault when no endpoint was ready then, and gives null fields when the workload has no Service', () => {
    seq = 0;
    const records: Observation[] = [
      pod('a', 'uid-a', 500, false),
      slice('web-1', 600, [{ uid: 'uid-a', address: '10.0.0.1', ready: false }]),
      marker('fault-injected', FAULT_MS, ['w1']),
      slice('web-1', 4_000, [{ uid: 'uid-a', address: '10.0.0.1', ready: true }]),
      marker('fault-restored', 5_000),
    ];
    const withService = analyzeJournal(records);
    expect(withService.pods[0]).to.deep.include({ endpointReadyAtFault: false, endpointNotReadyAfterSeconds: null, endpointReadyAgainAfterSeconds: null });
    expect(withService.workloads[0]!.endpoints).to.deep.include({ readyAtFault: 0, noReadyEndpointSeconds: 3, noReadyEndpointAfterSeconds: 0 });
    const without = analyzeJournal(records, null);
    expect(without.pods[0]).to.deep.include({ endpointReadyAtFault: null, endpointNotReadyAfterSeconds: null, endpointRemovedAfterSeconds: null });
    expect(without.workloads[0]!.endpoints).to.equal(null);
  });
});

describe('analyze/events', () => {
  it('keeps the node lifecycle and taint eviction Events of a recorded power-off, timed from lastTimestamp', () => {
    // kind-outage-tuned-recorded: grace 20 s, tolerations 30 s; node Ready→Unknown at 22.05 s (server time; docker stop took 2.608 s).
    const { analysis } = loadFixtureRun('kind-outage-tuned-recorded');
    const node = analysis.nodes.find((n) => n.faultTarget)!;
    const short = analysis.events.map((e) => `${e.afterSeconds} ${e.reason} ${e.object} ${e.source}`);
    expect(short.filter((e) => e.includes('DeletionByTaintManager'))).to.deep.equal([
      '52.05 DeletionByTaintManager Pod/rebootlab/solo taint-eviction-controller',
      '52.05 DeletionByTaintManager Pod/rebootlab/web-5f5b5b77d7-dg2wh taint-eviction-controller',
      '52.05 DeletionByTaintManager Pod/rebootlab/web-5f5b5b77d7-s6gw8 taint-eviction-controller',
    ]);
    expect(short.filter((e) => !e.includes('DeletionByTaintManager'))).to.deep.equal([
      '22.05 NodeNotReady Node/rebootlab-worker node-controller',
      '22.05 NodeNotReady Pod/kube-system/kube-proxy-dnl2w node-controller',
      '22.05 NodeNotReady Pod/kube-system/rebootlab-cni-l55jd node-controller',
      '22.05 NodeNotReady Pod/rebootlab/solo node-controller',
      '22.05 NodeNotReady Pod/rebootlab/web-5f5b5b77d7-dg2wh node-controller',
      '22.05 NodeNotReady Pod/rebootlab/web-5f5b5b77d7-s6gw8 node-controller',
      '52.05 TaintManagerEviction Pod/rebootlab/solo taint-eviction-controller',
      '52.05 TaintManagerEviction Pod/rebootlab/web-5f5b5b77d7-dg2wh taint-eviction-controller',
      '52.05 TaintManagerEviction Pod/rebootlab/web-5f5b5b77d7-s6gw8 taint-eviction-controller',
      '131.05 NodeNotReady Node/rebootlab-worker kubelet',
      '131.05 NodeReady Node/rebootlab-worker kubelet',
    ]);
    const events = analysis.events.filter((e) => e.recordedAs === 'Event');
    expect(events[0]).to.deep.include({ timeField: 'lastTimestamp', resolutionSeconds: 1, count: 1, namespace: 'default', message: 'Node rebootlab-worker status is now: NodeNotReady' });
    // Cross-check: the controller's Event and the Node condition agree to the second.
    expect(events[0]!.afterSeconds).to.equal(node.notReadyAfterSeconds);
    const eviction = analysis.pods.find((p) => p.name === 'solo')!.evictedAfterSeconds!;
    expect(eviction - events[6]!.afterSeconds).to.be.within(0, 1);
    expect(events[6]!.message).to.equal('Marking for deletion Pod rebootlab/solo');
  });

  it('records PodGC through the pods\' DisruptionTarget condition, about 40 s after the Node was deleted', () => {
    // kind-node-delete-podgc-recorded: the Node object was deleted at once; PodGC waits out its 40 s quarantine for
    // orphaned pods (pkg/controller/podgc/gc_controller.go quarantineTime) and records no Event, only the condition.
    const { analysis } = loadFixtureRun('kind-node-delete-podgc-recorded');
    const removing = analysis.events.find((e) => e.reason === 'RemovingNode')!;
    expect(removing).to.deep.include({ recordedAs: 'Event', afterSeconds: 5.466, source: 'node-controller' });
    const gc = analysis.events.filter((e) => e.reason === 'DeletionByPodGC');
    expect(gc.map((e) => e.object)).to.deep.equal([
      'Pod/kube-system/kube-proxy-pd44r', 'Pod/kube-system/rebootlab-cni-dldzh', 'Pod/rebootlab/solo', 'Pod/rebootlab/web-8cf899bcf-7p765', 'Pod/rebootlab/web-8cf899bcf-k85dq',
    ]);
    for (const e of gc) {
      expect(e).to.deep.include({ recordedAs: 'DisruptionTarget', source: 'pod-garbage-collector', timeField: 'lastTransitionTime', resolutionSeconds: 1, message: 'PodGC: node no longer exists' });
      expect(e.afterSeconds - removing.afterSeconds).to.be.within(38, 42);
    }
    expect(analysis.events.filter((e) => e.recordedAs === 'DisruptionTarget' && e.reason !== 'DeletionByPodGC')).to.deep.equal([]);
  });

  it('prefers series.lastObservedTime and eventTime (microseconds) and falls back to the receive time', () => {
    const record = (object: Record<string, unknown>): ObjectObservation => ({
      type: 'object', kind: 'Event', verb: 'MODIFIED', namespace: 'rebootlab', name: 'e', uid: 'e', resourceVersion: '1', seq: 1, receivedAtMs: 1_000_000 + 7_250,
      object: { reason: 'Unhealthy', type: 'Warning', involvedObject: { kind: 'Pod', namespace: 'rebootlab', name: 'web-1' }, message: 'Readiness probe failed: Get "http://10.244.1.5:8080/healthz": dial tcp: connect: connection refused', ...object },
    });
    const series = toEventRecord(record({
      eventTime: '1970-01-01T00:16:42.500000Z', series: { count: 4, lastObservedTime: '1970-01-01T00:16:45.123456Z' }, reportingController: 'kubelet',
    }), 1_000_000);
    expect(series).to.deep.include({ timeField: 'series.lastObservedTime', resolutionSeconds: 0.000001, afterSeconds: 5.123, firstAfterSeconds: 2.5, count: 4, source: 'kubelet', object: 'Pod/rebootlab/web-1' });
    const legacy = toEventRecord(record({ firstTimestamp: '1970-01-01T00:16:41Z', lastTimestamp: '1970-01-01T00:16:46Z', count: 6, source: { component: 'kubelet' } }), 1_000_000);
    expect(legacy).to.deep.include({ timeField: 'lastTimestamp', resolutionSeconds: 1, afterSeconds: 6, firstAfterSeconds: 1, count: 6, source: 'kubelet' });
    expect(toEventRecord(record({}), 1_000_000)).to.deep.include({ timeField: 'received', resolutionSeconds: 0.001, afterSeconds: 7.25, count: 1 });
  });
});
