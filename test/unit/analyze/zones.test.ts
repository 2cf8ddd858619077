// The zone replay (lib/analyze/zones/): the limiter's SwapLimiter semantics, the zone key, and the choices the
// observation makes apart from the model (chosenBy), on recorded kind and kwok runs and timelines copied from them.
import { expect } from 'chai';
import { blindChoices, observedChoices, predictNoExecuteTaints, zoneKeyOf } from '../../../lib/analyze/predict-zones.js';
import type { NodeTimeline } from '../../../lib/analyze/types.js';
import { copy } from './edited-journals.js';
import { loadFixtureRun, predictionItem } from './fixture-runs.js';

const outage = loadFixtureRun('kind-outage-tuned-recorded');
const target = outage.analysis.nodes.find((n) => n.name === 'rebootlab-worker') as NodeTimeline;
const healthy = outage.analysis.nodes.find((n) => n.name === 'rebootlab-worker2') as NodeTimeline;
const detected = target.notReadyReceivedAfterSeconds as number;

/** `down` copies of the recorded target (untainted), `up` copies of its healthy neighbour, all in zone z1. */
function zone(down: number, up: number): NodeTimeline[] {
  return [
    ...Array.from({ length: down }, (_, i) => ({ ...copy(target), name: `down-${i}`, zone: 'z1', readyAgainReceivedAfterSeconds: null, taints: copy(target.taints).filter((t) => t.effect !== 'NoExecute') })),
    ...Array.from({ length: up }, (_, i) => ({ ...copy(healthy), name: `up-${i}`, zone: 'z1' })),
  ];
}

