// The incremental recovery tracker against the full re-analysis it replaces: fed the recorded journals record by
// record, it must give the same RecoveryState as recoveryOfAnalysis(analyze(records so far)) after every record.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { analyze } from '../../../lib/analyze/analyze.js';
import { RecoveryTracker, recoveryOfAnalysis, type RecoveryState } from '../../../lib/analyze/recovery.js';
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
    if (firstRecovered === null && reference.nodesBack && reference.workloadsSettled && reference.effectsSeen) firstRecovered = i;
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
  this.timeout(120_000);
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
});
