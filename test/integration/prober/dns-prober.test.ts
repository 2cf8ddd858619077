// The DNS prober against real UDP sockets on loopback: an answer with a record, an error code, no answer at all, and
// nothing listening (ICMP port unreachable) are told apart, each query leaves from its own source port, and every
// query sent ends in exactly one journal record.
import { expect } from 'chai';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, queryDnsOnce, readJournal, startProber, type DnsServer, type ProbeObservation } from '../../../lib/observe/index.js';
import { decodeDnsHeader } from '../../../lib/observe/dns-query.js';

/** A DNS server on loopback answering every query with `rcode` and `answers` records (header only), or never when `silent`. */
async function dnsServer(options: { rcode: number; answers: number; silent?: boolean }): Promise<{ server: DnsServer; socket: Socket; queries: { port: number; id: number }[] }> {
  const socket = createSocket('udp4');
  const queries: { port: number; id: number }[] = [];
  socket.on('message', (message, rinfo) => {
    const header = decodeDnsHeader(message)!;
    queries.push({ port: rinfo.port, id: header.id });
    if (options.silent) return;
    const answer = Buffer.from(message);
    answer.writeUInt16BE(0x8180 | options.rcode, 2);
    answer.writeUInt16BE(options.answers, 6);
    socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return { server: { host: '127.0.0.1', port: socket.address().port }, socket, queries };
}

describe('DNS prober (integration, loopback UDP)', function () {
  this.timeout(20_000);
  let dir: string;
  const sockets: Socket[] = [];
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rebootlab-dns-prober-')); });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ok: one record per query at the requested rate, each from a new source port with a fresh id', async () => {
    const { server, socket, queries } = await dnsServer({ rcode: 0, answers: 1 });
    sockets.push(socket);
    const path = join(dir, 'observations.jsonl');
    const journal = openJournal(path);
    const prober = startProber(journal, { name: 'dns', url: `dns://${server.host}:${server.port}/a.example`, send: (t, now) => queryDnsOnce(server, 'a.example', t, now), ratePerSecond: 20, timeoutMs: 500 });
    await new Promise((r) => setTimeout(r, 1_000));
    await prober.stop();
    journal.close();
    const records = readJournal(path).filter((r): r is ProbeObservation => r.type === 'probe');
    expect(prober.sent).to.be.within(19, 22);
    expect(records).to.have.length(prober.sent);
    expect(records.every((r) => r.outcome === 'ok' && r.probe === 'dns')).to.equal(true);
    expect(new Set(records.map((r) => r.localPort)).size).to.equal(records.length);
    expect(queries.map((q) => q.port).sort()).to.deep.equal(records.map((r) => r.localPort).sort());
    const started = readJournal(path).find((r) => r.type === 'phase' && r.phase === 'probe-started');
    expect(started && started.type === 'phase' && started.detail?.url).to.equal(`dns://127.0.0.1:${server.port}/a.example`);
  });

  it('dns-error: NXDOMAIN and SERVFAIL answers', async () => {
    for (const [rcode, error] of [[3, 'NXDOMAIN'], [2, 'SERVFAIL']] as const) {
      const { server, socket } = await dnsServer({ rcode, answers: 0 });
      sockets.push(socket);
      const r = await queryDnsOnce(server, 'missing.example', 500, Date.now);
      expect(r).to.include({ outcome: 'dns-error', error });
    }
  });

  it('timeout: a server that never answers, after the timeout', async () => {
    const { server, socket, queries } = await dnsServer({ rcode: 0, answers: 1, silent: true });
    sockets.push(socket);
    const r = await queryDnsOnce(server, 'a.example', 300, Date.now);
    expect(r.outcome).to.equal('timeout');
    expect(r.latencyMs).to.be.within(290, 500);
    expect(queries).to.have.length(1);
    expect(r.localPort).to.equal(queries[0]!.port);
  });

  it('refused: nothing listens on the port (ICMP port unreachable on the connected socket)', async () => {
    const { server, socket } = await dnsServer({ rcode: 0, answers: 1 });
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const r = await queryDnsOnce(server, 'a.example', 1_000, Date.now);
    expect(r).to.include({ outcome: 'refused', error: 'ECONNREFUSED' });
    expect(r.latencyMs).to.be.below(500);
  });

  it('ignores a datagram that does not answer its query (wrong id), as a resolver does', async () => {
    const socket = createSocket('udp4');
    sockets.push(socket);
    socket.on('message', (message, rinfo) => {
      const wrong = Buffer.from(message);
      wrong.writeUInt16BE((message.readUInt16BE(0) + 1) & 0xffff, 0);
      wrong.writeUInt16BE(0x8180, 2);
      wrong.writeUInt16BE(1, 6);
      socket.send(wrong, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const r = await queryDnsOnce({ host: '127.0.0.1', port: socket.address().port }, 'a.example', 300, Date.now);
    expect(r.outcome).to.equal('timeout');
  });
});
