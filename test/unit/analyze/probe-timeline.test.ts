// Prober summaries: errors counted per outcome and per second since the fault, latency split at the fault and
// its restore, and the pods that answered. The records are the prober's own journal format (lib/observe/prober.ts).
import { expect } from 'chai';
import { buildProbeSummaries } from '../../../lib/analyze/probe-timeline.js';
import type { Observation, ProbeObservation, ProbeOutcome } from '../../../lib/observe/types.js';
import { readJournal } from '../../../lib/observe/index.js';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const FAULT_MS = 1_000_000;
let seq = 0;
function req(afterMs: number, outcome: ProbeOutcome, latencyMs: number, pod?: string): ProbeObservation {
  const sentAtMs = FAULT_MS + afterMs;
  return { seq: seq++, type: 'probe', probe: 'web', sentAtMs, latencyMs, receivedAtMs: sentAtMs + latencyMs, outcome, ...(outcome === 'ok' ? { status: 200, pod } : {}) };
}

describe('analyze/probe-timeline', () => {
  // 10 requests/s: before the fault both pods answer; from 0 s to 2.5 s half the requests time out (the dead pod's
  // endpoint still ready); after the restore at 20 s everything answers again.
  const records: Observation[] = [];
  for (let t = -2_000; t < 0; t += 100) records.push(req(t, 'ok', 2, t % 200 === 0 ? 'web-a' : 'web-b'));
  for (let t = 0; t < 2_500; t += 100) records.push(t % 200 === 0 ? req(t, 'ok', 4, 'web-a') : req(t, 'timeout', 1_000));
  for (let t = 2_500; t < 20_000; t += 100) records.push(req(t, 'ok', 6, 'web-a'));
  records.push(req(20_000, 'refused', 1));
  for (let t = 20_100; t < 22_000; t += 100) records.push(req(t, 'ok', 8, 'web-c'));
  // Written out of send order (a timeout ends after later requests): the summary sorts by send time.
  records.reverse();

  const [web] = buildProbeSummaries(records, FAULT_MS, FAULT_MS + 20_000);

  it('counts sent, answered and failed requests per outcome', () => {
    expect(web!.name).to.equal('web');
    expect(web!.sent).to.equal(20 + 25 + 175 + 1 + 19);
    expect(web!.errors).to.equal(12 + 1);
    expect(web!.answered).to.equal(web!.sent - 13);
    expect(web!.outcomes).to.deep.equal({ ok: web!.sent - 13, timeout: 12, refused: 1 });
    expect(web!.errorRatio).to.equal(Math.round((13 / 240) * 10_000) / 10_000);
  });

  it('times the errors from the fault by send time: seconds with an error, first and last', () => {
    expect(web!.firstErrorAfterSeconds).to.equal(0.1);
    expect(web!.lastErrorAfterSeconds).to.equal(20);
    expect(web!.errorSeconds).to.equal(4); // seconds 0, 1, 2 and 20
  });

  it('gives the error ratio among the requests sent from the first to the last failure', () => {
    // 0.1 s … 20 s: 24 requests in the first 2.5 s, 175 after, and the refused one; 13 of those 200 failed.
    expect(web!.errorRatioWhileFailing).to.equal(0.065);
  });

  it('splits answered latencies at the fault and at the restore', () => {
    expect(web!.latency.before).to.deep.equal({ count: 20, p50Ms: 2, p99Ms: 2 });
    expect(web!.latency.during).to.deep.equal({ count: 13 + 175, p50Ms: 6, p99Ms: 6 });
    expect(web!.latency.after).to.deep.equal({ count: 19, p50Ms: 8, p99Ms: 8 });
  });

  it('lists the pods that answered in order of their first answer', () => {
    expect(web!.backends.map((b) => b.pod)).to.deep.equal(['web-a', 'web-b', 'web-c']);
    expect(web!.backends[2]).to.deep.equal({ pod: 'web-c', answered: 19, firstAfterSeconds: 20.1, lastAfterSeconds: 21.9 });
  });

  it('returns nothing for a journal without probe records', () => {
    expect(buildProbeSummaries([], FAULT_MS, null)).to.deep.equal([]);
  });
});

describe('analyze/probe-timeline on a recorded kind run (test/fixtures/runs/kind-service-probes-recorded)', () => {
  // test/fixtures/e2e/service-outage.yaml with two probers at 20 requests/s through the live worker's node port; the
  // worker with both web pods and one api pod powered off for 90 s (docker stop took 2.923 s).
  const dir = join(REPO_ROOT, 'test/fixtures/runs/kind-service-probes-recorded');
  const records = readJournal(join(dir, 'observations.jsonl'));
  const zero = records.find((r) => r.type === 'phase' && r.phase === 'fault-injecting')!.receivedAtMs;
  const restored = records.find((r) => r.type === 'phase' && r.phase === 'fault-restored')!.receivedAtMs;
  const summaries = buildProbeSummaries(records, zero, restored);
  const web = summaries.find((p) => p.name === 'web')!;
  const api = summaries.find((p) => p.name === 'api')!;

  it('web (both pods on the dead node) failed from the power-off until a replacement was ready, with timeouts, refusals and unreachable routes', () => {
    expect(web.sent).to.equal(2100);
    expect(web.errors).to.equal(1182);
    expect(web.firstErrorAfterSeconds).to.equal(0.431);
    expect(web.outcomes).to.deep.equal({ ok: 918, refused: 48, timeout: 1102, unreachable: 32 });
    expect(web.backends.map((b) => b.pod)).to.deep.equal(['web-76568cd5df-ppzww', 'web-76568cd5df-xkwnk', 'web-76568cd5df-x6xll', 'web-76568cd5df-sj7d2']);
  });

  it('api (one pod on each worker) lost about half its requests until the dead pod\'s endpoint was not ready', () => {
    expect(api.errors).to.equal(302);
    expect(api.errorRatio).to.equal(0.1438);
    expect(api.backends[1]).to.deep.include({ pod: 'api-7d54775566-g2bzz', answered: 1323 });
  });

  it('requests before the prober\'s steady baseline are warm-up, never errors (issue 24: 6 refused while kube-proxy programmed a new endpoint); without a baseline marker every request counts', () => {
    const warm: Observation[] = [];
    for (let t = -7_000; t < -6_700; t += 50) warm.push(req(t, 'refused', 1));
    for (let t = -6_700; t < 3_000; t += 50) warm.push(req(t, 'ok', 2, 'web-a'));
    const marker: Observation = { seq: seq++, type: 'phase', phase: 'probe-baseline', receivedAtMs: FAULT_MS - 1_600, detail: { probe: 'web', fromMs: FAULT_MS - 6_700, pods: ['web-a'], warmUpErrors: 6, minMs: 5_000 } };
    const [withBaseline] = buildProbeSummaries([...warm, marker], FAULT_MS, null);
    expect(withBaseline).to.deep.include({ errors: 0, errorSeconds: 0, firstErrorAfterSeconds: null, sent: warm.length - 6 });
    expect(withBaseline!.warmUp).to.deep.equal({ sent: 6, errors: 6, untilAfterSeconds: -6.7 });
    expect(withBaseline!.outcomes).to.deep.equal({ ok: warm.length - 6 });
    const [without] = buildProbeSummaries(warm, FAULT_MS, null);
    expect(without).to.deep.include({ errors: 6, errorSeconds: 1 });
    expect(without!.warmUp).to.equal(undefined);
  });
});
