// One DNS query over UDP, as a pod's stub resolver sends it: a new socket (so a new source port) per query, one A
// question with recursion desired, no retry. Its outcome is what the DNS prober journals (lib/observe/prober.ts).
import { createSocket, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import type { ProbeOutcome } from './types.js';

/** Where a query goes: an address and a UDP port (a node's address and the DNS Service's node port). */
export interface DnsServer {
  host: string;
  port: number;
}

/** How one query ended; times as in ProbeObservation (client clock, Unix epoch ms; latency in ms). */
export interface DnsQueryResult {
  sentAtMs: number;
  latencyMs: number;
  outcome: ProbeOutcome;
  /** Node error code, the response code (`NXDOMAIN`, `SERVFAIL`, `NOERROR without an answer`), or the timeout. */
  error?: string;
  /** The UDP source port the kernel bound for this query. */
  localPort?: number;
}

/** DNS RCODE values (RFC 1035 §4.1.1, RFC 6895 §2.3) → their names. */
const RCODES: Readonly<Record<number, string>> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' };

/** Node error codes of a connected UDP socket → outcome (ECONNREFUSED: an ICMP port unreachable came back). */
const ERROR_OUTCOMES: Readonly<Record<string, ProbeOutcome>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

/**
 * The wire form of a standard query (RFC 1035 §4.1): header with `id`, RD set, one question `name` of type A
 * (1), class IN (1). A trailing dot is allowed.
 * @throws RangeError when a label is empty or longer than 63 bytes, or the name longer than 253.
 */
export function encodeDnsQuery(id: number, name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.');
  if (name.replace(/\.$/, '').length > 253 || labels.some((l) => l.length === 0 || Buffer.byteLength(l) > 63)) throw new RangeError(`not a DNS name: ${JSON.stringify(name)}`);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id & 0xffff, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4); // QDCOUNT
  const question = Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l)])),
    Buffer.from([0, 0, 1, 0, 1]), // root, QTYPE A, QCLASS IN
  ]);
  return Buffer.concat([header, question]);
}

/** The header fields of a DNS message that tell how a query ended, or null when it is shorter than a header. */
export function decodeDnsHeader(message: Buffer): { id: number; response: boolean; truncated: boolean; rcode: number; answers: number } | null {
  if (message.length < 12) return null;
  const flags = message.readUInt16BE(2);
  return { id: message.readUInt16BE(0), response: (flags & 0x8000) !== 0, truncated: (flags & 0x0200) !== 0, rcode: flags & 0x000f, answers: message.readUInt16BE(6) };
}

/** The outcome of a response header: `ok` for NOERROR with at least one answer (a truncated one counts: it answered), else `dns-error`. */
export function dnsOutcome(header: { rcode: number; answers: number }): { outcome: ProbeOutcome; error?: string } {
  if (header.rcode === 0 && header.answers > 0) return { outcome: 'ok' };
  return { outcome: 'dns-error', error: header.rcode === 0 ? 'NOERROR without an answer' : RCODES[header.rcode] ?? `RCODE ${header.rcode}` };
}

/**
 * Sends one A query for `name` to `server` from a new UDP socket and resolves (never rejects) to its outcome:
 * `ok`, `dns-error` (an answer with an error code or no record), `refused` (ICMP port unreachable: nothing, or a
 * REJECT rule, behind the port), `unreachable`, `timeout` (no answer in `timeoutMs`), or `error`. A datagram whose
 * id or flags do not answer this query is ignored, as a resolver does.
 */
export function queryDnsOnce(server: DnsServer, name: string, timeoutMs: number, now: () => number): Promise<DnsQueryResult> {
  const sentAtMs = now();
  const id = randomInt(0, 0x10000);
  return new Promise((resolve) => {
    let settled = false;
    let localPort: number | undefined;
    const socket: Socket = createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    const finish = (result: { outcome: ProbeOutcome; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        localPort ??= socket.address().port;
      } catch {
        // Not bound (the connect failed before binding): no port to journal.
      }
      socket.close();
      resolve({ sentAtMs, latencyMs: Math.max(0, now() - sentAtMs), ...result, ...(localPort !== undefined ? { localPort } : {}) });
    };
    const timer = setTimeout(() => finish({ outcome: 'timeout', error: `no answer in ${timeoutMs} ms` }), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ outcome: ERROR_OUTCOMES[error.code ?? ''] ?? 'error', error: error.code ?? error.message }));
    socket.on('message', (message) => {
      const header = decodeDnsHeader(message);
      if (header === null || header.id !== id || !header.response) return;
      finish(dnsOutcome(header));
    });
    // connect(): the kernel picks the source port now, and an ICMP error for this flow reaches the socket.
    socket.connect(server.port, server.host, () => {
      try {
        localPort = socket.address().port;
      } catch {
        // closed meanwhile (timeout): nothing to send
      }
      if (settled) return;
      socket.send(encodeDnsQuery(id, name), (error) => {
        if (error) finish({ outcome: ERROR_OUTCOMES[(error as NodeJS.ErrnoException).code ?? ''] ?? 'error', error: (error as NodeJS.ErrnoException).code ?? error.message });
      });
    });
  });
}
