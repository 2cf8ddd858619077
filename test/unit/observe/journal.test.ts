// Tests for lib/observe/journal.ts: per-record flush, torn last line, 10k records.
import { expect } from 'chai';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, parseJournal, readJournal } from '../../../lib/observe/journal.js';
import type { ObjectObservation, PhaseObservation } from '../../../lib/observe/types.js';

describe('observe/journal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const node = (name: string) => ({ kind: 'Node' as const, verb: 'ADDED' as const, name, uid: `uid-${name}`, resourceVersion: '1', object: { metadata: { name } } });

  it('stamps seq from 0 and the injected client clock, and writes each record before append returns', () => {
    let now = 1_000;
    const journal = openJournal(join(dir, 'observations.jsonl'), { nowMs: () => now++ });
    journal.appendObject(node('a'));
    // Readable from the file before close(): the record was written through, not buffered.
    const early = readJournal(journal.path);
    expect(early).to.have.length(1);
    expect(early[0]).to.include({ seq: 0, type: 'object', receivedAtMs: 1_000 });
    journal.mark('fault-injected', { nodes: ['kind-worker'], detail: { type: 'reboot' } });
    journal.close();
    const records = readJournal(journal.path);
    const marker = records[1] as PhaseObservation;
    expect(marker).to.deep.include({ seq: 1, type: 'phase', phase: 'fault-injected', nodes: ['kind-worker'], receivedAtMs: 1_001 });
  });

  it('skips a torn last line (a kill -9 mid-write) with one warning and keeps every earlier record', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    for (let i = 0; i < 3; i++) journal.appendObject(node(`n${i}`));
    journal.close();
    appendFileSync(journal.path, '{"seq":3,"type":"object","kind":"Node","verb":"MOD');
    const warnings: string[] = [];
    const records = readJournal(journal.path, (_level, message) => warnings.push(message));
    expect(records.map((r) => r.seq)).to.deep.equal([0, 1, 2]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/:4: torn last line/);
  });

  it('writes and reads back 10 000 records in order', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    for (let i = 0; i < 10_000; i++) journal.appendObject({ ...node(`pod-${i}`), kind: 'Pod', namespace: 'rebootlab' });
    journal.close();
    const records = readJournal(journal.path) as ObjectObservation[];
    expect(records).to.have.length(10_000);
    expect(records[9_999]).to.include({ seq: 9_999, name: 'pod-9999', namespace: 'rebootlab' });
    expect(readFileSync(journal.path, 'utf8').split('\n')).to.have.length(10_001); // trailing newline
  });

  it('subscribe delivers each record after it is written; unsubscribe stops delivery', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    const seen: number[] = [];
    const unsubscribe = journal.subscribe((r) => seen.push(r.seq));
    journal.appendObject(node('a'));
    journal.mark('fault-injected', { nodes: ['kind-worker'] });
    unsubscribe();
    journal.appendObject(node('b'));
    journal.close();
    expect(seen).to.deep.equal([0, 1]);
  });

  it('parseJournal ignores blank lines and reports a line that is not a record', () => {
    const warnings: string[] = [];
    const records = parseJournal('{"seq":0,"type":"gap","kind":"Pod","fromMs":1,"toMs":2,"reason":"x","receivedAtMs":2}\n\n[1,2]\n', (_l, m) => warnings.push(m));
    expect(records).to.have.length(1);
    expect(warnings).to.deep.equal(['observations.jsonl:3: not a journal record; skipped']);
  });

  it('throws InfraError (exit code 3) when the journal cannot be read', () => {
    expect(() => readJournal(join(dir, 'missing.jsonl'))).to.throw(/cannot read journal/).with.property('exitCode', 3);
  });
});
