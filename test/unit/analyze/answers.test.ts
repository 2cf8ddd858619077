// Tests for lib/analyze/answers.ts: the plain-words answer per workload, on runs recorded on kind and kwok, and its
// place at the top of summary.md and report.html.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_RUNS_DIR, loadFixtureRun } from './fixture-runs.js';
import type { RunAnalysis } from '../../../lib/analyze/types.js';
import { rebuildReports } from '../../../lib/report/write-reports.js';

function answerOf(analysis: RunAnalysis, workload: string): string | undefined {
  return analysis.answers.find((a) => a.workload === workload)?.sentence;
}

/**
 * Recorded run → workload → the sentence Kubernetes' semantics make of it. Each names the mechanism: the kubelet
 * re-lists its pods from the API server after a restart (same UID), a reboot gives new sandboxes and containers, a
 * kubelet restart keeps the runtime's containers, taint + toleration, PodGC after a Node deletion, the Eviction API.
 */
const ROWS: { run: string; workload: string; sentence: string }[] = [
  {
    run: 'kind-reboot-quick-recorded',
    workload: 'db',
    sentence: 'db: db-0 restarted in place on rebootlab-worker, Ready again 11.4 s after the reboot — same pod object (UID unchanged) re-read from the API server, ' +
      'new sandbox (new pod IP), new container (restartCount +1); volume data kept (the marker written before the fault read back from db-0 on rebootlab-worker).',
  },
  {
    run: 'kind-reboot-quick-recorded',
    workload: 'agent',
    sentence: 'agent: agent-slhws restarted in place on rebootlab-worker, Ready again 11.5 s after the reboot — same pod object (UID unchanged) re-read from the API server, ' +
      'new sandbox (new pod IP), new container (restartCount +1); agent-k8vkh on rebootlab-worker2 unaffected (not a fault target).',
  },
  {
    run: 'kind-kubelet-restart-recorded',
    workload: 'web',
    sentence: 'web: web-774648d964-dq7t2 kept running on rl-cat-e2e-clients-worker through the kubelet restart, Ready=False from 5.4 s (phase Running), Ready again at 5.6 s — ' +
      'same pod object (UID unchanged) re-read from the API server, same pod IP, same container (restartCount unchanged): the runtime kept it running.',
  },
  {
    run: 'kind-outage-tuned-recorded',
    workload: 'solo',
    sentence: 'solo: the pod evicted 52.3 s after the power-off (unreachable taint at 22.1 s + 30 s toleration), not replaced: a bare Pod has no controller to recreate it.',
  },
  {
    run: 'kind-sts-force-delete-recorded',
    workload: 'db',
    sentence: 'db: db-0 evicted 50.3 s after the power-off (unreachable taint at 20.2 s + 30 s toleration), recreated under the same name (new UID) on rl-cat-e2e-worker2, Ready at 63.9 s.',
  },
  {
    run: 'kind-node-delete-podgc-recorded',
    workload: 'web',
    sentence: 'web: both pods deleted by pod garbage collection 45.2–45.4 s after the node deletion (its Node was deleted at 2.1 s), replaced by new pods on rl-api-e2e-worker2, Ready at 47.5 s.',
  },
  {
    run: 'kind-out-of-service-early-recorded',
    workload: 'db',
    sentence: 'db: db-0 evicted 3.1 s after the power-off (out-of-service taint at 3.0 s, not tolerated), recreated under the same name (new UID) on rl-rec2-worker2, Ready at 29.5 s.',
  },
  {
    run: 'kind-runtime-stop-recorded',
    workload: 'web',
    sentence: 'web: both pods evicted 66.8–67.0 s after the runtime stop (not-ready taint at 36.4 s + 30 s toleration), replaced by new pods on rl-rec2-worker2, Ready at 69.7 s.',
  },
  {
    run: 'kind-rolling-reboot-recorded',
    workload: 'web',
    sentence: 'web: all 4 pods evicted 5.2–12.0 s after the reboot (Eviction API, PodDisruptionBudgets honoured: a drain or an evict-pods step), replaced by new pods on ' +
      'rebootlab-scripts-worker, Ready at 7.7–13.8 s.',
  },
  {
    // Three taints 15 s apart: one clause whose instants are spans; the replacements' scheduler reason cut at its first sentence.
    run: 'kind-staggered-workers-recorded',
    workload: 'web',
    sentence: 'web: all 6 pods evicted 50.3–80.6 s after the power-off (unreachable taint at 20.0–50.0 s + 30 s toleration); 6 replacements Pending at the end ' +
      '(Unschedulable: 0/4 nodes are available: 4 node(s) had untolerated taint(s)).',
  },
  {
    run: 'kwok-zone-partial-disruption-recorded',
    workload: 'web',
    sentence: 'web: 6 of 8 pods on rebootlab-worker2, rebootlab-worker3 and rebootlab-worker not evicted (no NoExecute taint on the node); Ready=False from 21.8 s ' +
      '(phase Running), not Ready again by the end; 2 of 8 pods on rebootlab-worker4 unaffected (not a fault target).',
  },
  {
    run: 'power-off-past-toleration',
    workload: 'db',
    sentence: 'db: db-0 evicted 53.0 s after the power-off (unreachable taint at 22.3 s + 30 s toleration), still Terminating at the end (120.9 s): the kubelet of kind-worker ' +
      'never confirmed the deletion, and a StatefulSet creates the pod of the same name only once the old one is gone.',
  },
];

