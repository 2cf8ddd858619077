// The DNS messages of the DNS prober (lib/observe/dns-query.ts): the query's wire form (RFC 1035 §4.1) and how a
// response header maps to an outcome.
import { expect } from 'chai';
import { decodeDnsHeader, dnsOutcome, encodeDnsQuery } from '../../../lib/observe/dns-query.js';

describe('observe/dns-query: messages', () => {
  it('encodes an A query with recursion desired, the name as length-prefixed labels', () => {
    const q = encodeDnsQuery(0xbeef, 'kubernetes.default.svc.cluster.local.');
    expect(q.readUInt16BE(0)).to.equal(0xbeef);
    expect(q.readUInt16BE(2)).to.equal(0x0100);
    expect([q.readUInt16BE(4), q.readUInt16BE(6), q.readUInt16BE(8), q.readUInt16BE(10)]).to.deep.equal([1, 0, 0, 0]);
    const name = Buffer.concat(['kubernetes', 'default', 'svc', 'cluster', 'local'].map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])));
    expect(q.subarray(12, 12 + name.length).equals(name)).to.equal(true);
    expect([...q.subarray(12 + name.length)]).to.deep.equal([0, 0, 1, 0, 1]);
    expect(encodeDnsQuery(1, 'a.b').equals(encodeDnsQuery(1, 'a.b.'))).to.equal(true);
  });

  it('refuses an empty label and a label longer than 63 bytes', () => {
    expect(() => encodeDnsQuery(1, 'a..b')).to.throw(RangeError);
    expect(() => encodeDnsQuery(1, `${'x'.repeat(64)}.local`)).to.throw(RangeError);
  });

  it('decodes the header of a response and maps its code: NOERROR with a record ok, else dns-error', () => {
    const response = Buffer.alloc(12);
    response.writeUInt16BE(7, 0);
    response.writeUInt16BE(0x8183, 2); // QR, RD, RA, NXDOMAIN
    response.writeUInt16BE(0, 6);
    expect(decodeDnsHeader(response)).to.deep.equal({ id: 7, response: true, truncated: false, rcode: 3, answers: 0 });
    expect(dnsOutcome({ rcode: 3, answers: 0 })).to.deep.equal({ outcome: 'dns-error', error: 'NXDOMAIN' });
    expect(dnsOutcome({ rcode: 2, answers: 0 })).to.deep.equal({ outcome: 'dns-error', error: 'SERVFAIL' });
    expect(dnsOutcome({ rcode: 0, answers: 0 })).to.deep.equal({ outcome: 'dns-error', error: 'NOERROR without an answer' });
    expect(dnsOutcome({ rcode: 9, answers: 0 })).to.deep.equal({ outcome: 'dns-error', error: 'RCODE 9' });
    expect(dnsOutcome({ rcode: 0, answers: 1 })).to.deep.equal({ outcome: 'ok' });
    expect(decodeDnsHeader(Buffer.alloc(11))).to.equal(null);
  });
});
