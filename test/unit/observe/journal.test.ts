// Tests for lib/observe/journal.ts: per-record flush, grouped writes (and a kill -9 during them), torn last line, 10k records.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_MAX_BYTES, openJournal, parseJournal, readJournal, recordProblem, type SkippedJournalLine } from '../../../lib/observe/journal.js';
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
    expect(warnings).to.deep.equal([`${journal.path}:4:51: torn last line (50 bytes); skipped`]);
  });

  it('a journal of 100,000 bad lines: 20 warnings and one line counting the rest, every line still in `skipped` (hostile-input tryout)', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    journal.appendObject(node('n0'));
    journal.close();
    appendFileSync(journal.path, 'not json\n'.repeat(100_000));
    const warnings: string[] = [];
    const skipped: SkippedJournalLine[] = [];
    const records = readJournal(journal.path, (_level, message) => warnings.push(message), skipped);
    expect(records).to.have.length(1);
    expect(skipped).to.have.length(100_000);
    expect(warnings).to.have.length(21);
    expect(warnings[0]).to.equal(`${journal.path}:2:1: unreadable line (8 bytes); skipped`);
    expect(warnings[20]).to.equal(`${journal.path}: 99980 more lines skipped (100000 in all), not listed`);
    const parsedWarnings: string[] = [];
    parseJournal('x\n'.repeat(25), (_level, message) => parsedWarnings.push(message), 'j.jsonl');
    expect(parsedWarnings.at(-1)).to.equal('j.jsonl: 5 more lines skipped (25 in all), not listed');
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

  it('group writes its records together when fn returns, and calls listeners only after that write', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    journal.appendObject(node('before'));
    const seenByListener: { seq: number; onDisk: number }[] = [];
    journal.subscribe((r) => seenByListener.push({ seq: r.seq, onDisk: readJournal(journal.path).length }));
    const returned = journal.group(() => {
      const a = journal.appendObject(node('a'));
      journal.group(() => journal.appendObject(node('b'))); // nested: joins the outer group
      // Stamped and returned at once, but not written yet: nothing outside the group can have seen it.
      expect(readJournal(journal.path).map((r) => r.seq)).to.deep.equal([0]);
      expect(seenByListener.map((x) => x.seq)).to.deep.equal([]);
      return a.seq;
    });
    expect(returned).to.equal(1);
    expect(readJournal(journal.path).map((r) => r.seq)).to.deep.equal([0, 1, 2]);
    // Every listener call found the whole group on disk.
    expect(seenByListener).to.deep.equal([{ seq: 1, onDisk: 3 }, { seq: 2, onDisk: 3 }]);
    journal.close();
  });

  it('group writes early once GROUP_MAX_BYTES are pending, and still writes what fn appended when fn throws', () => {
    const journal = openJournal(join(dir, 'observations.jsonl'));
    const big = { ...node('big'), object: { metadata: { name: 'big' }, padding: 'x'.repeat(GROUP_MAX_BYTES / 4) } };
    let onDiskAfterFour = -1;
    expect(() =>
      journal.group(() => {
        for (let i = 0; i < 4; i++) journal.appendObject(big);
        onDiskAfterFour = readJournal(journal.path).length; // 4 × ¼ MiB (plus the envelope) passed the bound
        journal.appendObject(node('last'));
        throw new Error('boom');
      }),
    ).to.throw('boom');
    expect(onDiskAfterFour).to.equal(4);
    expect(readJournal(journal.path).map((r) => r.seq)).to.deep.equal([0, 1, 2, 3, 4]);
    journal.close();
  });

  it('a kill -9 while a writer appends in groups leaves every record it had acknowledged outside the group, in order', async () => {
    // The child appends groups of 1 to 40 records (some large enough to pass GROUP_MAX_BYTES inside a group) and,
    // after each group returns, tells the parent the last seq: that message is I/O outside the group, the first
    // thing that could act on the records. It is killed with SIGKILL at an arbitrary point of that loop.
    const journalUrl = new URL('../../../lib/observe/journal.js', import.meta.url).href;
    const path = join(dir, 'observations.jsonl');
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      import { writeSync } from 'node:fs';
      import { openJournal } from ${JSON.stringify(journalUrl)};
      const journal = openJournal(${JSON.stringify(path)});
      for (let g = 0; ; g++) {
        const size = 1 + (g * 7919) % 40;
        const last = journal.group(() => {
          let seq = -1;
          for (let i = 0; i < size; i++) {
            const padding = 'p'.repeat((g * 31 + i * 17) % 25 === 0 ? 600000 : 200);
            seq = journal.appendObject({ kind: 'Pod', verb: 'MODIFIED', name: 'p' + i, uid: 'u' + i, resourceVersion: String(g), object: { padding } }).seq;
          }
          return seq;
        });
        writeSync(1, 'acked ' + last + '\\n');
      }
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (!killed && output.split('\n').length > 100) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    const signal = await new Promise((resolve) => child.on('close', (_code, sig) => resolve(sig)));
    expect(signal).to.equal('SIGKILL');
    const acked = output.split('\n').filter((l) => l.startsWith('acked ')).map((l) => Number(l.slice(6)));
    expect(acked.length).to.be.at.least(100);
    const warnings: string[] = [];
    const seqs = readJournal(path, (_l, m) => warnings.push(m)).map((r) => r.seq);
    // Contiguous from 0 (nothing lost in the middle), and every acknowledged record is there.
    expect(seqs).to.deep.equal(seqs.map((_s, i) => i));
    expect(seqs.length - 1).to.be.at.least(Math.max(...acked));
    // At most the last line torn by the kill.
    expect(warnings.filter((w) => !/torn last line/.test(w))).to.deep.equal([]);
  });

  it('parseJournal ignores blank lines and reports a line that is not a record', () => {
    const warnings: string[] = [];
    const records = parseJournal('{"seq":0,"type":"gap","kind":"Pod","fromMs":1,"toMs":2,"reason":"x","receivedAtMs":2}\n\n[1,2]\n', (_l, m) => warnings.push(m));
    expect(records).to.have.length(1);
    expect(warnings).to.deep.equal(['observations.jsonl:3:1: not a journal record (not a JSON object); skipped']);
  });

  it('parseJournal reads the first record of a journal an editor saved with a byte order mark (it was skipped as unreadable)', () => {
    const warnings: string[] = [];
    const records = parseJournal('\ufeff{"seq":0,"type":"gap","kind":"Pod","fromMs":1,"toMs":2,"reason":"x","receivedAtMs":2}\n', (_l, m) => warnings.push(m));
    expect(records.map((r) => r.seq)).to.deep.equal([0]);
    expect(warnings).to.deep.equal([]);
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-journal-bom-'));
    try {
      appendFileSync(join(dir, 'o.jsonl'), '\ufeff{"seq":0,"type":"gap","kind":"Pod","fromMs":1,"toMs":2,"reason":"x","receivedAtMs":2}\n');
      expect(readJournal(join(dir, 'o.jsonl'), (_l, m) => warnings.push(m)).map((r) => r.seq)).to.deep.equal([0]);
      expect(warnings).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells a line skipped in the middle (damage) from the torn last line a kill -9 leaves, with line and column', () => {
    const gap = (seq: number) => `{"seq":${seq},"type":"gap","kind":"Pod","fromMs":1,"toMs":2,"reason":"x","receivedAtMs":2}`;
    const warnings: string[] = [];
    const skipped: SkippedJournalLine[] = [];
    const records = parseJournal(`${gap(0)}\n{"seq":1x}\n${gap(2)}\n{"seq":3,"ty`, (_l, m) => warnings.push(m), 'j.jsonl', skipped);
    expect(records.map((r) => r.seq)).to.deep.equal([0, 2]);
    expect(skipped).to.deep.equal([
      { line: 2, column: 9, problem: 'unreadable line (10 bytes)', tornLast: false },
      { line: 4, column: 13, problem: 'torn last line (12 bytes)', tornLast: true },
    ]);
    expect(warnings).to.deep.equal(['j.jsonl:2:9: unreadable line (10 bytes); skipped', 'j.jsonl:4:13: torn last line (12 bytes); skipped']);
  });

  it('recordProblem: a record of the wrong shape is named and skipped, so a run directory from elsewhere cannot crash the analysis', () => {
    const base = { seq: 1, receivedAtMs: 1_700_000_000_000 };
    const object = { ...base, type: 'object', kind: 'Pod', verb: 'ADDED', name: 'p', uid: 'u', resourceVersion: '1', object: { metadata: {} } };
    expect(recordProblem(object)).to.equal(null);
    expect(recordProblem({ ...base, type: 'phase', phase: 'settled' })).to.equal(null);
    // The forecast frozen before the fault is a record too: dropping it made every run's forecast "recomputed".
    expect(recordProblem({ ...base, type: 'forecast', forecast: { targets: ['w1'], items: [] } })).to.equal(null);
    const wrong: [unknown, string][] = [
      [[], 'not a JSON object'],
      [{ ...object, seq: 'x' }, 'seq is not a number'],
      [{ ...object, receivedAtMs: 1e308 }, 'receivedAtMs is not an instant in milliseconds'],
      [{ ...object, kind: 'Secret' }, 'kind is not a watched kind'],
      [{ ...object, verb: 'BOOKMARK' }, 'verb is not LISTED, ADDED, MODIFIED or DELETED'],
      [{ ...object, object: 'x' }, 'object is not a JSON object'],
      [{ ...base, type: 'phase', phase: 'x', nodes: 'n' }, 'nodes is not a list of names'],
      [{ ...base, type: 'gap', kind: 'Pod', fromMs: 'a', toMs: 1 }, 'a gap needs kind, fromMs and toMs'],
      [{ ...base, type: 'probe', probe: 'p' }, 'a probe record needs probe, sentAtMs, latencyMs and outcome'],
      [{ ...base, type: 'forecast', forecast: { items: [] } }, 'a forecast record needs forecast.items and forecast.targets lists'],
      [{ ...base, type: 'other' }, 'type is not object, phase, gap, probe or forecast'],
    ];
    for (const [value, problem] of wrong) expect(recordProblem(value), JSON.stringify(value)).to.equal(problem);
  });

  it('throws InfraError (exit code 3) when the journal cannot be read', () => {
    expect(() => readJournal(join(dir, 'missing.jsonl'))).to.throw(/cannot read journal/).with.property('exitCode', 3);
  });
});