describe('analyze/answers: one plain-words sentence per workload', () => {
  for (const row of ROWS) {
    it(`${row.run} ${row.workload}`, () => {
      expect(answerOf(loadFixtureRun(row.run).analysis, row.workload)).to.equal(row.sentence);
    });
  }

  it('kind-reboot-quick-recorded: container IDs and UIDs before and after (new containers, same pod objects)', () => {
    const { analysis } = loadFixtureRun('kind-reboot-quick-recorded');
    const db = analysis.pods.find((p) => p.name === 'db-0')!;
    expect(db.containerIDsBefore).to.deep.equal(['containerd://cd3f0da009d59c7e07417d30213b9b03057701ab698063e5e932f3bc0465116c']);
    expect(db.containerIDsAfter).to.have.length(1);
    expect(db.containerIDsAfter?.[0]).to.not.equal(db.containerIDsBefore?.[0]);
    expect(db.replacement).to.equal(null);
  });

  it('summary.md of reboot-quick opens with the plain-words answer, data probe included; report.html shows it first too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-answers-'));
    for (const f of ['observations.jsonl', 'run.json']) cpSync(join(FIXTURE_RUNS_DIR, 'kind-reboot-quick-recorded', f), join(dir, f));
    await rebuildReports(dir);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const lines = md.split('\n');
    expect(lines.slice(0, 4)).to.deep.equal(['# reboot-quick: passed', '', '## What happened', '']);
    expect(lines[4]).to.match(/^- web: both pods restarted in place on rebootlab-worker, Ready again 11\.5–11\.6 s after the reboot — /);
    expect(lines[5]).to.include('volume data kept (the marker written before the fault read back from db-0 on rebootlab-worker)');
    // The tables show the data probe, and each pod's UID and container IDs before → after.
    expect(md).to.match(/^\| db \| StatefulSet \| 1 \| 1 \| 0 \| 1 \| 11\.362 s \| 4\.467 s \| 0\.000 s \| 11\.362 s \| kept \|$/m);
    expect(md).to.match(/^\| rebootlab\/db-0 \| db \| restarted-in-place \| rebootlab-worker → rebootlab-worker \| 0c3e0907 → 0c3e0907 \| 10\.244\.2\.13 → 10\.244\.2\.6 \| cd3f0da009d5 → [0-9a-f]{12} \|/m);
    expect(page.indexOf('data-answer="db"')).to.be.above(0).and.below(page.indexOf('<h2>Timeline</h2>'));
  });
});