describe('analyze/zones', () => {
  describe('zoneKeyOf (GetZoneKey, component-helpers/node/topology, v1.34)', () => {
    it('zone alone, region/zone, the legacy labels preferred where set (even empty), "" when unlabelled', () => {
      expect(zoneKeyOf({ 'topology.kubernetes.io/zone': 'a' })).to.equal('a');
      expect(zoneKeyOf({ 'topology.kubernetes.io/zone': 'a', 'topology.kubernetes.io/region': 'r' })).to.equal('r/a');
      expect(zoneKeyOf({ 'topology.kubernetes.io/zone': 'a', 'failure-domain.beta.kubernetes.io/zone': 'old' })).to.equal('old');
      expect(zoneKeyOf({ 'topology.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/region': 'old-r', 'topology.kubernetes.io/zone': 'a' })).to.equal('old-r/a');
      expect(zoneKeyOf({ 'topology.kubernetes.io/zone': 'a', 'failure-domain.beta.kubernetes.io/zone': '' })).to.equal('');
      expect(zoneKeyOf({})).to.equal('');
    });

    it('two nodes with the same zone label in different regions are two zones: 2 of 2 down in one is FullDisruption, not 2 of 4', () => {
      const nodes = zone(2, 2).map((n, i) => ({ ...n, zone: i < 2 ? 'r1/a' : 'r2/a' }));
      const replay = predictNoExecuteTaints(outage.info.settings, nodes, 400, []);
      expect(replay.zoneStates.map((z) => [z.zone, z.state])).to.deep.equal([['r1/a', 'FullDisruption']]);
    });
  });

  describe('SwapLimiter (rate_limited_queue.go, v1.34)', () => {
    // 3 of 4 NotReady in one pass, none tainted (the pass ended first): PartialDisruption at rate 0; one node Ready
    // again 40 s later: Normal (2 of 4), the limiter swapped back to --node-eviction-rate.
    const backAgain = () => zone(3, 1).map((n) => (n.name === 'down-2' ? { ...n, readyAgainReceivedAfterSeconds: detected + 40 } : n));

    it('--node-eviction-rate 0.5: leaving rate 0 starts an empty bucket; the two still down are tainted 2 s and 4 s after the swap', () => {
      const settings = { ...outage.info.settings, controllerManager: { ...outage.info.settings.controllerManager, nodeEvictionRate: 0.5 } };
      const replay = predictNoExecuteTaints(settings, backAgain(), 400, []);
      expect(replay.zoneStates.map((z) => [z.state, z.evictionRatePerSecond])).to.deep.equal([['PartialDisruption', 0], ['Normal', 0.5]]);
      expect(replay.items.filter((i) => i.expected).map((i) => [i.node, i.window?.fromSeconds])).to.deep.equal([['down-0', Math.round((detected + 42 - 0.1) * 1000) / 1000], ['down-1', Math.round((detected + 44 - 0.1) * 1000) / 1000]]);
    });

    it('--node-eviction-rate exactly 1.0: the never-limiter of rate 0 reports QPS 1, so the swap back is skipped and nothing is tainted until the controller restarts', () => {
      const settings = { ...outage.info.settings, controllerManager: { ...outage.info.settings.controllerManager, nodeEvictionRate: 1 } };
      const replay = predictNoExecuteTaints(settings, backAgain(), 400, []);
      expect(replay.zoneStates.map((z) => [z.state, z.evictionRatePerSecond])).to.deep.equal([['PartialDisruption', 0], ['Normal', 0]]);
      const untainted = replay.items.filter((i) => !i.expected && (i.node === 'down-0' || i.node === 'down-1'));
      expect(untainted).to.have.length(2);
      expect(untainted[0].because).to.match(/exactly 1 node\/s: the never-limiter of rate 0 reports QPS 1/);
    });
  });

  describe('choices: the observation apart from the model', () => {
    it('the blind replay never reads a taint; on the kwok large zone it gives the first detected node the first token, by name', () => {
      const kwok = loadFixtureRun('kwok-eviction-rate-large-zone-recorded');
      const input = [kwok.info.settings, kwok.analysis.nodes, kwok.analysis.endAfterSeconds, []] as const;
      const blind = predictNoExecuteTaints(...input, [], blindChoices).items.filter((i) => i.expected);
      const observed = predictNoExecuteTaints(...input, [], observedChoices).items.filter((i) => i.expected);
      // Slot times are the same; which node fills which slot is what the observation decides.
      expect(blind).to.have.length(observed.length);
      const firstDetected = [...kwok.analysis.nodes].filter((n) => n.notReadyReceivedAfterSeconds !== null).sort((a, b) => (a.notReadyReceivedAfterSeconds as number) - (b.notReadyReceivedAfterSeconds as number))[0];
      expect(blind[0].node).to.equal(firstDetected.name);
      expect(blind[0].observedSeconds, 'judged against the journal all the same').to.equal(observed.find((i) => i.node === firstDetected.name)?.observedSeconds);
      // rebootlab-worker was seen tainted last (113.5 s); the blind replay gives it the first token after the in-pass one.
      expect(observed.find((i) => i.node === 'rebootlab-worker')?.window?.fromSeconds).to.be.above(100);
      expect(blind.find((i) => i.node === 'rebootlab-worker')?.window?.fromSeconds).to.be.below(40);
    });

    it('kwok large zone: 9 of 10 taints explained (the token order read from the run), every blind window of those a miss; totals count them apart', () => {
      const p = loadFixtureRun('kwok-eviction-rate-large-zone-recorded').analysis.predictions;
      const explained = p.items.filter((i) => i.chosenBy === 'observation');
      expect(explained.map((i) => i.event)).to.deep.equal(Array(9).fill('no-execute-taint'));
      expect(explained.every((i) => i.held === true && i.otherwise?.held === false)).to.equal(true);
      expect([p.explainedCount, p.explainedHeldCount]).to.deep.equal([9, 9]);
    });

    it('kwok large zone, first taint written behind the client throttle: the next token counts from when the first was spent, not from its receipt', () => {
      // Campaign of 5 Dec 2026, r0: rebootlab-worker11 tainted in the detecting pass, which wrote 84 requests through
      // the controller's client (its GET + PATCH may wait up to 1.8 s), received at 24.259 s; the next taint (rebootlab-
      // worker) received at 32.836 s, 8.6 s later: its token came 10 s after the first was spent, before that write.
      const run = loadFixtureRun('kwok-eviction-rate-throttled-first-recorded');
      const first = predictionItem(run.analysis, 'no-execute-taint/unreachable@rebootlab-worker11')!;
      const second = predictionItem(run.analysis, 'no-execute-taint/unreachable@rebootlab-worker')!;
      expect([first.observedSeconds, second.observedSeconds]).to.deep.equal([24.259, 32.836]);
      expect(first.because).to.match(/up to 1\.8\d* s at --kube-api-qps 20/);
      expect(second.held, JSON.stringify(second.window)).to.equal(true);
      // One observation latency and the first write's throttle (1.8 s) before receipt + 10 s, less the 0.1 s tainting loop.
      expect(second.window!.fromSeconds).to.be.closeTo(24.259 + 10 - 0.1 - 1 - 1.8, 0.05);
      expect(second.because).to.include('the previous taint\'s write may have waited up to');
      expect(run.analysis.predictions.missed).to.deep.equal([]);
    });

    it('kwok zone-partial-disruption: the in-pass taint taken back (race lost, read from the run) is explained; the model alone expected it', () => {
      const p = loadFixtureRun('kwok-zone-partial-disruption-recorded').analysis.predictions;
      const explained = p.items.filter((i) => i.chosenBy === 'observation');
      expect(explained.map((i) => [i.event, i.expected, i.otherwise?.expected, i.otherwise?.held])).to.deep.equal([['no-execute-taint', false, true, false]]);
    });

    it('kind kubelet-stop lagged: the eviction held only within the observer lag is explained, its own window a miss', () => {
      const p = loadFixtureRun('kind-kubelet-stop-lagged-recorded').analysis.predictions;
      const explained = p.items.filter((i) => i.chosenBy === 'observation');
      expect(explained.map((i) => [i.event, i.held, i.otherwise?.held])).to.deep.equal([['pod-eviction', true, false]]);
    });

    it('kind outage-tuned: nothing explained, every item predicted from its causes alone', () => {
      expect(outage.analysis.predictions.explainedCount).to.equal(0);
    });
  });
});
