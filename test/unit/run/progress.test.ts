// Progress lines for a journal recorded on a real kind cluster (outage-tuned): what a person watching
// the run sees, in order, with times since the fault command's start (time zero; docker stop took 2.6 s here).
import { expect } from 'chai';
import { join } from 'node:path';
import { readJournal } from '../../../lib/observe/index.js';
import { createProgress } from '../../../lib/run/progress.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

describe('run progress (plain lines, not a TTY)', () => {
  it('reports the fault, NotReady, evictions, deletions and the node Ready again, from a recorded outage', () => {
    const records = readJournal(join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded/observations.jsonl'));
    const written: string[] = [];
    const progress = createProgress({ isTTY: false, write: (text) => written.push(text) }, () => records[0].receivedAtMs);
    for (const record of records) progress.onObservation(record);
    progress.close();
    const lines = written.join('').trim().split('\n').map((l) => l.replace(/^\[\s*\d+ s\] /, ''));
    expect(lines[0]).to.equal('fault-injecting rebootlab-worker');
    expect(lines).to.include('+22.2 s node rebootlab-worker Ready=Unknown');
    expect(lines.filter((l) => l.includes('evicted (deletionTimestamp set)'))).to.have.length(3); // web ×2, solo
    expect(lines.some((l) => /node rebootlab-worker Ready again$/.test(l))).to.equal(true);
    expect(lines.indexOf('+22.2 s node rebootlab-worker Ready=Unknown')).to.be.below(lines.findIndex((l) => l.includes('evicted')));
  });

  it('a second variant of a matrix counts its times from its own fault, not the first one', () => {
    const records = readJournal(join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded/observations.jsonl'));
    // The same recorded run twice in one progress, the second shifted by 10 minutes: as a 2-variant matrix is shown.
    const shift = 600_000;
    const second = records.map((r) => ({ ...r, receivedAtMs: r.receivedAtMs + shift }));
    const written: string[] = [];
    const progress = createProgress({ isTTY: false, write: (text) => written.push(text) }, () => records[0].receivedAtMs);
    for (const record of [...records, ...second]) progress.onObservation(record);
    progress.close();
    const lines = written.join('').trim().split('\n').map((l) => l.replace(/^\[\s*\d+ s\] /, ''));
    expect(lines.filter((l) => l === '+22.2 s node rebootlab-worker Ready=Unknown')).to.have.length(2);
  });
});
