// The incremental recovery tracker against the full re-analysis it replaces: fed the recorded journals record by
// record, it must give the same RecoveryState as recoveryOfAnalysis(analyze(records so far)) after every record.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { analyze } from '../../../lib/analyze/analyze.js';
import { pendingPredictions, RecoveryTracker, recoveryOfAnalysis, type RecoveryState } from '../../../lib/analyze/recovery.js';
import type { Observation } from '../../../lib/observe/types.js';
import { FIXTURE_RUNS_DIR, loadFixtureRun } from './fixture-runs.js';

/** Per record (index in seq order), the old decision and the tracker's, from the first fault-injected marker on. */
function compareRecordByRecord(observations: readonly Observation[], scenario: string): { states: RecoveryState[]; firstRecovered: number | null } {
  const { info } = loadFixtureRun(scenario);
  const sorted = [...observations].sort((a, b) => a.seq - b.seq);
  const tracker = new RecoveryTracker(info.workloads);
  const states: RecoveryState[] = [];
  let injected = false;
  let firstRecovered: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    tracker.add(sorted[i]);
    injected ||= sorted[i].type === 'phase' && (sorted[i] as { phase?: string }).phase === 'fault-injected';
    if (!injected) {
      expect(tracker.state(), `${scenario}: state before fault-injected (record ${i})`).to.equal(null);
      continue;
    }
    const reference = recoveryOfAnalysis(analyze(sorted.slice(0, i + 1), { settings: info.settings, workloads: info.workloads }));
    expect(tracker.state(), `${scenario}: record ${i} (seq ${sorted[i].seq})`).to.deep.equal(reference);
    states.push(reference);
    if (firstRecovered === null && reference.nodesBack && reference.workloadsSettled && reference.effectsSeen && reference.podsOnLiveNodes) firstRecovered = i;
  }
  return { states, firstRecovered };
}

/** How many times any part of the decision changed from one record to the next. */
function flips(states: readonly RecoveryState[]): number {
  let n = 0;
  for (let i = 1; i < states.length; i++) if (JSON.stringify(states[i]) !== JSON.stringify(states[i - 1])) n += 1;
  return n;
}

