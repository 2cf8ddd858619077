// One test per mechanism of the causal model (lib/analyze/predict*.ts), on recorded kind journals, or, where no
// recorded run exists yet, on journals edited from recorded real objects (test/unit/analyze/edited-journals.ts).
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../lib/analyze/analyze.js';
import { predictNoExecuteTaints } from '../../../lib/analyze/predict-zones.js';
import { noScheduleThrottle } from '../../../lib/analyze/controller-clients.js';
import type { NodeTimeline, PredictionItem, RunAnalysis } from '../../../lib/analyze/types.js';
import { readJournal } from '../../../lib/observe/journal.js';
import type { ObjectObservation, Observation, PhaseObservation } from '../../../lib/observe/types.js';
import { readRunInfo } from '../../../lib/report/write-reports.js';
import type { RunInfo } from '../../../lib/report/result-types.js';
import { cloneTarget, copy, editNode, mergeJournal, timeZeroMarker } from './edited-journals.js';
import { FIXTURE_RUNS_DIR, loadFixtureRun, predictionItem } from './fixture-runs.js';

const GRACE_MATRIX_DIR = join(FIXTURE_RUNS_DIR, '../../../reports/examples/grace-matrix-kind');
const TARGET = 'rebootlab-worker';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

const outage = loadFixtureRun('kind-outage-tuned-recorded');
const renewIntervalMs = outage.info.settings.kubelet.nodeLeaseDurationSeconds * 250;
const run = (observations: Observation[], info: RunInfo = outage.info): RunAnalysis => analyze(observations, { settings: info.settings, workloads: info.workloads });
const taintItems = (a: RunAnalysis, expected: boolean): PredictionItem[] => a.predictions.items.filter((i) => i.event === 'no-execute-taint' && i.expected === expected && i.notModelled === undefined);
const missedText = (a: RunAnalysis): string[] => a.predictions.missed.map((i) => `${i.event} ${i.taintKey ?? ''} ${i.pod ?? i.node}: observed ${i.observedSeconds}, window ${JSON.stringify(i.window)}`);

