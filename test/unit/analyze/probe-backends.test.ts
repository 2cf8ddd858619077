// Failing backends: every failed request of a prober joined with its Service's EndpointSlices and the faults of the
// endpoints' nodes. Figures from a run recorded on kind, then the readiness path on a hand-made journal.
import { expect } from 'chai';
import { buildFailingBackends } from '../../../lib/analyze/probe-backends.js';
import type { Observation, ProbeObservation } from '../../../lib/observe/types.js';
import { loadFixtureRun } from './fixture-runs.js';

describe('analyze/probe-backends on a recorded kind run (test/fixtures/runs/kind-service-probes-recorded)', () => {
  // Power-off of rl-svc-worker (both web pods, api's jk9q8) for 90 s; probers at 20/s through rl-svc-worker2's node
  // port. The node went Unknown at 24.975 s (receive time); the slices marked web xkwnk not ready at 25.085 s, ppzww at
  // 26.086 s and api jk9q8 at 25.109 s; web's replacements were ready at 59.08 s.
  const { analysis } = loadFixtureRun('kind-service-probes-recorded');
  const web = analysis.probes!.find((p) => p.name === 'web')!;
  const api = analysis.probes!.find((p) => p.name === 'api')!;

  it('names the Service each prober probed', () => {
    expect(web.service).to.equal('web');
    expect(api.service).to.equal('api');
  });

  it('web: both endpoints still ready on the down node until the NotReady detection (plus the proxy lag), then no ready endpoint until a replacement (plus the lag)', () => {
    expect(web.failingBackends.map((f) => [f.cause, f.failed, f.firstAfterSeconds, f.lastAfterSeconds])).to.deep.equal([
      ['endpoint-ready-on-down-node', 537, 0.431, 28.045],
      // The first replacement was ready at 59.08 s; until 2 s later a proxy may still have had no endpoint.
      ['no-ready-endpoint', 591, 28.096, 60.022],
      ['stale-endpoint-on-down-node', 54, 75.056, 86.367],
    ]);
    const [down, none] = web.failingBackends;
    expect(down!.pods).to.deep.equal(['web-76568cd5df-ppzww', 'web-76568cd5df-xkwnk']);
    expect(down!.nodes).to.deep.equal(['rl-svc-worker']);
    expect(down!.outcomes).to.deep.equal({ refused: 21, timeout: 516 });
    expect(down!.because).to.contain('rl-svc-worker power-off from 0 s');
    expect(none!.because).to.contain('web-76568cd5df-xkwnk not ready since 25.085 s (node rl-svc-worker NotReady at 24.975 s');
    // Every failed request lands in exactly one group.
    expect(web.failingBackends.reduce((sum, f) => sum + f.failed, 0)).to.equal(web.errors);
  });

  it('api: only the pod on the down node failed requests while its endpoint was ready; later failures went to it through a lagging proxy', () => {
    expect(api.failingBackends.map((f) => [f.cause, f.pods, f.failed, f.firstAfterSeconds, f.lastAfterSeconds])).to.deep.equal([
      ['endpoint-ready-on-down-node', ['api-7d54775566-jk9q8'], 270, 0.375, 26.136],
      ['stale-endpoint-on-down-node', ['api-7d54775566-jk9q8'], 14, 30.711, 34.994],
      ['stale-endpoint-on-down-node', ['api-7d54775566-jk9q8'], 11, 42.132, 46.549],
      ['unexplained', ['api-7d54775566-g2bzz', 'api-7d54775566-lcx2x'], 7, 106.837, 109.249],
    ]);
    expect(api.failingBackends.reduce((sum, f) => sum + f.failed, 0)).to.equal(api.errors);
  });
});

describe('analyze/probe-backends: a pod not ready on a Ready node (kubelet restart, readiness probe)', () => {
  // One replica on node n1; the kubelet restarts at 0: the endpoint turns not ready at 1 s (the restarted kubelet marks
  // the pod not ready until its next probe) and ready again at 3 s; the node never leaves Ready.
  const FAULT_MS = 1_000_000;
  let seq = 0;
  const slice = (atMs: number, ready: boolean): Observation => ({
    seq: seq++, type: 'object', kind: 'EndpointSlice', verb: 'MODIFIED', uid: 's1', name: 'web-abc', namespace: 'rebootlab', resourceVersion: String(seq), receivedAtMs: FAULT_MS + atMs,
    object: { metadata: { labels: { 'kubernetes.io/service-name': 'web' } }, endpoints: [{ addresses: ['10.0.0.5'], nodeName: 'n1', targetRef: { name: 'web-1', uid: 'u1' }, conditions: { ready, serving: ready } }] },
  } as Observation);
  const req = (atMs: number): ProbeObservation => ({ seq: seq++, type: 'probe', probe: 'web', sentAtMs: FAULT_MS + atMs, latencyMs: 1, receivedAtMs: FAULT_MS + atMs + 1, outcome: 'refused' });
  const journal = [slice(-5_000, true), slice(1_000, false), slice(3_000, true)];
  const failed = [req(1_500), req(2_000), req(2_500)];
  const input = { faultMs: FAULT_MS, endMs: FAULT_MS + 10_000, faults: [{ node: 'n1', type: 'kubelet-restart', issuedAtMs: FAULT_MS, effectiveAtMs: FAULT_MS + 100, restoredAtMs: FAULT_MS + 100 }], nodes: [] };

  it('blames no ready endpoint, the pod not ready on a Ready node: a kubelet restart stops no container, so the node is not down', () => {
    const groups = buildFailingBackends(failed, 'web', [...journal, ...failed], input);
    expect(groups).to.have.length(1);
    expect(groups[0]).to.deep.include({ cause: 'no-ready-endpoint', pods: ['web-1'], nodes: ['n1'], failed: 3, firstAfterSeconds: 1.5, lastAfterSeconds: 2.5 });
    expect(groups[0]!.because).to.equal('no ready endpoint: web-1 not ready since 1 s (pod not ready on a Ready node: its readinessProbe or container)');
  });

  it('blames the down node when the same endpoint sits on a powered-off node', () => {
    const groups = buildFailingBackends(failed, 'web', [...journal, ...failed], { ...input, faults: [{ ...input.faults[0]!, type: 'power-off', restoredAtMs: null }] });
    // Until 1 s + PROXY_LAG_MS the endpoint ready before 1 s may still be routed to; the request at 2.5 s finds none.
    expect(groups.map((g) => [g.cause, g.failed])).to.deep.equal([['endpoint-ready-on-down-node', 3]]);
  });

  it('a flap of a few milliseconds still leaves clients without an endpoint for the proxy lag (the recorded kubelet restart: not ready at 5.625 s, ready at 5.639 s, failures until 6.865 s)', () => {
    const flap = [slice(-5_000, true), slice(5_625, false), slice(5_639, true)];
    const late = [req(5_853), req(6_865), req(7_700)];
    const groups = buildFailingBackends(late, 'web', [...flap, ...late], input);
    expect(groups.map((g) => [g.cause, g.failed, g.firstAfterSeconds, g.lastAfterSeconds])).to.deep.equal([
      ['no-ready-endpoint', 2, 5.853, 6.865],
      ['unexplained', 1, 7.7, 7.7], // more than PROXY_LAG_MS after the endpoint was back
    ]);
    expect(groups[0]!.because).to.equal('no ready endpoint (until 5.639 s; a proxy applies a slice change up to 2 s later): web-1 not ready since 5.625 s (pod not ready on a Ready node: its readinessProbe or container)');
  });
});
