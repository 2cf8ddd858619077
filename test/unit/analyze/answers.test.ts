// Tests for lib/analyze/answers.ts: the plain-words answer per workload and per node, on runs recorded on kind and kwok, and its
// place at the top of summary.md and report.html.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_RUNS_DIR, loadFixtureRun } from './fixture-runs.js';
import { timeZeroMarker } from './edited-journals.js';
import { analyze } from '../../../lib/analyze/analyze.js';
import { analyzeOptionsOf } from '../../../lib/report/write-reports.js';
import type { RunAnalysis } from '../../../lib/analyze/types.js';
import { rebuildReports } from '../../../lib/report/write-reports.js';
import { renderSummary } from '../../../lib/report/reporters/markdown.js';
import { renderHtmlReport } from '../../../lib/report/reporters/html.js';
import type { Result } from '../../../lib/report/result-types.js';

/** summary.md and report.html of recorded run `name`, rebuilt by `rebootlab report`'s code in a temporary copy. */
async function rebuiltReportsOf(name: string): Promise<{ md: string; page: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rebootlab-answers-'));
  try {
    for (const f of ['observations.jsonl', 'run.json']) cpSync(join(FIXTURE_RUNS_DIR, name, f), join(dir, f));
    await rebuildReports(dir);
    return { md: readFileSync(join(dir, 'summary.md'), 'utf8'), page: readFileSync(join(dir, 'report.html'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
      'same pod object (UID unchanged) re-read from the API server, same pod IP, same container (restartCount unchanged): the runtime kept it running; ' +
      'its Service\'s clients failed 21 of 783 requests from 5.9 s to 6.9 s (prober web).',
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
    // A kubelet stop past detection: the containers keep running, yet the Service's clients lose them from when the
    // node lifecycle controller marks the pods Ready=False (MarkPodsNotReady) until the kubelet reports them Ready.
    run: 'kind-control-plane-cut-off-recorded',
    workload: 'web',
    sentence: 'web: all 3 pods kept running on rl-cat-e2e-clients-worker, rl-cat-e2e-clients-worker2 and rl-cat-e2e-clients-worker3 through the kubelet stop, ' +
      'Ready=False from 22.5–23.5 s (phase Running), Ready again at 97.1 s — same pod objects (UIDs unchanged) re-read from the API server, same pod IPs, ' +
      'same containers (restartCount unchanged): the runtime kept them running; its Service\'s clients failed 1263 of 1950 requests from 25.1 s to 96.1 s (prober web).',
  },
  {
    run: 'kind-probed-runtime-stop-recorded',
    workload: 'web',
    sentence: 'web: web-89f9fcb64-nlp7n kept running on rl-cat-e2e-worker through the runtime stop — same pod object (UID unchanged), same pod IP, same container ' +
      '(restartCount unchanged): the runtime kept it running; its Service\'s clients lost nothing (prober web: 0 of 943 requests failed).',
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
    const { md, page } = await rebuiltReportsOf('kind-reboot-quick-recorded');
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

/**
 * Recorded run → node → its sentence: who marked it NotReady (the controller's Unknown after the last Lease renewal,
 * or the kubelet's own Ready=False), the taints by key and effect, the Node's deletion, Ready again and how long after
 * the fault's end began; a target nothing happened to stayed Ready.
 */
const NODE_ROWS: { run: string; node: string; sentence: string }[] = [
  {
    run: 'kind-outage-tuned-recorded', node: 'rebootlab-worker',
    sentence: 'rebootlab-worker: Ready=Unknown at 22.1 s (its last Lease renewal at -1.0 s); node.kubernetes.io/unreachable NoSchedule at 22.1 s, NoExecute at 22.1 s; Ready again at 131.1 s, 8.3 s after the power-on began.',
  },
  {
    run: 'kind-graceful-shutdown-real-recorded', node: 'rebootlab-worker',
    sentence: 'rebootlab-worker: Ready=False at 0.6 s, reported by its kubelet (KubeletNotReady); node.kubernetes.io/not-ready NoSchedule at 0.6 s, NoExecute at 0.6 s; node.kubernetes.io/unreachable NoExecute at 20.6 s, NoSchedule at 20.6 s; Ready again at 68.6 s, 3.9 s after the power-on began.',
  },
  { run: 'kind-node-delete-podgc-recorded', node: 'rl-api-e2e-worker', sentence: 'rl-api-e2e-worker: its Node object deleted at 2.1 s, registered again at 157.1 s.' },
  { run: 'kind-kubelet-restart-recorded', node: 'rl-cat-e2e-clients-worker', sentence: 'rl-cat-e2e-clients-worker: stayed Ready throughout.' },
  // The third worker lost the informer-cache race: Unknown and NoSchedule, never the NoExecute taint.
  {
    run: 'kind-staggered-workers-third-untainted-recorded', node: 'rebootlab-worker3',
    sentence: 'rebootlab-worker3: Ready=Unknown at 49.3 s (its last Lease renewal at 26.3 s); node.kubernetes.io/unreachable NoSchedule at 49.3 s; still not Ready when the observation ended (115.8 s).',
  },
  // Not a target: drained by the script (cordoned), so it is listed for its taint.
  { run: 'kind-rolling-reboot-recorded', node: 'rebootlab-scripts-worker2', sentence: 'rebootlab-scripts-worker2: node.kubernetes.io/unschedulable NoSchedule at 4.1 s.' },
  { run: 'kind-partition-heal-node-30s-v1372-recorded', node: 'rebootlab-worker', sentence: 'rebootlab-worker: Ready=Unknown at 23.6 s (its last Lease renewal at -1.1 s); node.kubernetes.io/unreachable NoSchedule at 23.6 s, NoExecute at 23.6 s; Ready again at 39.6 s, 9.2 s after the heal began.' },
];

describe('analyze/answers: one plain-words sentence per node the fault touched', () => {
  for (const row of NODE_ROWS) {
    it(`${row.run} ${row.node}`, () => {
      expect(loadFixtureRun(row.run).analysis.nodeAnswers.find((a) => a.node === row.node)?.sentence).to.equal(row.sentence);
    });
  }

  it('lists targets and the nodes something happened to, not the untouched ones (the control plane of outage-tuned)', () => {
    expect(loadFixtureRun('kind-outage-tuned-recorded').analysis.nodeAnswers.map((a) => a.node)).to.deep.equal(['rebootlab-worker']);
  });

  it('summary.md and report.html list the node sentences after the workloads\', at most 12, saying how many more result.json has', async () => {
    const { md, page } = await rebuiltReportsOf('kind-outage-tuned-recorded');
    const lines = md.split('\n');
    expect(lines.slice(4, 7).map((l) => l.slice(0, 20))).to.deep.equal(['- web: both pods evi', '- solo: the pod evic', '- rebootlab-worker: ']);
    expect(page.indexOf('data-node-answer="rebootlab-worker"')).to.be.above(page.indexOf('data-answer="solo"')).and.below(page.indexOf('<h2>Timeline</h2>'));
    // The cap, on the same result with 14 node sentences (no recorded run touches more than 10 nodes).
    const result = JSON.parse(readFileSync(join(FIXTURE_RUNS_DIR, 'kind-outage-tuned-recorded', 'result.json'), 'utf8')) as Result;
    result.nodeAnswers = Array.from({ length: 14 }, (_, i) => ({ node: `n${i}`, sentence: `n${i}: stayed Ready throughout.` }));
    const capped = renderSummary(result).split('\n');
    expect(capped.filter((l) => /^- n\d+: /.test(l))).to.have.length(12);
    expect(capped).to.include('- … and 2 more nodes (result.json `nodeAnswers` has each)');
    expect(renderHtmlReport(result)).to.contain('… and 2 more nodes');
  });
});

/**
 * An interrupted run (kill -9 3.5 s into a partition, then `doctor --restore`): what its journal shows stopped early,
 * so no sentence says "throughout" or "recovered". The recorded 30 s partition journal cut 3.5 s after time zero,
 * without its run-finished marker, as the killed run left it.
 */
describe('analyze/answers: an interrupted run says how long it was observed', () => {
  const run = loadFixtureRun('kind-partition-heal-node-30s-v1372-recorded');
  const zeroMs = timeZeroMarker(run.observations).receivedAtMs;
  const cut = run.observations.filter((o) => o.receivedAtMs <= zeroMs + 3500 && !(o.type === 'phase' && o.phase === 'run-finished'));
  const analysis = analyze(cut, analyzeOptionsOf(run.info));
  const observed = analysis.endAfterSeconds.toFixed(1);

  it('the target stayed Ready only for the seconds observed, and each workload sentence says the run was interrupted', () => {
    expect(analysis.status).to.equal('interrupted');
    expect(analysis.endAfterSeconds).to.be.within(3, 3.5);
    expect(analysis.nodeAnswers.find((a) => a.node === 'rebootlab-worker')?.sentence)
      .to.equal(`rebootlab-worker: stayed Ready for the ${observed} s observed: the run was interrupted.`);
    expect(analysis.answers.length).to.be.above(0);
    // A target's pods look as before in the API until the fault is detected: not "kept running through" it.
    expect(analysis.answers.map((a) => a.sentence).join(' ')).to.not.include('kept running');
    for (const a of analysis.answers) expect(a.sentence).to.match(new RegExp(`; observed for ${observed.replace('.', '\\.')} s only: the run was interrupted\\.$`));
    // The whole run, finished, says neither.
    expect(run.analysis.nodeAnswers.map((a) => a.sentence).join(' ')).to.not.include('interrupted');
  });

  it('summary.md and report.html do not call its workloads recovered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-answers-'));
    try {
      cpSync(join(run.dir, 'run.json'), join(dir, 'run.json'));
      writeFileSync(join(dir, 'observations.jsonl'), cut.map((o) => JSON.stringify(o)).join('\n') + '\n');
      await rebuildReports(dir);
      const md = readFileSync(join(dir, 'summary.md'), 'utf8');
      const page = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(md).to.include(`Workloads not known: the run was interrupted at ${observed} s.`);
      expect(md).to.not.match(/Workloads recovered/);
      expect(page).to.include(`Workloads not known: the run was interrupted at ${observed} s;`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