describe('RecoveryTracker (incremental recovery check) against the full re-analysis', function () {
  // A hang guard, not a speed target (bench/ holds those): the 4,590-record kwok journal's re-analysis per record takes
  // about 45 s of CPU alone, and over 120 s of wall time when the machine is busy (a toolchain build beside it).
  this.timeout(300_000);
  // Every fixture run but the two probe journals (4,585 and 2,186 probe records: their re-analysis per record alone
  // takes minutes; the first is the bench/ journal): recorded kind runs and synthesized ones.
  const PROBE_JOURNALS = new Set(['kind-service-probes-recorded', 'kind-power-off-blackhole-recorded']);
  const scenarios = readdirSync(FIXTURE_RUNS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !PROBE_JOURNALS.has(d.name))
    .map((d) => d.name)
    .sort();

  it('covers at least the recorded StatefulSet force-delete and out-of-service journals', () => {
    expect(scenarios).to.include.members(['kind-sts-force-delete-recorded', 'kind-out-of-service-early-recorded', 'kind-reboot-quick-recorded', 'kind-outage-tuned-recorded']);
  });

  for (const scenario of scenarios) {
    it(`${scenario}: the same decision after every record`, () => {
      const { observations } = loadFixtureRun(scenario);
      const { states } = compareRecordByRecord(observations, scenario);
      expect(states.length, 'records after fault-injected').to.be.greaterThan(0);
    });
  }

  it('the recorded journals exercise every part of the decision both ways (StatefulSet, out-of-service, outage, runtime stop)', () => {
    for (const scenario of ['kind-sts-force-delete-recorded', 'kind-out-of-service-early-recorded', 'kind-outage-tuned-recorded', 'kind-runtime-stop-recorded']) {
      const { states } = compareRecordByRecord(loadFixtureRun(scenario).observations, scenario);
      expect(flips(states), `${scenario}: changes of the decision`).to.be.at.least(3);
      for (const part of ['nodesBack', 'effectsSeen', 'workloadsSettled'] as const) {
        expect(states.map((s) => s[part]), `${scenario}: ${part} over the records`).to.include.members([true, false]);
      }
      expect(states[0], `${scenario}: right after the fault the pods on the target show no effect yet`).to.include({ effectsSeen: false });
    }
  });

  it('the runs that recovered are recovered from the same record on, in both', () => {
    // Record indexes (seq order) where all three parts first hold, read off the old re-analysis.
    const expected: Record<string, number> = {
      'kind-reboot-quick-recorded': 252, 'kind-outage-tuned-recorded': 253, 'kind-runtime-stop-recorded': 322, 'kind-service-outage-recorded': 256,
    };
    for (const [scenario, index] of Object.entries(expected)) {
      expect(compareRecordByRecord(loadFixtureRun(scenario).observations, scenario).firstRecovered, scenario).to.equal(index);
    }
  });

  /**
   * The "until: recovered" decision as run-variant takes it, replayed record by record: the tracker's five parts, then
   * no predicted consequence still open (pendingPredictions of the analysis so far) within `timeoutSeconds`.
   * Returns the receipt (seconds since time zero) of the first record at which it would end, and the earliest at
   * which the rule before issue 24 (three parts, no pending check) would have.
   */
  function untilRecovered(scenario: string, timeoutSeconds: number): { now: number | null; before: number | null } {
    const { observations, info } = loadFixtureRun(scenario);
    const sorted = [...observations].sort((a, b) => a.seq - b.seq);
    const tracker = new RecoveryTracker(info.workloads);
    let now: number | null = null;
    let before: number | null = null;
    for (let i = 0; i < sorted.length && now === null; i++) {
      tracker.add(sorted[i]);
      const s = tracker.state();
      if (!s || tracker.faultInjectedAtMs === null) continue;
      if (!(s.nodesBack && s.workloadsSettled && s.effectsSeen)) continue;
      const at = (sorted[i].receivedAtMs - tracker.faultInjectedAtMs) / 1000;
      before ??= at;
      if (!s.podsOnLiveNodes || !s.targetPodsBack) continue;
      const a = analyze(sorted.slice(0, i + 1), { settings: info.settings, workloads: info.workloads });
      if (pendingPredictions(a, timeoutSeconds).length === 0) now = at;
    }
    return { now, before };
  }

  it('a deleted Node (recorded node-delete-podgc): the old rule ended the observation while the pods were still bound to the deleted Node; now only once PodGC removed them (43.4 s) and the replacements were Ready', () => {
    const { now, before } = untilRecovered('kind-node-delete-podgc-recorded', 600);
    expect(before, 'the old rule').to.be.below(10);
    expect(now).to.be.above(43);
  });

  it('a reboot (recorded reboot-quick): the workloads were back 9.3 s after the fault command returned, the node\'s own CNI pod (Ready at the fault, restarted by the reboot) only at 18.3 s; the run ends only then', () => {
    const { now, before } = untilRecovered('kind-reboot-quick-recorded', 600);
    expect(now! - before!).to.be.closeTo(9.01, 0.01);
    const { observations, info } = loadFixtureRun('kind-reboot-quick-recorded');
    const sorted = [...observations].sort((a, b) => a.seq - b.seq);
    const tracker = new RecoveryTracker(info.workloads);
    sorted.slice(0, 253).forEach((o) => tracker.add(o));
    expect(tracker.state()).to.include({ nodesBack: true, workloadsSettled: true, effectsSeen: true, podsOnLiveNodes: true, targetPodsBack: false });
    sorted.slice(253, 261).forEach((o) => tracker.add(o));
    expect(tracker.state()).to.include({ targetPodsBack: true });
  });

  it('pendingPredictions: right after the Node deletion the PodGC deletions are still ahead (windows [D + 40, D + 81]); none once they happened', () => {
    const { observations, info } = loadFixtureRun('kind-node-delete-podgc-recorded');
    const sorted = [...observations].sort((a, b) => a.seq - b.seq);
    const zero = sorted.find((o) => o.type === 'phase' && o.phase === 'fault-injecting')!.receivedAtMs;
    const upTo = (s: number) => analyze(sorted.filter((o) => o.receivedAtMs <= zero + s * 1000), { settings: info.settings, workloads: info.workloads });
    const early = pendingPredictions(upTo(10), 600);
    expect(early.filter((i) => i.event === 'pod-deleted').length).to.be.at.least(2);
    expect(pendingPredictions(upTo(10), 30), 'a timeout before the windows close: nothing to wait for').to.deep.equal([]);
    const full = pendingPredictions(analyze(sorted, { settings: info.settings, workloads: info.workloads }), 600);
    expect(full.filter((i) => i.event === 'pod-deleted')).to.deep.equal([]);
  });
});
