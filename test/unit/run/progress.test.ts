// Progress lines for a journal recorded on a real kind cluster (outage-tuned): what a person watching
// the run sees, in order, with times since the fault command's start (time zero; docker stop took 2.6 s here).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
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

describe('run progress countdown (TTY)', () => {
  it('counts down to the detection window and then the eviction window that lib/analyze/windows.ts gives (outage-tuned settings)', () => {
    const records = readJournal(join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded/observations.jsonl'));
    const injecting = records.find((r) => r.type === 'phase' && r.phase === 'fault-injecting')!;
    const settings = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded/run.json'), 'utf8')).settings;
    let now = injecting.receivedAtMs;
    const written: string[] = [];
    const progress = createProgress({ isTTY: true, write: (text) => written.push(text) }, () => now);
    progress.phase('injecting power-off', settings);
    progress.onObservation(injecting);
    // Grace 20 s, lease 20 s (heartbeat every 5 s), monitor 5 s: Unknown in [20 − 5 − 1, 20 + 10 + 1] = [14, 31] s.
    now += 4_000;
    progress.phase('observing');
    expect(written.at(-1)).to.match(/node should go NotReady in 10–27 s$/);
    now += 16_000;
    progress.phase('still observing');
    expect(written.at(-1)).to.match(/node should go NotReady any moment now \(window ends in 11 s\)$/);
    // Once NotReady is seen: the taint from [15, 31] s, evictions 30 s (default toleration) later: [45, 63] s.
    const notReady = records.find((r) => r.type === 'object' && r.kind === 'Node' && r.name === 'rebootlab-worker' && JSON.stringify(r.object).includes('"NodeStatusUnknown"'))!;
    progress.onObservation(notReady);
    expect(written.at(-1)).to.match(/default-toleration pods evicted in \d+–\d+ s$/);
    now = injecting.receivedAtMs + 30_000;
    progress.phase('waiting');
    expect(written.at(-1)).to.match(/default-toleration pods evicted in 15–33 s$/);
    progress.close();
  });
});
