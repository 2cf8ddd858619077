// The models by Kubernetes version (issue 25): one table of mechanisms (lib/analyze/mechanisms.ts) with the versions
// each behaviour holds for; the forecast and the causal model take the API server's version for the controllers'
// mechanisms and each Node's kubeletVersion for the kubelet's. Tested on recorded journals, the same journal read as
// two versions where a mechanism differs.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../lib/analyze/analyze.js';
import { forecast, judgeForecast, preFaultStateOfJournal, type Forecast, type ForecastItem } from '../../../lib/analyze/forecast/index.js';
import { behaviourFor, MECHANISMS, unsupportedVersionWarning } from '../../../lib/analyze/mechanisms.js';
import type { Observation } from '../../../lib/observe/types.js';
import { analyzeOptionsOf } from '../../../lib/report/write-reports.js';
import { copy } from './edited-journals.js';
import { FIXTURE_RUNS_DIR, loadFixtureRun } from './fixture-runs.js';

/** Every Node record's status.nodeInfo.kubeletVersion set to `version` (as a cluster of that version journals it). */
function withKubeletVersion(observations: readonly Observation[], version: string): Observation[] {
  return observations.map((o) => {
    if (o.type !== 'object' || o.kind !== 'Node') return o;
    const c = copy(o);
    const status = (c.object.status ??= {}) as { nodeInfo?: Record<string, unknown> };
    status.nodeInfo = { ...status.nodeInfo, kubeletVersion: version };
    return c;
  });
}

