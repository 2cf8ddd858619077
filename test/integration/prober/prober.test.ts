// The traffic prober against real HTTP servers on loopback: each failure a client can meet (refused, reset,
// timeout, HTTP error) is classified, the answering pod is read from the body, and every request sent ends in
// exactly one journal record.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, readJournal, startProber, type ProbeObservation } from '../../../lib/observe/index.js';
import { buildProbeSummaries } from '../../../lib/analyze/index.js';

const listen = (server: Server | TcpServer): Promise<string> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)));
const close = (server: Server | TcpServer): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

describe('traffic prober (integration, loopback)', function () {
  this.timeout(20_000);
  let dir: string;
  const servers: (Server | TcpServer)[] = [];
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-prober-')); });
  afterEach(async () => {
    for (const s of servers.splice(0)) await close(s).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Probes `url` for `durationMs` at `rate`/s and returns the journaled records. */
  async function probe(url: string, rate: number, durationMs: number, timeoutMs = 500): Promise<{ sent: number; records: ProbeObservation[] }> {
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const prober = startProber(journal, { name: 'web', url, ratePerSecond: rate, timeoutMs });
    await new Promise((r) => setTimeout(r, durationMs));
    await prober.stop();
    journal.close();
    return { sent: prober.sent, records: readJournal(path).filter((r): r is ProbeObservation => r.type === 'probe') };
  }

  it('ok: reads the answering pod from the body; one record per request sent at the requested rate', async () => {
    const server = createServer((_req, res) => res.end('pod=web-7d9c-abc startedAt=2026-12-01T00:00:00Z\n'));
    servers.push(server);
    const { sent, records } = await probe(await listen(server), 20, 1_000);
    expect(sent).to.be.within(19, 22);
    expect(records).to.have.length(sent);
    for (const r of records) {
      expect(r.outcome).to.equal('ok');
      expect(r.status).to.equal(200);
      expect(r.pod).to.equal('web-7d9c-abc');
      expect(r.probe).to.equal('web');
      expect(r.receivedAtMs - r.sentAtMs).to.equal(r.latencyMs);
    }
    // Each request is a new connection: its own source port, journaled (conntrack reuse shows up by port).
    const ports = records.map((r) => r.localPort);
    for (const port of ports) expect(port).to.be.a('number').and.to.be.above(0);
    expect(new Set(ports).size).to.equal(records.length);
    const sends = records.map((r) => r.sentAtMs).sort((a, b) => a - b);
    expect(sends.at(-1)! - sends[0]!).to.be.within(850, 1_100);
  });

  it('baseline: waits for 1 s of consecutive answers after the last failure, journals it with the warm-up failures; a pod that never answers makes it give up with one line', async () => {
    let failing = true;
    const server = createServer((_req, res) => {
      if (failing) { res.statusCode = 503; res.end('warming'); return; }
      res.end('pod=web-a startedAt=x\n');
    });
    servers.push(server);
    const url = await listen(server);
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const prober = startProber(journal, { name: 'web', url, ratePerSecond: 20, timeoutMs: 500 });
    setTimeout(() => (failing = false), 600);
    const started = Date.now();
    const baseline = await prober.waitForBaseline({ minMs: 1_000, pods: ['web-a'], timeoutMs: 5_000 });
    expect(Date.now() - started).to.be.within(1_500, 2_500);
    expect(baseline.pods).to.deep.equal(['web-a']);
    expect(baseline.warmUpErrors).to.be.within(10, 14);
    expect(baseline.fromMs).to.be.above(started + 500);
    const missing = await prober.waitForBaseline({ minMs: 1_000, pods: ['web-a', 'web-b'], timeoutMs: 600 }).then(() => null, (e: Error) => e);
    expect(missing?.message).to.match(/^probe web had no steady baseline before the fault within 1 s: ready endpoint\(s\) web-b never answered in \d+ ms of consecutive answers \(answered: web-a\)$/);
    await prober.stop();
    journal.close();
    const markers = readJournal(path).filter((r) => r.type === 'phase' && r.phase === 'probe-baseline');
    expect(markers).to.have.length(1);
    const [summary] = buildProbeSummaries(readJournal(path), baseline.reachedAtMs, null);
    expect(summary!.errors, 'warm-up failures are not errors').to.equal(0);
    expect(summary!.warmUp?.errors).to.equal(baseline.warmUpErrors);
  });

  it('http-error: a 503 answer', async () => {
    const server = createServer((_req, res) => { res.statusCode = 503; res.end('no'); });
    servers.push(server);
    const { records } = await probe(await listen(server), 10, 250);
    expect(records.length).to.be.at.least(2);
    expect(records.every((r) => r.outcome === 'http-error' && r.status === 503)).to.equal(true);
  });

  it('refused: nothing listens on the port', async () => {
    const server = createServer();
    const url = await listen(server);
    await close(server);
    const { records } = await probe(url, 10, 250);
    expect(records.length).to.be.at.least(2);
    expect(records.every((r) => r.outcome === 'refused' && r.error === 'ECONNREFUSED')).to.equal(true);
    // The error closed the socket before the record was made: its source port is still journaled.
    for (const r of records) expect(r.localPort, JSON.stringify(r)).to.be.a('number').and.to.be.above(0);
  });

  it('reset: the server closes the connection without an answer', async () => {
    const server = createTcpServer((socket) => socket.resetAndDestroy());
    servers.push(server);
    const { records } = await probe(await listen(server), 10, 250);
    expect(records.length).to.be.at.least(2);
    expect(records.every((r) => r.outcome === 'reset'), JSON.stringify(records[0])).to.equal(true);
  });

  it('timeout: the server accepts and never answers; the latency is the timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const server = createTcpServer((socket) => void sockets.push(socket));
    servers.push(server);
    const { records } = await probe(await listen(server), 10, 250, 300);
    for (const s of sockets) s.destroy();
    expect(records.length).to.be.at.least(2);
    for (const r of records) {
      expect(r.outcome).to.equal('timeout');
      expect(r.latencyMs).to.be.within(290, 450);
      expect(r.localPort).to.be.a('number');
    }
  });

  it('no result lost across a restart: every request sent has its record, and the restart is a recorded gap', async () => {
    const server = createServer((_req, res) => res.end('pod=web-1\n'));
    servers.push(server);
    const url = await listen(server);
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const first = startProber(journal, { name: 'web', url, ratePerSecond: 50, timeoutMs: 500 });
    await new Promise((r) => setTimeout(r, 600));
    await first.stop();
    await new Promise((r) => setTimeout(r, 400));
    const second = startProber(journal, { name: 'web', url, ratePerSecond: 50, timeoutMs: 500 });
    await new Promise((r) => setTimeout(r, 600));
    await second.stop();
    await second.stop(); // idempotent: one probe-stopped marker per prober
    journal.close();
    const observations = readJournal(path);
    const records = observations.filter((r) => r.type === 'probe');
    expect(records).to.have.length(first.sent + second.sent);
    const startMs = observations[0]!.receivedAtMs;
    const [web] = buildProbeSummaries(observations, startMs, null);
    expect(web!.sent).to.equal(first.sent + second.sent);
    expect(web!.lostRecords).to.equal(0);
    expect(web!.gaps, JSON.stringify(web!.gaps)).to.have.length(1);
    expect(web!.gaps[0]!.reason).to.equal('prober restarted');
    expect(web!.gaps[0]!.toSeconds - web!.gaps[0]!.fromSeconds).to.be.within(0.39, 0.6);
  });

  it('a stalled event loop is a recorded gap, never silent, and loses no record', async () => {
    const server = createServer((_req, res) => res.end('pod=web-1\n'));
    servers.push(server);
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const prober = startProber(journal, { name: 'web', url: await listen(server), ratePerSecond: 50, timeoutMs: 500 });
    await new Promise((r) => setTimeout(r, 300));
    const blockUntil = Date.now() + 500;
    while (Date.now() < blockUntil) { /* block the event loop: no timer fires */ }
    await new Promise((r) => setTimeout(r, 300));
    await prober.stop();
    journal.close();
    const observations = readJournal(path);
    const [web] = buildProbeSummaries(observations, observations[0]!.receivedAtMs, null);
    expect(web!.lostRecords).to.equal(0);
    const stalls = web!.gaps.filter((g) => /event loop was blocked/.test(g.reason));
    expect(stalls).to.have.length(1);
    expect(stalls[0]!.toSeconds - stalls[0]!.fromSeconds).to.be.within(0.49, 0.7);
  });

  it('a prober that never stopped (an interrupted run) has an unknown loss, not 0', async () => {
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    journal.mark('probe-started', { detail: { probe: 'web', url: 'http://127.0.0.1:9/' } });
    journal.appendProbe({ probe: 'web', sentAtMs: Date.now(), latencyMs: 1, outcome: 'refused', receivedAtMs: Date.now() + 1 });
    journal.close();
    const observations = readJournal(path);
    expect(buildProbeSummaries(observations, observations[0]!.receivedAtMs, null)[0]!.lostRecords).to.equal(null);
  });
});