describe('analyze/predict mechanisms', () => {
  describe('detection from the last Lease renewal (recorded grace-matrix-kind runs)', () => {
    for (const name of readdirSync(GRACE_MATRIX_DIR).filter((d) => d.startsWith('grace-matrix-'))) {
      it(`${name}: Ready→Unknown, taints and evictions all inside windows derived from their observed causes; 0 missed`, () => {
        const dir = join(GRACE_MATRIX_DIR, name);
        const info = readRunInfo(dir);
        const a = run(readJournal(join(dir, 'observations.jsonl'), () => undefined), info);
        const detection = a.predictions.items.find((i) => i.event === 'node-not-ready');
        expect(detection?.held, JSON.stringify(detection)).to.equal(true);
        expect(missedText(a)).to.deep.equal([]);
        expect(a.predictions.heldCount).to.be.at.least(5);
      });
    }

    it('20s-r0: the last renewal was 3.271 s before the stop command started (5.056 s long); Unknown at 17.55 s inside [R + G − 1, R + G + 2M + 1] = [15.729, 27.729]', () => {
      const dir = join(GRACE_MATRIX_DIR, 'grace-matrix--nodeMonitorGracePeriod-20s-r0');
      const a = run(readJournal(join(dir, 'observations.jsonl'), () => undefined), readRunInfo(dir));
      expect(a.faults[0]).to.deep.include({ commandSeconds: 5.056, issuedAfterSeconds: 0 });
      expect(a.faults[0].lastLeaseRenewBeforeFault?.afterSeconds).to.equal(-3.271);
      const detection = predictionItem(a, 'node-not-ready@rl-lead-matrix-worker');
      expect(detection).to.deep.include({ window: { fromSeconds: 15.729, toSeconds: 27.729 }, observedSeconds: 17.55, held: true });
      expect(detection?.cause).to.deep.equal({ event: 'last heartbeat of rl-lead-matrix-worker: Lease renewal (server renewTime)', atSeconds: -3.271 });
    });
  });

  describe('node status posts are heartbeats too (nodelifecycle tryUpdateNodeHealth, v1.34.4: a changed Ready lastHeartbeatTime restarts the grace period)', () => {
    const zero = timeZeroMarker(outage.observations);
    const lastNodeBefore = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === TARGET && o.seq < zero.seq).at(-1) as ObjectObservation;
    /** The recorded journal without the target's Lease records before time zero, plus a status post whose Ready lastHeartbeatTime is `beatSeconds` (whole seconds, as the API keeps it), received 0.05 s later. */
    const withPost = (beatSeconds: number): Observation[] => {
      const post = copy(lastNodeBefore);
      post.verb = 'MODIFIED';
      const beatMs = Math.floor((zero.receivedAtMs + beatSeconds * 1000) / 1000) * 1000;
      post.receivedAtMs = beatMs + 50;
      const ready = ((post.object.status as { conditions: Record<string, unknown>[] }).conditions).find((c) => c.type === 'Ready')!;
      ready.lastHeartbeatTime = new Date(beatMs).toISOString().replace('.000Z', 'Z');
      const kept = outage.observations.filter((o) => !(o.type === 'object' && o.kind === 'Lease' && o.name === TARGET && o.seq < zero.seq));
      return mergeJournal(kept, [post]);
    };

    it('journal edited from the recorded outage-tuned run (its Lease renewals before the fault removed, a status post at −1 s added): Ready→Unknown at 22.05 s predicted from the post, [H + G − 1, H\' + G + 2M + 1], and held', () => {
      const a = run(withPost(-1));
      const detection = predictionItem(a, `node-not-ready@${TARGET}`)!;
      expect(detection.cause?.event).to.equal(`last heartbeat of ${TARGET}: node status post (Ready lastHeartbeatTime, whole seconds)`);
      expect(detection.window!.fromSeconds).to.be.closeTo(detection.cause!.atSeconds + 20 - 1, 0.001);
      expect(detection.window!.toSeconds).to.be.closeTo(detection.cause!.atSeconds + 0.05 + 20 + 2 * 5 + 1, 0.001);
      expect(detection).to.deep.include({ observedSeconds: 22.05, held: true });
      expect(missedText(a).filter((m) => m.startsWith('node-not-ready'))).to.deep.equal([]);
    });

    it('the same journal without the post: the last heartbeat is the status the Node was listed with (lastHeartbeatTime −10.95 s, received at −5.83 s, so it reached the API by −8.95 s): window [8.05, 22.05] s', () => {
      const kept = outage.observations.filter((o) => !(o.type === 'object' && o.kind === 'Lease' && o.name === TARGET && o.seq < zero.seq));
      const detection = predictionItem(run(mergeJournal(kept)), `node-not-ready@${TARGET}`)!;
      expect(detection.cause?.atSeconds).to.equal(-10.95);
      expect(detection.window).to.deep.equal({ fromSeconds: 8.05, toSeconds: 22.05 });
    });

    it('the recorded journal: a Node record whose Ready lastHeartbeatTime did not change (the controller\'s Unknown writes at 22.2 s) is no heartbeat; the last one is the Lease renewal at −1.029 s', () => {
      const detection = predictionItem(outage.analysis, `node-not-ready@${TARGET}`)!;
      expect(detection.cause).to.deep.equal({ event: `last heartbeat of ${TARGET}: Lease renewal (server renewTime)`, atSeconds: -1.029 });
    });
  });

  it('recorded kind run with only nodeStatusUpdateFrequency 4s (kind-status-update-frequency-recorded): the node status post at -0.582 s, not the Lease renewal at -7.558 s, starts the grace period; with the posts edited out (Ready lastHeartbeatTime frozen at its listed value) the window from the last Lease renewal (-7.559 s) and the listed post (lastHeartbeatTime -7.582 s, reached the API by -5.582 s), [11.441, 19.418], misses the observed 22.418 s', () => {
    const recorded = loadFixtureRun('kind-status-update-frequency-recorded');
    const detection = predictionItem(recorded.analysis, 'node-not-ready@mech-worker')!;
    expect(recorded.info.settings.kubelet.nodeStatusReportFrequencyMs, 'read back from configz: the kubelet defaulted it to nodeStatusUpdateFrequency').to.equal(4_000);
    expect(detection).to.deep.include({ held: true, observedSeconds: 22.418 });
    expect(detection.cause?.event).to.include('node status post');
    const frozen = editNode(recorded.observations, 'mech-worker', (o) => {
      for (const c of (o.status as { conditions: Record<string, unknown>[] }).conditions) c.lastHeartbeatTime = '2026-12-03T08:15:26Z';
    });
    const leaseOnly = predictionItem(run(frozen, recorded.info), 'node-not-ready@mech-worker')!;
    expect(leaseOnly.cause?.event).to.include('Lease renewal');
    expect(leaseOnly.window).to.deep.equal({ fromSeconds: 11.441, toSeconds: 19.418 });
    expect(leaseOnly.held).to.equal(false);
  });

  describe('node Ready again after the fault ends (the kubelet patches its status against its own Node informer cache: kubelet_node_status.go tryUpdateNodeStatus, v1.34.4)', () => {
    it('recorded 120 s network-partition: the Lease is renewed 6.5 s after the heal, yet Ready=True waits for the kubelet\'s Node informer (reflector retry after the HTTP/2 connection was lost): 134.478 s inside [restoring − 1, restored + 60 + U\' + 1]', () => {
      const a = loadFixtureRun('kind-network-partition-120-recorded').analysis;
      const item = predictionItem(a, 'node-ready-again@mech-worker')!;
      expect(item).to.deep.include({ held: true, observedSeconds: 134.478, window: { fromSeconds: 119.307, toSeconds: 192.276 } });
      expect(item.because).to.include('outlasted client-go\'s HTTP/2 health check');
      // The heartbeat came back long before Ready: the Lease renewed 127.379 s, no status post before 134.478 s.
      const node = a.nodes.find((n) => n.name === 'mech-worker')!;
      expect(node.readyAgainAfterSeconds! - 127.379).to.be.above(7);
    });

    it('a stale Ready=True written back (its lastTransitionTime older than the NotReady it ends, as kwok v0.7.0\'s uncancelled heartbeat job posted) is Ready again when received, never before the NotReady', () => {
      const zero = timeZeroMarker(outage.observations);
      const recorded = outage.analysis.nodes.find((n) => n.name === TARGET)!;
      expect(recorded.readyAgainAfterSeconds).to.equal(131.05);
      // Every post-fault Ready=True status of the target carries the transition time it had before the fault.
      const before = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === TARGET && o.seq < zero.seq).at(-1)!;
      const oldTransition = (before.object.status as { conditions: { type: string; lastTransitionTime: string }[] }).conditions.find((c) => c.type === 'Ready')!.lastTransitionTime;
      const stale = editNode(outage.observations, TARGET, (o, rec) => {
        if (rec.seq < zero.seq) return;
        for (const c of (o.status as { conditions: Record<string, unknown>[] }).conditions) if (c.type === 'Ready' && c.status === 'True') c.lastTransitionTime = oldTransition;
      });
      const node = run(stale).nodes.find((n) => n.name === TARGET)!;
      expect(node.readyAgainAfterSeconds).to.equal(recorded.readyAgainReceivedAfterSeconds);
      expect(node.readyAgainAfterSeconds!).to.be.above(node.notReadyAfterSeconds!);
    });

    it('the same journal edited as if the partition lasted 30 s (markers moved; Ready=True 13.6 s after the heal as recorded): the connection survives (30 s < 45 s − renew interval 5 s), the watch resumes at the next TCP retransmission (≤ 30.2 s after the heal), window [restoring − 1, restored + 30.2 + 10.4 + 1]', () => {
      const recorded = loadFixtureRun('kind-network-partition-120-recorded');
      const zero = timeZeroMarker(recorded.observations);
      const moveMs = -90_000;
      const edited = recorded.observations.map((o) => {
        if (o.type === 'phase' && (o.phase === 'fault-restoring' || o.phase === 'fault-restored')) return { ...o, receivedAtMs: o.receivedAtMs + moveMs };
        return o;
      });
      const a = run(mergeJournal(edited), recorded.info);
      const item = predictionItem(a, 'node-ready-again@mech-worker')!;
      expect(item.because).to.include('shorter than client-go\'s HTTP/2 health check');
      expect(item.window!.fromSeconds).to.be.closeTo(30.307 - 1, 0.001);
      expect(item.window!.toSeconds).to.be.closeTo(30.876 + 30.307 + 0.2 + 10.4 + 1, 0.001);
      expect(zero.phase).to.equal('fault-injecting');
    });

    it('recorded 35 s network-partition (kind, 3 Dec 2026): shorter than the HTTP/2 health check, the connection survived (no "client connection lost" in the kubelet log), the watch resumed at the next TCP retransmission and Ready came at the next status sync, 48.212 s (12.9 s after the heal), inside the kept-connection window', () => {
      const a = loadFixtureRun('kind-heal-35-network-partition-recorded').analysis;
      const item = predictionItem(a, 'node-ready-again@mech-worker')!;
      expect(item).to.deep.include({ held: true, observedSeconds: 48.212 });
      expect(item.because).to.include('connection survived');
      expect(item.window).to.deep.equal({ fromSeconds: 34.344, toSeconds: 82.664 });
    });

    it('recorded control-plane partition of 120 s (kind v1.37.2, iptables DROP of the API server\'s traffic): a dial begun while packets were dropped may hang until client-go\'s dialer gives up (30 s) and fail up to 15 s after the heal before the reflector\'s retry: window [restoring − 1, restored + 15 + 60 + 10.4 + 1]; kind\'s docker network disconnect (no route: every dial fails at once) has no such term', () => {
      const a = loadFixtureRun('kind-control-plane-partition-v1372-recorded').analysis;
      for (const fault of a.faults) {
        expect(fault.trafficDropped, fault.node).to.equal(true);
        const item = predictionItem(a, `node-ready-again@${fault.node}`)!;
        expect(item.held, fault.node).to.equal(true);
        expect(item.window!.fromSeconds).to.be.closeTo(fault.restoringAfterSeconds! - 1, 0.001);
        expect(item.window!.toSeconds).to.be.closeTo(fault.restoredAfterSeconds! + 15 + 60 + 10.4 + 1, 0.001);
        expect(item.because).to.include('a dial begun while packets were dropped gave up, up to 15 s after the heal');
      }
      const disconnect = loadFixtureRun('kind-network-partition-120-recorded').analysis;
      expect(disconnect.faults[0]!.trafficDropped).to.equal(undefined);
      expect(predictionItem(disconnect, 'node-ready-again@mech-worker')!.because).to.not.include('dropped');
    });

    it('recorded 35 s freeze (kind, 3 Dec 2026): the kubelet catches up at the unfreeze and posts Ready at its next status sync, 45.075 s (9.5 s after the unfreeze), inside [restoring − 1, restored + 10.4 + 1]', () => {
      const a = loadFixtureRun('kind-heal-35-freeze-recorded').analysis;
      const item = predictionItem(a, 'node-ready-again@mech-worker')!;
      expect(item).to.deep.include({ held: true, observedSeconds: 45.075, window: { fromSeconds: 34.113, toSeconds: 47.008 } });
    });

    it('recorded runtime-stop: the kubelet sees containerd back at its next 5 s runtime check and posts at the next status sync: Ready at 105.369 s inside [restoring − 1, restored + 5 + 10.4 + 1]', () => {
      const a = loadFixtureRun('kind-runtime-stop-recorded').analysis;
      const item = predictionItem(a, 'node-ready-again@rl-rec2-worker')!;
      expect(item).to.deep.include({ held: true, observedSeconds: 105.369 });
      expect(item.window!.toSeconds).to.be.closeTo(a.faults[0]!.restoredAfterSeconds! + 5 + 10.4 + 1, 0.001);
    });

    it('a power-off: the restarted kubelet reports Ready once its runtime is up, which depends on the boot: not modelled, said so', () => {
      const item = predictionItem(outage.analysis, `node-ready-again@${TARGET}`)!;
      expect(item.notModelled).to.include('depends on the node\'s boot');
    });
  });

  describe('NoExecute taints: zone token bucket and end-of-pass zone state', () => {
    it('case C9, journal edited from the recorded outage-tuned run (target copied to 2 more workers hit 15 s and 30 s later): all three tainted at their own detection, all predicted, 0 missed', () => {
      const journal = mergeJournal(
        outage.observations,
        cloneTarget(outage.observations, { from: TARGET, to: 'rebootlab-worker3', offsetMs: 15_000, renewIntervalMs }),
        cloneTarget(outage.observations, { from: TARGET, to: 'rebootlab-worker4', offsetMs: 30_000, renewIntervalMs }),
      );
      const a = run(journal);
      expect(a.targets).to.deep.equal([TARGET, 'rebootlab-worker3', 'rebootlab-worker4']);
      const tainted = taintItems(a, true);
      expect(tainted.map((i) => [i.node, i.held])).to.deep.equal([[TARGET, true], ['rebootlab-worker3', true], ['rebootlab-worker4', true]]);
      // The third detection makes 3 of 5 nodes NotReady (≥ 0.55, > 2): PartialDisruption after the third took its token;
      // Normal again once the first is back (131 s).
      expect(a.predictions.zoneStates.map((z) => [z.state, z.notReady, z.total, z.evictionRatePerSecond])).to.deep.equal([['PartialDisruption', 3, 5, 0], ['Normal', 2, 5, 0.1]]);
      expect(a.pods.filter((p) => p.evictedAfterSeconds !== null && p.workload === null && p.name.startsWith('web')).length).to.equal(4);
      expect(missedText(a)).to.deep.equal([]);
    });

    const simultaneous = (untainted: boolean) =>
      mergeJournal(
        outage.observations,
        cloneTarget(outage.observations, { from: TARGET, to: 'rebootlab-worker3', offsetMs: 0, renewIntervalMs, untainted }),
        cloneTarget(outage.observations, { from: TARGET, to: 'rebootlab-worker4', offsetMs: 0, renewIntervalMs, untainted }),
      );

    it('case C1, journal edited from the recorded outage-tuned run (three targets detected in one pass, copies untainted): exactly one predicted and observed tainted, the zone then PartialDisruption at rate 0, 0 missed', () => {
      const a = run(simultaneous(true));
      expect(taintItems(a, true).map((i) => [i.node, i.held])).to.deep.equal([[TARGET, true]]);
      expect(taintItems(a, false).map((i) => [i.node, i.held])).to.deep.equal([['rebootlab-worker3', true], ['rebootlab-worker4', true]]);
      expect(taintItems(a, false)[0].because).to.match(/PartialDisruption.*rate 0/);
      // Their pods keep no deletionTimestamp: predicted, and held.
      const noEviction = a.predictions.items.filter((i) => i.event === 'pod-eviction' && i.node === 'rebootlab-worker3');
      expect(noEviction.length).to.be.above(0);
      expect(noEviction.every((i) => !i.expected && i.held === true)).to.equal(true);
      expect(missedText(a)).to.deep.equal([]);
    });

    it('case C1 negative control (copies keep their recorded taints): the two extra taints are reported as missed predictions', () => {
      const a = run(simultaneous(false));
      expect(a.predictions.missed.filter((i) => i.event === 'no-execute-taint').map((i) => i.node)).to.deep.equal(['rebootlab-worker3', 'rebootlab-worker4']);
    });

    it('every zone fully disrupted, journal edited from the recorded outage-tuned run (control plane and worker2 labelled exclude-disruption, a second target in the same pass, taints removed): master disruption mode, nothing predicted tainted, no eviction', () => {
      let journal: Observation[] = mergeJournal(outage.observations, cloneTarget(outage.observations, { from: TARGET, to: 'rebootlab-worker3', offsetMs: 0, renewIntervalMs, untainted: true }));
      for (const node of ['rebootlab-control-plane', 'rebootlab-worker2']) {
        journal = editNode(journal, node, (o) => {
          ((o.metadata as Record<string, Record<string, string>>).labels ??= {})['node.kubernetes.io/exclude-disruption'] = '';
        });
      }
      // Master disruption mode removes NoExecute taints at once: the target's recorded taint and its pods' evictions are edited out.
      journal = editNode(journal, TARGET, (o) => {
        const spec = o.spec as { taints?: { effect: string }[] };
        if (spec.taints) spec.taints = spec.taints.filter((t) => t.effect !== 'NoExecute');
      });
      const zero = timeZeroMarker(journal);
      const evicted = new Set<string>();
      journal = journal.filter((o) => {
        if (o.type !== 'object' || o.kind !== 'Pod' || o.seq < zero.seq || (o.object.spec as { nodeName?: string }).nodeName !== TARGET) return true;
        if (o.verb === 'DELETED' || (o.object.metadata as { deletionTimestamp?: string }).deletionTimestamp) evicted.add(o.uid);
        return !evicted.has(o.uid);
      });
      const a = run(mergeJournal(journal));
      // FullDisruption in the pass that saw both; Normal again once they are back (131 s).
      expect(a.predictions.zoneStates.map((z) => [z.state, z.evictionRatePerSecond])).to.deep.equal([['FullDisruption', 0], ['Normal', 0.1]]);
      expect(taintItems(a, false)[0].because).to.match(/master disruption mode taints nothing/);
      expect(taintItems(a, true)).to.deep.equal([]);
      expect(taintItems(a, false).map((i) => i.node)).to.deep.equal(['rebootlab-worker3']);
      // The node that took the token in that very pass races the removal: not modelled rather than a wrong window.
      expect(predictionItem(a, `no-execute-taint/unreachable@${TARGET}`)?.notModelled).to.match(/master disruption mode/);
      expect(a.predictions.items.filter((i) => i.event === 'pod-eviction' && i.expected && i.notModelled === undefined)).to.deep.equal([]);
      expect(missedText(a)).to.deep.equal([]);
    });

    describe('a zone above --large-cluster-size-threshold (NodeTimelines copied from the recorded target and its healthy neighbour)', () => {
      const target = outage.analysis.nodes.find((n) => n.name === TARGET) as NodeTimeline;
      const healthy = outage.analysis.nodes.find((n) => n.name === 'rebootlab-worker2') as NodeTimeline;
      const zone = (down: number, up: number): NodeTimeline[] => [
        ...Array.from({ length: down }, (_, i) => ({ ...copy(target), name: `down-${String(i).padStart(2, '0')}`, zone: 'z1', readyAgainReceivedAfterSeconds: null, taints: i === 0 ? copy(target.taints) : [] })),
        ...Array.from({ length: up }, (_, i) => ({ ...copy(healthy), name: `up-${String(i).padStart(2, '0')}`, zone: 'z1' })),
      ];
      const detected = target.notReadyReceivedAfterSeconds as number;
      const firstTaint = target.taints.find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute')?.addedReceivedAfterSeconds as number;

      it('30 of 51 NotReady in one pass: PartialDisruption at --secondary-node-eviction-rate 0.01/s; the swapped limiter starts empty (the first node used the token), so the next node is tainted 100 s after the end of that pass', () => {
        const replay = predictNoExecuteTaints(outage.info.settings, zone(30, 21), 400, []);
        expect(replay.zoneStates).to.deep.equal([{ zone: 'z1', atSeconds: detected, state: 'PartialDisruption', evictionRatePerSecond: 0.01, notReady: 30, total: 51 }]);
        const expected = replay.items.filter((i) => i.expected);
        expect(expected[0].node).to.equal('down-00');
        expect(expected[1].node).to.equal('down-01');
        expect(expected[1].window).to.deep.equal({ fromSeconds: Math.round((detected + 100 - 0.1) * 1000) / 1000, toSeconds: Math.round((detected + 101) * 1000) / 1000 });
        expect(expected[1].because).to.include('--secondary-node-eviction-rate 0.01/s');
        expect(expected[1].cause?.event).to.equal('zone "z1" PartialDisruption: limiter swapped to --secondary-node-eviction-rate 0.01/s with an empty bucket');
        expect(expected[2].window?.fromSeconds).to.be.closeTo(detected + 200 - 0.1, 0.001);
      });

      it('30 of 50 NotReady: a zone of ≤ 50 nodes gets rate 0, only the first is tainted', () => {
        const replay = predictNoExecuteTaints(outage.info.settings, zone(30, 20), 400, []);
        expect(replay.zoneStates[0]).to.deep.include({ state: 'PartialDisruption', evictionRatePerSecond: 0 });
        expect(replay.items.filter((i) => i.expected).map((i) => i.node)).to.deep.equal(['down-00']);
        expect(replay.items.filter((i) => !i.expected)).to.have.length(29);
      });

      // kwok zone-partial-disruption, campaign run r1 (2 Dec 2026): 3 of 4 nodes Ready=Unknown in one pass, none tainted.
      // A pass on kwok can end before the 100 ms tainting loop spends the token, and its end swaps the limiter to rate 0.
      const untaintedZone = (down: number, up: number): NodeTimeline[] => zone(down, up).map((n) => ({ ...n, taints: n.taints.filter((t) => t.effect !== 'NoExecute') }));

      it('3 of 4 NotReady in one pass, none seen tainted (the pass ended before the 100 ms tainting loop ran): all three "must not happen", naming that race, and all held', () => {
        const replay = predictNoExecuteTaints(outage.info.settings, untaintedZone(3, 1), 400, []);
        expect(replay.zoneStates[0]).to.deep.include({ state: 'PartialDisruption', evictionRatePerSecond: 0, notReady: 3, total: 4 });
        expect(replay.items.map((i) => [i.node, i.expected])).to.have.deep.members([['down-00', false], ['down-01', false], ['down-02', false]]);
        expect(replay.items.find((i) => i.node === 'down-00')?.because).to.match(/tainting loop \(every 100 ms\) did not taint down-00 before the end of the monitor pass that swapped zone "z1"'s limiter to rate 0/);
        expect(replay.items.filter((i) => i.node !== 'down-00').every((i) => !/tainting loop/.test(i.because))).to.equal(true);
      });

      it('the same pass, then one node Ready again 40 s later (2 of 4: Normal, the limiter swapped from rate 0 with an empty bucket): the node whose in-pass token was lost is queued again and tainted one token after the swap', () => {
        const nodes = untaintedZone(3, 1).map((n) => (n.name === 'down-02' ? { ...n, readyAgainReceivedAfterSeconds: detected + 40 } : n));
        const replay = predictNoExecuteTaints(outage.info.settings, nodes, 400, []);
        expect(replay.zoneStates.map((z) => [z.state, z.evictionRatePerSecond])).to.deep.equal([['PartialDisruption', 0], ['Normal', 0.1]]);
        const tainted = replay.items.filter((i) => i.expected);
        expect(tainted.map((i) => i.node)).to.deep.equal(['down-00', 'down-01']);
        expect(tainted[0].window?.fromSeconds).to.be.closeTo(detected + 40 + 10 - 0.1, 0.001);
        expect(tainted[1].window?.fromSeconds).to.be.closeTo(detected + 40 + 20 - 0.1, 0.001);
      });

      it('3 of 4 NotReady in one pass, the first seen tainted one token (10 s) later: no token comes at rate 0, so the informer-cache path cannot explain it and it is a miss', () => {
        const nodes = untaintedZone(3, 1).map((n, i) => (i === 0 ? { ...n, taints: copy(target.taints).map((t) => (t.key === UNREACHABLE && t.effect === 'NoExecute' ? { ...t, addedReceivedAfterSeconds: detected + 10.3 } : t)) } : n));
        const replay = predictNoExecuteTaints(outage.info.settings, nodes, 400, []);
        const item = replay.items.find((i) => i.node === 'down-00');
        expect(item).to.deep.include({ expected: false, observedSeconds: detected + 10.3 });
      });

      it('3 of 4 NotReady in one pass, the first seen tainted in its window: it took the token before the swap (unchanged)', () => {
        const replay = predictNoExecuteTaints(outage.info.settings, zone(3, 1), 400, []);
        expect(replay.items.filter((i) => i.expected).map((i) => [i.node, i.window !== null])).to.deep.equal([['down-00', true]]);
        expect(replay.items.filter((i) => !i.expected)).to.have.length(2);
      });

      it('two zones, z1 fully down (2 of 2) and z2 healthy: z1 FullDisruption keeps --node-eviction-rate (no master disruption mode), the second node 10 s after the first', () => {
        const nodes = [...zone(2, 0), ...zone(0, 3).map((n) => ({ ...n, zone: 'z2' }))];
        const replay = predictNoExecuteTaints(outage.info.settings, nodes, 400, []);
        expect(replay.zoneStates).to.deep.equal([{ zone: 'z1', atSeconds: detected, state: 'FullDisruption', evictionRatePerSecond: 0.1, notReady: 2, total: 2 }]);
        const tainted = replay.items.filter((i) => i.expected);
        expect(tainted.map((i) => i.node)).to.deep.equal(['down-00', 'down-01']);
        // Chained on the first taint as received: its token was spent when it was written, up to one observation
        // latency (1 s) before that receipt.
        expect(tainted[1].window?.fromSeconds).to.be.closeTo(firstTaint + 10 - 1 - 0.1, 0.001);
      });

      // CI run of service-outage (2026-12-01): Ready=Unknown received at 18.7 s, the unreachable taint one token
      // (10 s) later, pods evicted at 58.8 s = 30 s tolerationSeconds after it. The tainting loop read the node from a
      // cache that did not yet hold the controller's own Ready=Unknown write (node_lifecycle_controller.go, v1.34.4).
      const lone = (taintDelaySeconds: number): NodeTimeline[] => [{
        ...copy(target), zone: 'z1', readyAgainReceivedAfterSeconds: null,
        taints: copy(target.taints).map((t) => (t.key === UNREACHABLE && t.effect === 'NoExecute' ? { ...t, addedReceivedAfterSeconds: detected + taintDelaySeconds } : t)),
      }, { ...copy(healthy), zone: 'z1' }];

      it('a lone node tainted one token (1 / --node-eviction-rate = 10 s) after its Ready=Unknown: the informer-cache race path, window [T + max(M, 10) − 0.1, T + max(M, 10.1) + 1.1], held and said so', () => {
        expect(outage.info.settings.controllerManager.nodeMonitorPeriodMs).to.equal(5000);
        const item = predictNoExecuteTaints(outage.info.settings, lone(10.12), 400, []).items.find((i) => i.node === TARGET);
        expect(item?.window?.fromSeconds).to.be.closeTo(detected + 9.9, 0.001);
        expect(item?.window?.toSeconds).to.be.closeTo(detected + 11.2, 0.001);
        expect(item?.because).to.match(/informer cache before its own Ready=Unknown write/);
        expect(item?.cause?.atSeconds).to.be.closeTo(detected, 0.001);
      });

      it('a lone node tainted 6 s or 12 s after its Ready=Unknown fits neither path: the first window is kept and the taint is a miss', () => {
        for (const delay of [6, 12]) {
          const item = predictNoExecuteTaints(outage.info.settings, lone(delay), 400, []).items.find((i) => i.node === TARGET);
          expect(item?.window?.fromSeconds, String(delay)).to.be.closeTo(detected - 0.1, 0.001);
          expect(item?.because).to.match(/in the monitor pass that saw it NotReady/);
          expect(item?.observedSeconds as number).to.be.greaterThan(item?.window?.toSeconds as number);
        }
        const judged = run(outage.observations).predictions.items.find((i) => i.event === 'no-execute-taint' && i.node === TARGET);
        expect(judged?.held).to.equal(true);
      });

      it('2 of 51 NotReady in one pass (zone stays Normal): the second waits one --node-eviction-rate token, 10 s after the first taint as observed', () => {
        const replay = predictNoExecuteTaints(outage.info.settings, zone(2, 49), 400, []);
        expect(replay.zoneStates).to.deep.equal([]);
        const second = replay.items.find((i) => i.node === 'down-01');
        expect(second?.window?.fromSeconds).to.be.closeTo(firstTaint + 10 - 1 - 0.1, 0.001);
        expect(second?.window?.toSeconds).to.be.closeTo(firstTaint + 10 + 1, 0.001);
        expect(second?.cause?.event).to.equal('previous NoExecute taint in zone "z1" (on down-00, received)');
      });

      it('4 of 51 NotReady in one pass: each token goes to the waiting node seen tainted first, not by name (every pass re-queues them in its lister\'s order); slots stay 10 s apart', () => {
        // down-03 tainted one token after down-00, down-01 two tokens after, down-02 never seen tainted.
        const nodes = zone(4, 48).map((n) => {
          const delay = { 'down-03': 10.05, 'down-01': 20.1 }[n.name];
          if (delay === undefined) return n;
          return { ...n, taints: copy(target.taints).map((t) => ({ ...t, addedReceivedAfterSeconds: (t.addedReceivedAfterSeconds as number) + delay, addedAfterSeconds: (t.addedAfterSeconds as number) + delay })) };
        });
        const replay = predictNoExecuteTaints(outage.info.settings, nodes, 400, []);
        const tainted = replay.items.filter((i) => i.expected && i.event === 'no-execute-taint');
        expect(tainted.map((i) => i.node)).to.deep.equal(['down-00', 'down-03', 'down-01', 'down-02']);
        expect(tainted[1].cause?.event).to.equal('previous NoExecute taint in zone "z1" (on down-00, received)');
        expect(tainted[2].cause?.event).to.equal('previous NoExecute taint in zone "z1" (on down-03, received)');
        expect(tainted[2].window?.fromSeconds).to.be.closeTo(firstTaint + 10.05 + 10 - 1 - 0.1, 0.001);
        expect(tainted[3].window?.fromSeconds).to.be.closeTo(firstTaint + 20.1 + 10 - 1 - 0.1, 0.001);
        expect(tainted[3].observedSeconds).to.equal(null);
      });

      it('10 of 100 NotReady in one pass, a Ready pod on each: the in-pass taint may wait for the controller\'s client tokens (60 writes + 2 − burst 30 at 20/s = 1.6 s); with the limits lifted it may not', () => {
        // The live kwok run of eviction-rate-large-zone (2 Dec 2026) received its first taint 1.081 s after that node's Ready=Unknown.
        const nodes = zone(10, 90).map((n) => (n.name !== 'down-00' ? n : { ...n, taints: copy(target.taints).map((t) => ({ ...t, addedReceivedAfterSeconds: detected + 1.081 })) }));
        const pods = nodes.filter((n) => n.name.startsWith('down-')).map((n) => ({ nodeBefore: n.name, notReadyReceivedAfterSeconds: detected + 0.2 }));
        const first = (settings: typeof outage.info.settings) => predictNoExecuteTaints(settings, nodes, 400, [], pods).items.find((i) => i.expected && i.node === 'down-00');
        const throttled = first(outage.info.settings);
        expect(throttled?.window?.toSeconds).to.be.closeTo(detected + 1 + (10 * 4 + 10 * 2 + 2 - 30) / 20, 0.001);
        expect(throttled?.because).to.include('that pass wrote 60 requests through the controller\'s client').and.include('--kube-api-qps 20/s');
        expect(throttled!.observedSeconds!).to.be.within(throttled!.window!.fromSeconds, throttled!.window!.toSeconds);
        const lifted = structuredClone(outage.info.settings);
        Object.assign(lifted.controllerManager, { kubeAPIQPS: 5000, kubeAPIBurst: 10000 });
        const unthrottled = first(lifted);
        expect(unthrottled?.window?.toSeconds).to.be.closeTo(detected + 1, 0.001);
        expect(unthrottled!.observedSeconds!).to.be.above(unthrottled!.window!.toSeconds);
        // A pass that fits in the burst (3 nodes, no pod: 12 writes) leaves the window as it was.
        const small = predictNoExecuteTaints(outage.info.settings, zone(3, 97), 400, [], []).items.find((i) => i.expected && i.node === 'down-00');
        expect(small?.window?.toSeconds).to.be.closeTo(detected + 1, 0.001);
        expect(small?.because).to.not.include('requests through the controller');
      });

      it('a pass of 30 NotReady nodes with pods: each of the taint\'s two requests waits at most behind the controller\'s 17 other writers (36 / qps), not behind every write', () => {
        const nodes = zone(30, 21);
        const pods = nodes.filter((n) => n.name.startsWith('down-')).flatMap((n) => [0, 1, 2].map(() => ({ nodeBefore: n.name, notReadyReceivedAfterSeconds: detected })));
        const item = predictNoExecuteTaints(outage.info.settings, nodes, 400, [], pods).items.find((i) => i.expected && i.node === 'down-00');
        expect(item?.window?.toSeconds).to.be.closeTo(detected + 1 + 36 / 20, 0.001);
        expect(item?.because).to.include('17 other writers');
      });
    });
  });

  describe('observer lag (recorded kind run on a loaded machine, kubelet-stop)', () => {
    const lagged = loadFixtureRun('kind-kubelet-stop-lagged-recorded');
    const item = () => lagged.analysis.predictions.items.find((i) => i.event === 'pod-eviction' && i.pod === 'rebootlab/web-574bfd877-4mht5');

    it('an eviction received 0.876 s after its window closed holds: the Lease updates received then were 2.2 s late (the controller acted at 54.141 s, DisruptionTarget lastTransitionTime)', () => {
      expect(item()).to.deep.include({ held: true, observedSeconds: 57.581, observerLagSeconds: 2.192, window: { fromSeconds: 54.141, toSeconds: 56.705 } });
      expect(item()?.because).to.include("within the observer's lag measured then (2.192 s");
      expect(lagged.analysis.predictions.missed).to.deep.equal([]);
    });

    it('the same journal without the late Lease updates misses it: the lag is measured, never assumed', () => {
      const withoutLate = lagged.observations.filter((o) => !(o.type === 'object' && o.kind === 'Lease' && o.receivedAtMs - Date.parse(String((o.object as { spec?: { renewTime?: string } }).spec?.renewTime)) > 1000));
      const a = analyze(withoutLate, { settings: lagged.info.settings, workloads: lagged.info.workloads });
      const miss = a.predictions.missed.find((i) => i.event === 'pod-eviction' && i.pod === 'rebootlab/web-574bfd877-4mht5');
      expect(miss).to.deep.include({ held: false, observedSeconds: 57.581 });
      expect(miss).to.not.have.property('observerLagSeconds');
    });
  });

  describe('evictions and PodGC', () => {
    it('eviction = taint as received + that key\'s tolerationSeconds (recorded outage-tuned): 30 s after the unreachable taint; the DaemonSet pod tolerates it forever', () => {
      const taint = outage.analysis.nodes.find((n) => n.name === TARGET)?.taints.find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute');
      const web = predictionItem(outage.analysis, 'pod-eviction@web-5f5b5b77d7-dg2wh');
      expect(web).to.deep.include({ taintKey: UNREACHABLE, held: true });
      // The controller sees the taint no earlier than its server timeAdded, nor more than 1 s before our receipt.
      expect(web?.window?.fromSeconds).to.be.closeTo(Math.max(taint!.addedAfterSeconds!, taint!.addedReceivedAfterSeconds! - 1) + 30, 0.001);
      expect(web?.window?.toSeconds).to.be.closeTo(taint!.addedReceivedAfterSeconds! + 30 + 2, 0.001);
      expect(web?.because).to.include('--default-unreachable-toleration-seconds');
      expect(predictionItem(outage.analysis, 'pod-eviction@kube-proxy-dnl2w')).to.deep.include({ expected: false, held: true });
    });

    describe('tolerations as the taint eviction controller reads them (taint_eviction.go processPodOnNode, v1.34.4)', () => {
      const zero = timeZeroMarker(outage.observations);
      /** The recorded journal with every record of pod `solo` given `tolerations`. */
      const soloTolerating = (tolerations: Record<string, unknown>[]): Observation[] => outage.observations.map((o) => {
        if (o.type !== 'object' || o.kind !== 'Pod' || o.name !== 'solo') return o;
        const c = copy(o);
        (c.object.spec as Record<string, unknown>).tolerations = tolerations;
        return c;
      });
      const unreachable = (extra: Record<string, unknown>) => ({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', ...extra });

      it('per taint the FIRST matching toleration counts (GetMatchingTolerations), not the smallest over all matches: [30 s, 10 s] evicts 30 s after the taint (recorded 52.3 s), held', () => {
        const eviction = predictionItem(run(soloTolerating([unreachable({ tolerationSeconds: 30 }), unreachable({ tolerationSeconds: 10 })])), 'pod-eviction@solo')!;
        expect(eviction.because).to.include('+ 30 s toleration');
        expect(eviction).to.deep.include({ observedSeconds: 52.314, held: true });
        // The reverse order: the 10 s toleration is the first match, so the recorded eviction at 52.3 s is 20 s late: a miss.
        expect(predictionItem(run(soloTolerating([unreachable({ tolerationSeconds: 10 }), unreachable({ tolerationSeconds: 30 })])), 'pod-eviction@solo')?.held).to.equal(false);
      });

      it('an Equal toleration compares the value (Toleration.ToleratesTaint): value "x" does not tolerate the valueless unreachable taint, so its 5 s is not used; the next, 30 s, is', () => {
        const a = run(soloTolerating([{ key: UNREACHABLE, operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 5 }, unreachable({ tolerationSeconds: 30 })]));
        expect(a.pods.find((p) => p.name === 'solo')?.tolerations.unreachableTolerationSeconds).to.equal(30);
        expect(predictionItem(a, 'pod-eviction@solo')).to.deep.include({ observedSeconds: 52.314, held: true });
        // Only the Equal "x" toleration: the taint is not tolerated, so the pod goes at once (the recorded 52.3 s is a miss).
        const alone = run(soloTolerating([{ key: UNREACHABLE, operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 5 }]));
        expect(predictionItem(alone, 'pod-eviction@solo')?.because).to.include('not tolerated: evicted at once');
      });

      it('a taint change that leaves the pod tolerating every NoExecute taint forever cancels its countdown (journal edited: at 35 s the unreachable taint is replaced by example.com/drain, which solo tolerates without tolerationSeconds; solo is then never evicted)', () => {
        const atMs = (s: number) => zero.receivedAtMs + s * 1000;
        const drain = { key: 'example.com/drain', effect: 'NoExecute', timeAdded: new Date(Math.floor(atMs(35) / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
        const lastTainted = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === TARGET && o.receivedAtMs < atMs(35)).at(-1) as ObjectObservation;
        let journal: Observation[] = [...soloTolerating([unreachable({ tolerationSeconds: 30 }), { key: 'example.com/drain', operator: 'Exists', effect: 'NoExecute' }]), { ...copy(lastTainted), verb: 'MODIFIED', receivedAtMs: atMs(35) }];
        journal = editNode(journal, TARGET, (o, rec) => {
          if (rec.receivedAtMs < atMs(35)) return;
          const spec = o.spec as { taints?: Record<string, unknown>[] };
          spec.taints = [...(spec.taints ?? []).filter((t) => t.key !== UNREACHABLE || t.effect !== 'NoExecute'), drain];
        });
        // solo is not evicted after 35 s: its records from then on are dropped (it stays bound, Running on the dead node).
        journal = journal.filter((o) => !(o.type === 'object' && o.kind === 'Pod' && o.name === 'solo' && o.receivedAtMs > atMs(35)));
        const eviction = predictionItem(run(mergeJournal(journal)), 'pod-eviction@solo')!;
        expect(eviction).to.deep.include({ expected: false, observedSeconds: null, held: true, taintKey: 'example.com/drain' });
        expect(eviction.because).to.include('cancels a scheduled eviction when the pod tolerates every NoExecute taint left forever');
        expect(eviction.cause?.atSeconds).to.equal(35);
      });
    });

    it('case C10, journal edited from the recorded outage-tuned run (out-of-service taint at 2 s, web and solo evicted at once, force-deleted by PodGC at 32 s): kept apart from the unreachable taint, every step predicted', () => {
      const zero = timeZeroMarker(outage.observations);
      const atMs = (s: number) => zero.receivedAtMs + s * 1000;
      const oos = { key: OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute', timeAdded: new Date(Math.floor(atMs(2) / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
      const lastNodeBefore = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === TARGET && o.seq < zero.seq).at(-1) as ObjectObservation;
      let journal: Observation[] = [...outage.observations, { ...copy(lastNodeBefore), verb: 'MODIFIED', receivedAtMs: atMs(2) }];
      journal = editNode(journal, TARGET, (o, rec) => {
        if (rec.receivedAtMs < atMs(2)) return;
        const spec = o.spec as { taints?: unknown[] };
        spec.taints = [...(spec.taints ?? []), oos];
      });
      // web and solo do not tolerate out-of-service: deletionTimestamp at 2.3 s; PodGC force-deletes them at 32 s.
      const victims = new Map<string, ObjectObservation>();
      for (const o of journal) if (o.type === 'object' && o.kind === 'Pod' && o.seq < zero.seq && (o.object.spec as { nodeName?: string }).nodeName === TARGET && /^(web|solo)/.test(o.name)) victims.set(o.uid, o);
      journal = journal.filter((o) => !(o.type === 'object' && victims.has(o.uid) && o.seq > zero.seq));
      for (const before of victims.values()) {
        const evicted = copy(before);
        evicted.verb = 'MODIFIED';
        evicted.receivedAtMs = atMs(2.3);
        (evicted.object.metadata as Record<string, unknown>).deletionTimestamp = new Date(Math.floor(atMs(2.3) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
        journal.push(evicted, { ...copy(evicted), verb: 'DELETED', receivedAtMs: atMs(32) });
      }
      const a = run(mergeJournal(journal));
      const node = a.nodes.find((n) => n.name === TARGET) as NodeTimeline;
      expect(node.outOfServiceTaintAfterSeconds).to.equal(Math.round((Math.floor(atMs(2) / 1000) * 1000 - zero.receivedAtMs)) / 1000);
      expect(node.noExecuteTaintAfterSeconds, 'the unreachable taint, not the out-of-service one').to.equal(outage.analysis.nodes.find((n) => n.name === TARGET)?.noExecuteTaintAfterSeconds);
      const eviction = predictionItem(a, 'pod-eviction@solo');
      expect(eviction).to.deep.include({ taintKey: OUT_OF_SERVICE, held: true, observedSeconds: 2.3 });
      expect(eviction?.because).to.include('not tolerated: evicted at once');
      const gc = predictionItem(a, 'pod-deleted@solo');
      expect(gc).to.deep.include({ held: true, observedSeconds: 32 });
      expect(gc?.cause?.event).to.equal(`${TARGET} NotReady (received)`);
      expect(gc?.because).to.include('PodGC force-deletes terminating pods of a NotReady node with the node.kubernetes.io/out-of-service taint');
      expect(predictionItem(a, `no-execute-taint/unreachable@${TARGET}`)?.held).to.equal(true);
      expect(missedText(a).filter((m) => !m.startsWith('replacement-created'))).to.deep.equal([]);
    });

    it('PodGC\'s out-of-service cleanup matches the taint key with any effect (gc_controller.go gcTerminating, taints.TaintKeyExists, v1.34.4): journal edited from outage-tuned, node.kubernetes.io/out-of-service:NoSchedule at 60 s on the NotReady node, the terminating pods force-deleted at 70 s, inside [60 − 0.1, 60 + 20 + 1]', () => {
      const zero = timeZeroMarker(outage.observations);
      const atMs = (s: number) => zero.receivedAtMs + s * 1000;
      const oos = { key: OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoSchedule', timeAdded: new Date(Math.floor(atMs(60) / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
      const lastNode = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === TARGET && o.receivedAtMs < atMs(60)).at(-1) as ObjectObservation;
      let journal: Observation[] = [...outage.observations, { ...copy(lastNode), verb: 'MODIFIED', receivedAtMs: atMs(60) }];
      journal = editNode(journal, TARGET, (o, rec) => {
        if (rec.receivedAtMs < atMs(60)) return;
        const spec = o.spec as { taints?: unknown[] };
        spec.taints = [...(spec.taints ?? []), oos];
      });
      const terminating = new Map<string, ObjectObservation>();
      for (const o of journal) if (o.type === 'object' && o.kind === 'Pod' && /^(web-5f5b5b77d7-(dg2wh|s6gw8)|solo)$/.test(o.name) && o.receivedAtMs < atMs(60)) terminating.set(o.uid, o);
      journal = journal.filter((o) => !(o.type === 'object' && terminating.has(o.uid) && o.receivedAtMs >= atMs(60)));
      for (const last of terminating.values()) journal.push({ ...copy(last), verb: 'DELETED', receivedAtMs: atMs(70) });
      const a = run(mergeJournal(journal));
      const gc = predictionItem(a, 'pod-deleted@solo')!;
      expect(gc).to.deep.include({ held: true, observedSeconds: 70 });
      expect(gc.window?.toSeconds).to.equal(81);
      expect(gc.because).to.include('any effect: NoSchedule here');
      expect(predictionItem(a, 'pod-eviction@solo')?.taintKey, 'a NoSchedule taint evicts nothing: the eviction is still the unreachable taint\'s').to.equal(UNREACHABLE);
    });

    it('the taint eviction controller\'s own client (4 requests per evicted pod, burst 30, 20/s): journal edited from outage-tuned with 40 pods on the target, the k-th deleted (4(k+1) − 30) / 20 s after the first, up to 6.45 s late: all held; with the burst lifted to 1000 the late ones miss', () => {
      const zero = timeZeroMarker(outage.observations);
      const solo = outage.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Pod' && o.name === 'solo');
      const evictedAt = solo.find((o) => (o.object.metadata as Record<string, unknown>).deletionTimestamp)!.receivedAtMs;
      const copies: Observation[] = [];
      for (let k = 1; k < 40; k++) {
        const delayMs = Math.max(0, (4 * (k + 1) - 30) / 20) * 1000;
        for (const o of solo) {
          const c = copy(o);
          c.name = `solo-${k}`;
          c.uid = `${o.uid}-${k}`;
          (c.object.metadata as Record<string, unknown>).name = c.name;
          (c.object.metadata as Record<string, unknown>).uid = c.uid;
          if (o.receivedAtMs >= evictedAt) c.receivedAtMs += delayMs;
          copies.push(c);
        }
      }
      const journal = mergeJournal(outage.observations, copies);
      const a = run(journal);
      const last = predictionItem(a, 'pod-eviction@solo-39')!;
      expect(last.observedSeconds).to.be.closeTo((evictedAt - zero.receivedAtMs) / 1000 + 6.5, 0.01);
      expect(last.held).to.equal(true);
      expect(last.because).to.include('pods evicted at once by the taint eviction controller send');
      const lifted = { ...outage.info, settings: { ...outage.info.settings, controllerManager: { ...outage.info.settings.controllerManager, kubeAPIBurst: 1000 } } };
      const missed = run(journal, lifted).predictions.missed.filter((i) => i.event === 'pod-eviction');
      expect(missed.length).to.be.above(20);
    });

    it('a Ready=False the kubelet reported costs the node lifecycle controller only its NoSchedule taint (recorded runtime-stop: no pod marked NotReady by the controller, the NodeNotReady Event from the kubelet): 10 such nodes with pods in one pass throttle nothing, 10 Unknown ones do', () => {
      const runtimeStop = loadFixtureRun('kind-runtime-stop-recorded').analysis;
      const node = runtimeStop.nodes.find((n) => n.faultTarget)!;
      expect(node.notReadyStatus).to.equal('False');
      for (const p of runtimeStop.pods.filter((x) => x.nodeBefore === node.name && x.notReadyReceivedAfterSeconds !== null)) expect(p.notReadyReceivedAfterSeconds! - node.notReadyReceivedAfterSeconds!).to.be.above(60);
      expect(runtimeStop.events.filter((e) => e.reason === 'NodeNotReady' && e.object === `Node/${node.name}`).map((e) => e.source)).to.deep.equal(['kubelet']);
      const nodes = (readyStatus: 'Unknown' | 'False') => Array.from({ length: 10 }, (_, i) => ({ name: `w${i}`, atSeconds: 20, readyStatus, podsNotReadyAtSeconds: [20.1, 20.2, 20.3] }));
      expect(noScheduleThrottle({ qps: 20, burst: 30 }, nodes('False'), 1).size).to.equal(0);
      expect(noScheduleThrottle({ qps: 20, burst: 30 }, nodes('Unknown'), 1).get('w0')?.waitSeconds).to.equal(1.8);
    });

    it('the NoSchedule taint shares the node lifecycle controller\'s client (recorded kwok large zone: 9 nodes NotReady within 0.05 s, one pass of 9 × 6 writes, the 10th a second later alone): the 9 windows are widened by the token wait, 1.8 s, and held; the lone one is not widened', () => {
      const a = loadFixtureRun('kwok-eviction-rate-large-zone-recorded').analysis;
      const items = a.predictions.items.filter((i) => i.event === 'no-schedule-taint');
      const widened = items.filter((i) => i.because.includes('which the NoSchedule taint shares'));
      expect(widened.map((i) => i.node)).to.have.length(9).and.not.include('rebootlab-worker16');
      expect(items.every((i) => i.held === true)).to.equal(true);
    });

    it('node deletion (recorded node-delete-podgc run): pods deleted by PodGC in [D + 40, D + 80] s from the observed Node deletion', () => {
      const a = loadFixtureRun('kind-node-delete-podgc-recorded').analysis;
      const deleted = a.predictions.items.filter((i) => i.event === 'pod-deleted');
      expect(deleted.length).to.equal(5);
      expect(deleted.every((i) => i.held === true && i.cause?.event === 'Node rl-api-e2e-worker deleted (received)' && i.window?.fromSeconds === 42.093)).to.equal(true);
    });
  });

  it('kubelet-reported NotReady (synthetic reboot-quick journal): the not-ready taint is predicted, never the unreachable one', () => {
    const a = loadFixtureRun('reboot-quick').analysis;
    expect(a.predictions.items.filter((i) => i.taintKey === UNREACHABLE)).to.deep.equal([]);
    expect(predictionItem(a, 'no-execute-taint/not-ready@kind-worker')).to.deep.include({ expected: true, held: true });
    expect(predictionItem(a, 'node-not-ready-kubelet@kind-worker')?.notModelled).to.match(/^not modelled: /);
  });

  it('kube-controller-manager leader change, journal edited from the recorded outage-tuned run (the old holder renews last at -5 s, a new one acquires at 10 s): detection across it is not modelled', () => {
    const zero = timeZeroMarker(outage.observations);
    const nodeLease = outage.observations.find((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Lease') as ObjectObservation;
    const kcm = (holder: string, atMs: number, acquired: boolean): ObjectObservation => {
      const l = copy(nodeLease);
      l.namespace = 'kube-system';
      l.name = 'kube-controller-manager';
      l.verb = 'MODIFIED';
      l.receivedAtMs = atMs;
      const spec = l.object.spec as Record<string, unknown>;
      spec.holderIdentity = holder;
      spec.renewTime = new Date(atMs).toISOString();
      if (acquired) spec.acquireTime = spec.renewTime;
      return l;
    };
    const a = run(mergeJournal([...outage.observations, kcm('cp_a', zero.receivedAtMs - 5000, false), kcm('cp_b', zero.receivedAtMs + 10_000, true)]));
    expect(predictionItem(a, `node-not-ready@${TARGET}`)?.notModelled).to.equal("not modelled: kube-controller-manager leader changed (old holder's last renewal -5 s, new holder acquired 10 s); the new leader restarts the grace period from its own first pass");
    expect(a.warnings).to.include("kube-controller-manager leader changed (old holder's last renewal -5 s, new holder acquired 10 s): its first pass was not seen (no RegisteredNode Event): countdowns across it are not modelled");
  });

  it('kube-controller-manager restart (recorded kind journal): the old countdown dies with the old leader; the new leader\'s first pass re-adds the taint and the evictions count from it', () => {
    const cm = loadFixtureRun('kind-controller-manager-restart-recorded').analysis;
    const evictions = cm.predictions.items.filter((i) => i.event === 'pod-eviction' && i.pod?.startsWith('rebootlab/'));
    expect(evictions.map((i) => [i.held, i.window, i.cause?.atSeconds])).to.deep.equal(Array(2).fill([true, { fromSeconds: 84.102, toSeconds: 86.438 }, 54.438]));
    expect(evictions[0].because).to.match(/counted by the new leader: the old leader's countdown died with it/);
    // Detection (20.1 s) and the taint (20.4 s) came before the old leader's last renewal (35.587 s): modelled as usual.
    expect(predictionItem(cm, 'node-not-ready@rebootlab-scripts-worker')).to.deep.include({ held: true });
    expect(predictionItem(cm, 'no-execute-taint/unreachable@rebootlab-scripts-worker')).to.deep.include({ held: true });
  });

  it('kube-controller-manager restart, journal edited: without the new leader\'s taint removal and re-add its first pass starts the countdown; without a RegisteredNode Event, or with the old leader renewing until 49 s (it may have evicted at 50.1 s itself), the evictions are not modelled', () => {
    const recorded = loadFixtureRun('kind-controller-manager-restart-recorded');
    const evictionNotes = (a: RunAnalysis): (string | undefined)[] => a.predictions.items.filter((i) => i.event === 'pod-eviction' && i.pod?.startsWith('rebootlab/')).map((i) => i.notModelled);
    // The Node records of the new leader's re-taint (removal at 54.343 s, re-add at 54.438 s) dropped: the taint it
    // found counts from its first pass, [acquired + 30, first RegisteredNode received + 30 + 3] s.
    const worker = recorded.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Node' && o.name === 'rebootlab-scripts-worker');
    const zeroMs = timeZeroMarker(recorded.observations).receivedAtMs;
    const reTaint = new Set(worker.filter((o) => o.receivedAtMs >= zeroMs + 54_300 && o.receivedAtMs <= zeroMs + 54_500).map((o) => o.seq));
    expect(reTaint.size).to.be.at.least(2);
    const fromPass = run(recorded.observations.filter((o) => !reTaint.has(o.seq) && !(o.type === 'object' && o.kind === 'Node' && o.name === 'rebootlab-scripts-worker' && o.receivedAtMs > zeroMs + 54_300 && o.receivedAtMs < zeroMs + 60_000)), recorded.info);
    const passItems = fromPass.predictions.items.filter((i) => i.event === 'pod-eviction' && i.pod?.startsWith('rebootlab/'));
    expect(passItems.map((i) => [i.held, i.window, i.cause?.event])).to.deep.equal(Array(2).fill([true, { fromSeconds: 82.794, toSeconds: 87.319 }, 'kube-controller-manager leader acquired its Lease (acquireTime) with node.kubernetes.io/unreachable:NoExecute on rebootlab-scripts-worker; its first pass received at 54.319 s']));

    const noFirstPass = recorded.observations.filter((o) => !(o.type === 'object' && o.kind === 'Event' && (o.object as { reason?: string }).reason === 'RegisteredNode'));
    const withoutPass = run(noFirstPass, recorded.info);
    expect(evictionNotes(withoutPass)).to.deep.equal(Array(2).fill("not modelled: kube-controller-manager leader changed (old holder's last renewal 35.587 s, new holder acquired 52.794 s); the new leader's taint eviction controller schedules evictions from its own start, and no RegisteredNode Event shows its first pass"));
    expect(withoutPass.predictions.missed).to.deep.equal([]);

    const zero = timeZeroMarker(recorded.observations);
    const leases = recorded.observations.filter((o): o is ObjectObservation => o.type === 'object' && o.kind === 'Lease' && o.name === 'kube-controller-manager');
    const oldHolder = copy(leases.filter((l) => l.receivedAtMs < zero.receivedAtMs + 40_000).at(-1)!);
    oldHolder.receivedAtMs = zero.receivedAtMs + 49_000;
    (oldHolder.object.spec as Record<string, unknown>).renewTime = new Date(zero.receivedAtMs + 49_000).toISOString();
    const lateOld = run(mergeJournal(recorded.observations, [oldHolder]), recorded.info);
    expect(evictionNotes(lateOld)).to.deep.equal(Array(2).fill("not modelled: kube-controller-manager leader changed (old holder's last renewal 49 s, new holder acquired 52.794 s); the old leader may have evicted before it went"));
  });

  it('a pod evicted through the Eviction API (journal edited from outage-tuned: DisruptionTarget EvictionByEvictionAPI at 40 s, before its 52.05 s taint eviction window): not modelled, not a miss', () => {
    const zero = timeZeroMarker(outage.observations);
    const at = new Date(zero.receivedAtMs + 40_000).toISOString();
    const journal = outage.observations.map((o) => {
      if (o.type !== 'object' || o.kind !== 'Pod' || o.name !== 'web-5f5b5b77d7-dg2wh' || o.receivedAtMs < zero.receivedAtMs + 40_000 || o.object.status === undefined) return o;
      const c = copy(o);
      const status = (c.object.status ?? {}) as { conditions?: unknown[] };
      const others = (status.conditions ?? []).filter((x) => (x as { type?: string }).type !== 'DisruptionTarget');
      status.conditions = [...others, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', lastTransitionTime: at }];
      c.object.status = status;
      return c;
    });
    const item = predictionItem(run(journal), 'pod-eviction@web-5f5b5b77d7-dg2wh');
    expect(item?.notModelled).to.equal('not modelled: evicted through the Eviction API at 40 s (DisruptionTarget reason EvictionByEvictionAPI: a drain or another client), not by the taint eviction controller');
    expect(item?.held).to.equal(null);
  });

  it('outage from the fault: under kubelet-stop the client figure equals the API figure (journal edited: the recorded markers say kubelet-stop)', () => {
    const journal = outage.observations.map((o) => (o.type === 'phase' && o.phase.startsWith('fault-') ? ({ ...copy(o), detail: { ...(o as PhaseObservation).detail, type: 'kubelet-stop' } }) : o));
    const web = run(journal).workloads.find((w) => w.name === 'web');
    expect(web?.unavailableSeconds).to.equal(web?.apiUnavailableSeconds);
    // The recorded power-off: clients lost both pods at time zero.
    expect(outage.analysis.workloads.find((w) => w.name === 'web')).to.deep.include({ unavailableSeconds: 54.671, apiUnavailableSeconds: 32.303, unavailableAfterSeconds: 0 });
  });
});