/** Every Pod record's running containers' startedAt moved `seconds` earlier: the same pods, up for longer before the fault. */
function startedEarlier(observations: readonly Observation[], seconds: number): Observation[] {
  return observations.map((o) => {
    if (o.type !== 'object' || o.kind !== 'Pod') return o;
    const c = copy(o);
    for (const s of ((c.object.status as { containerStatuses?: { state?: { running?: { startedAt?: string } } }[] } | undefined)?.containerStatuses ?? [])) {
      const at = s.state?.running?.startedAt;
      if (at !== undefined) s.state!.running!.startedAt = new Date(Date.parse(at) - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return c;
  });
}

describe('analyze: mechanisms by Kubernetes version', () => {
  describe('the table (lib/analyze/mechanisms.ts)', () => {
    it('every mechanism names its file and function, and its behaviours start at increasing minors', () => {
      for (const [id, m] of Object.entries(MECHANISMS)) {
        expect(m.file, id).to.match(/\S/);
        expect(m.function, id).to.match(/\S/);
        const minors = m.behaviours.map((b) => b.since).filter((s) => s !== 'any').map((s) => Number(/^v1\.(\d+)$/.exec(s)![1]));
        expect(minors, id).to.deep.equal([...minors].sort((a, b) => a - b));
      }
    });

    it('a behaviour holds from its minor until the next one, any patch or build suffix read as its minor', () => {
      expect(behaviourFor('kubelet-restart-readiness', 'v1.34.4').versions).to.equal('v1.27 to v1.34');
      expect(behaviourFor('kubelet-restart-readiness', 'v1.35.4').versions).to.equal('v1.35+');
      expect(behaviourFor('kubelet-restart-readiness', 'v1.35.4-gke.100').versions).to.equal('v1.35+');
      expect(behaviourFor('node-health', 'v1.36.3').versions).to.equal('v1.27 to v1.36');
      expect(behaviourFor('node-health', 'v1.37.2').behaviour.what).to.include('NodeControllerLeaseCircuitBreaker');
    });

    it('docs/versions-mechanisms.md lists every row of the table with the versions it holds for', () => {
      const doc = readFileSync(join(FIXTURE_RUNS_DIR, '../../../docs/versions-mechanisms.md'), 'utf8');
      const missing: string[] = [];
      for (const [id, m] of Object.entries(MECHANISMS)) {
        for (const b of m.behaviours) {
          const versions = b.since === 'any' ? 'any' : behaviourFor(id as keyof typeof MECHANISMS, `${b.since}.0`).versions;
          if (!doc.includes(`| \`${id}\` | ${versions} | `)) missing.push(`${id} ${versions}`);
        }
      }
      expect(missing).to.deep.equal([]);
    });

    it('a version outside the modelled minors says whose mechanisms are used; a modelled minor at any patch does not', () => {
      expect(unsupportedVersionWarning('v1.35.9')).to.equal(null);
      expect(unsupportedVersionWarning('v1.28.0')).to.match(/^Kubernetes v1\.28\.0 is outside the versions rebootlab models .*: its mechanisms are taken as those of v1\.34/);
      expect(unsupportedVersionWarning('v1.40.0')).to.match(/taken as those of v1\.37/);
    });
  });

  describe('forecast of a kubelet restart (recorded kind journal kind-kubelet-restart-recorded, kubelets v1.34.4)', () => {
    const run = loadFixtureRun('kind-kubelet-restart-recorded');
    const forecastAs = (observations: readonly Observation[], apiServer: string): Forecast =>
      forecast({ experiment: run.info.resolved!, settings: run.info.settings, kubernetesVersion: apiServer, preFault: preFaultStateOfJournal(observations, run.info.workloads)! });
    const item = (f: Forecast, event: ForecastItem['event']): ForecastItem => f.items.find((i) => i.event === event && (i.workload === 'web' || i.pod?.startsWith('rebootlab/web-')))!;
    // The same pod up for a minute before the fault (as recorded it had started 1.6 s before it).
    const longRunning = startedEarlier(run.observations, 60);

    it('v1.34: the restarted kubelet resets readiness until the first probe: workload and endpoint "maybe" unavailable (pkg/kubelet/prober/prober_manager.go UpdatePodStatus, v1.27 to v1.34); held against the journal', () => {
      const f = forecastAs(longRunning, 'v1.34.4');
      expect(item(f, 'workload-unavailable')).to.include({ happens: 'maybe', mechanism: 'kubelet-restart-readiness' });
      expect(item(f, 'endpoint-not-ready')).to.include({ happens: 'maybe', mechanism: 'kubelet-restart-readiness' });
      expect(f.mechanisms['kubelet-restart-readiness']).to.include({ versions: 'v1.27 to v1.34', kubernetesVersion: 'v1.34.4', file: 'pkg/kubelet/prober/prober_manager.go, pkg/kubelet/prober/worker.go' });
      const judged = judgeForecast(f, run.analysis, 'journal');
      expect(judged.missed.map((i) => `${i.event} ${i.pod ?? i.workload}`)).to.deep.equal([]);
      // The journal shows what v1.34 does: the endpoint went not ready after the restart.
      expect(judged.items.find((i) => i.event === 'endpoint-not-ready')!.observedSeconds).to.be.a('number');
    });

    it('v1.35: the same journal read from a v1.35 cluster: a container up more than 10 s before the kubelet keeps its readiness (setReadyStateOnKubeletRestart, ChangeContainerStatusOnKubeletRestart off): "never"; judged against the v1.34 journal, the endpoint flap is a miss', () => {
      const f = forecastAs(withKubeletVersion(longRunning, 'v1.35.4'), 'v1.35.4');
      expect(item(f, 'workload-unavailable')).to.include({ happens: 'never', mechanism: 'kubelet-restart-readiness' });
      expect(item(f, 'endpoint-not-ready')).to.include({ happens: 'never', mechanism: 'kubelet-restart-readiness' });
      expect(item(f, 'endpoint-not-ready').because).to.match(/v1\.35\.4 kubelet keeps the readiness .* started 6\d s before the restart/);
      const m = f.mechanisms['kubelet-restart-readiness']!;
      expect(m).to.include({ versions: 'v1.35+', kubernetesVersion: 'v1.35.4' });
      expect(m.function).to.include('setReadyStateOnKubeletRestart');
      expect(m.behaviour).to.include('ChangeContainerStatusOnKubeletRestart');
      // Negative control: the recorded run was v1.34, whose endpoint did go not ready; the v1.35 forecast misses it.
      expect(judgeForecast(f, run.analysis, 'journal').missed.map((i) => i.event)).to.include('endpoint-not-ready');
    });

    it('v1.35, a container younger than kubeletRestartGracePeriod (10 s; started 1.6 s before the restart, as recorded): reset as before, "maybe"', () => {
      const f = forecastAs(withKubeletVersion(run.observations, 'v1.35.4'), 'v1.35.4');
      expect(item(f, 'endpoint-not-ready')).to.include({ happens: 'maybe', mechanism: 'kubelet-restart-readiness' });
      expect(item(f, 'endpoint-not-ready').because).to.include('may have run less than 10 s before the v1.35.4 kubelet restarted');
    });

    it('the kubelet\'s version decides, not the API server\'s: a v1.35 API server with the journaled v1.34.4 kubelets gives the v1.34 item, keyed kubelet-restart-readiness@v1.34.4', () => {
      const f = forecastAs(longRunning, 'v1.35.4');
      expect(item(f, 'workload-unavailable')).to.include({ happens: 'maybe', mechanism: 'kubelet-restart-readiness@v1.34.4' });
      expect(f.mechanisms['kubelet-restart-readiness@v1.34.4']).to.include({ versions: 'v1.27 to v1.34', kubernetesVersion: 'v1.34.4' });
      expect(f.kubernetesVersion).to.equal('v1.35.4');
    });
  });

  describe('causal model (recorded kind journal kind-runtime-stop-recorded, kubelets v1.34.4)', () => {
    const run = loadFixtureRun('kind-runtime-stop-recorded');
    const as = (version: string | undefined) => analyze(run.observations, { ...analyzeOptionsOf(run.info), kubernetesVersion: version }).predictions;

    it('each item names the mechanism of its version: node-health on v1.37 is NodeControllerLeaseCircuitBreaker\'s (its window unchanged for a node whose heartbeats stopped); the kubelet\'s keyed by the kubelet\'s version', () => {
      const v134 = as('v1.34.4');
      const v137 = as('v1.37.2');
      const windows = (p: typeof v134) => p.items.map((i) => [i.event, i.node, i.pod, i.window]);
      expect(windows(v137)).to.deep.equal(windows(v134));
      expect(v134.mechanisms!['node-health']).to.include({ versions: 'v1.27 to v1.36', kubernetesVersion: 'v1.34.4' });
      expect(v137.mechanisms!['node-health']).to.include({ versions: 'v1.37+', kubernetesVersion: 'v1.37.2' });
      expect(v137.mechanisms!['node-health']!.behaviour).to.include('NodeControllerLeaseCircuitBreaker');
      expect(v134.items.find((i) => i.event === 'node-not-ready-kubelet')!.mechanism).to.equal('kubelet-runtime-health');
      expect(v137.items.find((i) => i.event === 'node-not-ready-kubelet')!.mechanism).to.equal('kubelet-runtime-health@v1.34.4');
      expect(v137.kubernetesVersion).to.equal('v1.37.2');
    });

    it('a run.json without the cluster\'s version: the default version\'s mechanisms, and a warning saying so', () => {
      const a = analyze(run.observations, { settings: run.info.settings, workloads: run.info.workloads });
      expect(a.predictions.kubernetesVersion).to.equal(null);
      expect(a.warnings.some((w) => w.includes('Kubernetes version is not recorded'))).to.equal(true);
    });
  });
});
