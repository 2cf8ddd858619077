// Failing backends: every failed request of a prober joined with its Service's EndpointSlices and the faults of the
// endpoints' nodes. Figures from a run recorded on kind, then the readiness path on a hand-made journal.
import { expect } from 'chai';
import { buildFailingBackends } from '../../../lib/analyze/probe-backends.js';
import type { Observation, ProbeObservation } from '../../../lib/observe/types.js';
import { analyze } from '../../../lib/analyze/analyze.js';
import { loadFixtureRun } from './fixture-runs.js';

describe('analyze/probe-backends on a recorded graceful shutdown (test/fixtures/runs/kind-graceful-shutdown-real-recorded)', () => {
  // systemctl poweroff of rebootlab-worker with shutdownGracePeriod 30 s: its kubelet killed web's pod at once (no
  // preStop); 6 requests refused (sent 0.915 to 1.546 s) and 1 timeout (1.596 s) before the slice update at 1.613 s.
  it('the failures toward the killed pod are explained by the graceful shutdown, not by a kubelet that cannot report', () => {
    const web = loadFixtureRun('kind-graceful-shutdown-real-recorded').analysis.probes!.find((p) => p.name === 'web')!;
    expect(web.failingBackends.map((f) => [f.cause, f.failed])).to.deep.equal([['endpoint-ready-on-down-node', 7]]);
    expect(web.failingBackends[0]!.because).to.contain('on a node shutting down gracefully (rebootlab-worker shutdown from 0 s): its kubelet killed the pod (SIGTERM, no preStop delay)');
    expect(web.failingBackends[0]!.because).to.not.contain('cannot report');
  });
});

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
  const input = { faultMs: FAULT_MS, endMs: FAULT_MS + 10_000, faults: [{ node: 'n1', type: 'kubelet-restart', scope: null as 'control-plane' | null, trafficDropped: false, issuedAtMs: FAULT_MS, effectiveAtMs: FAULT_MS + 100, restoringAtMs: FAULT_MS, restoredAtMs: FAULT_MS + 100 }], nodes: [] };

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

  it('a network-partition of scope control-plane leaves the node serving: the same failures are no ready endpoint, not a down node', () => {
    const groups = buildFailingBackends(failed, 'web', [...journal, ...failed], { ...input, faults: [{ ...input.faults[0]!, type: 'network-partition', scope: 'control-plane', restoredAtMs: null }] });
    expect(groups.map((g) => [g.cause, g.failed])).to.deep.equal([['no-ready-endpoint', 3]]);
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

describe('analyze/probe-backends: reused conntrack entries (test/fixtures/runs/kind-power-off-blackhole-recorded)', () => {
  // Power-off of rl-bh-worker (1 of 3 web pods) for 90 s; prober at 20/s through rl-bh-worker2's node port, each
  // request's source port journaled. A `conntrack -L` on rl-bh-worker2 every 2 s during the run showed, for each late
  // timeout's port, an unreplied SYN_SENT entry DNATed to the dead pod (10.244.2.2:8080) since its failure in the blackhole.
  const { analysis } = loadFixtureRun('kind-power-off-blackhole-recorded');
  const web = analysis.probes!.find((p) => p.name === 'web')!;

  it('every timeout after the blackhole repeats the source port of a request that failed toward the dead pod then: reused-conntrack-entry, naming the port and the earlier failure', () => {
    expect(web.failingBackends.map((f) => [f.cause, f.failed, f.firstAfterSeconds, f.lastAfterSeconds])).to.deep.equal([
      ['no-ready-endpoint', 1, -0.029, -0.029],
      ['endpoint-ready-on-down-node', 142, 0.411, 23.006],
      ['reused-conntrack-entry', 1, 31.736, 31.736],
      ['reused-conntrack-entry', 1, 49.736, 49.736],
      ['reused-conntrack-entry', 11, 61.698, 67.306],
      // Recorded before the prober kept the port of a socket an error had closed: these two cannot be matched.
      ['stale-endpoint-on-down-node', 2, 64.431, 68.16],
    ]);
    const reused = web.failingBackends.filter((f) => f.cause === 'reused-conntrack-entry');
    expect(reused.every((f) => f.outcomes.timeout === f.failed && f.pods.join() === 'web-6d649457bf-tfr5d')).to.equal(true);
    expect(reused[0]!.because).to.match(/^source port 42620 repeats a request that failed toward web-6d649457bf-tfr5d at 8\.895 s/);
    expect(web.failingBackends.reduce((sum, f) => sum + f.failed, 0)).to.equal(web.errors);
  });

  const run = loadFixtureRun('kind-power-off-blackhole-recorded');
  const webBackends = (observations: Observation[]) =>
    analyze(observations, { settings: run.info.settings, workloads: run.info.workloads }).probes!.find((p) => p.name === 'web')!.failingBackends;

  it('the same journal without source ports (as recorded before they were journaled): those timeouts are stale-endpoint-on-down-node again', () => {
    const groups = webBackends(run.observations.map((o) => (o.type === 'probe' ? (({ localPort: _port, ...rest }) => rest)(o) : o)));
    expect(groups.filter((f) => f.cause === 'reused-conntrack-entry')).to.deep.equal([]);
    expect(groups.filter((f) => f.cause === 'stale-endpoint-on-down-node').reduce((n, f) => n + f.failed, 0)).to.equal(15);
  });

  it('an answered request from the same port in between clears the entry: the later failure is not a reuse', () => {
    const probes = run.observations.filter((o): o is ProbeObservation => o.type === 'probe');
    const lateFailure = probes.filter((p) => p.localPort === 42620 && p.outcome !== 'ok').at(-1)!;
    // An answered request sent 2 s before that failure gets port 42620.
    const between = probes.find((p) => p.outcome === 'ok' && p.sentAtMs > lateFailure.sentAtMs - 2_000)!;
    const groups = webBackends(run.observations.map((o) => (o === between ? { ...between, localPort: 42620 } : o)));
    expect(groups.some((f) => f.cause === 'reused-conntrack-entry' && f.firstAfterSeconds === 31.736)).to.equal(false);
    expect(groups.filter((f) => f.cause === 'reused-conntrack-entry').reduce((n, f) => n + f.failed, 0)).to.equal(12);
  });
});
