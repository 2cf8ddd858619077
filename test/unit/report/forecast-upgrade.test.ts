// "What changes in failover when I upgrade?": the version changes of `rebootlab predict` on the shipped
// upgrade-impact matrix (three versions × two tolerations), and on a document whose windows differ by version.
import { expect } from 'chai';
import { join } from 'node:path';
import { renderForecastMarkdown, renderForecastText } from '../../../lib/report/forecast-render.js';
import { renderVersionChanges, versionChanges } from '../../../lib/report/forecast-upgrade.js';
import { predictExperiment } from '../../../lib/run/predict-command.js';
import { loadExperiment } from '../../../lib/spec/load.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const FILE = 'experiments/upgrade-impact.yaml';

describe('forecast: what changes when you upgrade', function () {
  this.timeout(30_000);

  it('pairs each version with the next one, per toleration, and names the mechanisms that changed (v1.36 stale-cache consistency, v1.37 Lease circuit breaker)', async () => {
    const doc = predictExperiment({ ...(await loadExperiment(join(REPO_ROOT, FILE))), file: FILE });
    const changes = doc.versionChanges!;
    expect(changes.map((c) => `${c.fromVersion}→${c.toVersion} ${JSON.stringify(c.given)}`)).to.deep.equal([
      'v1.35.4→v1.36.3 {"cluster.apiServer.defaultUnreachableTolerationSeconds":300}',
      'v1.36.3→v1.37.2 {"cluster.apiServer.defaultUnreachableTolerationSeconds":300}',
      'v1.35.4→v1.36.3 {"cluster.apiServer.defaultUnreachableTolerationSeconds":30}',
      'v1.36.3→v1.37.2 {"cluster.apiServer.defaultUnreachableTolerationSeconds":30}',
    ]);
    for (const c of changes) {
      // No mechanism that changed between these versions moves a forecast window: each change is inside a window.
      expect(c.windows, `${c.fromVersion}→${c.toVersion}`).to.deep.equal([]);
      expect(c.eventsCompared).to.be.greaterThan(20);
    }
    expect(changes[0]!.mechanisms.map((m) => m.id)).to.have.members(['job', 'replicaset', 'statefulset']);
    expect(changes[0]!.mechanisms.every((m) => m.to.versions === 'v1.36+' && /StaleControllerConsistency/.test(m.to.behaviour))).to.equal(true);
    expect(changes[1]!.mechanisms.map((m) => m.id)).to.deep.equal(['node-health']);
    expect(changes[1]!.mechanisms[0]!.from.versions).to.equal('v1.27 to v1.36');
    expect(changes[1]!.mechanisms[0]!.to.behaviour).to.match(/NodeControllerLeaseCircuitBreaker/);
  });

  it('lists a window that moves, and an event one version forecasts and the other does not', async () => {
    const doc = predictExperiment({ ...(await loadExperiment(join(REPO_ROOT, FILE))), file: FILE });
    const [older, newer] = [doc.variants[1]!, structuredClone(doc.variants[3]!)];
    const moved = newer.forecast.items.find((i) => i.event === 'node-not-ready')!;
    moved.window = { fromSeconds: moved.window!.fromSeconds + 10, toSeconds: moved.window!.toSeconds + 10 };
    newer.forecast.items = newer.forecast.items.filter((i) => i.event !== 'node-ready-again');
    const [change] = versionChanges({ ...doc, variants: [newer, older] });
    expect(change!.fromVersion).to.equal('v1.35.4');
    expect(change!.windows).to.deep.equal([
      { row: 'node-not-ready rebootlab-worker', from: '[38.6, 61.5] s', to: '[48.6, 71.5] s' },
      { row: 'node-ready-again rebootlab-worker', from: '[419.0, 438.0] s', to: '—', forecastOnlyOn: 'v1.35.4' },
    ]);
    const lines = renderVersionChanges([change!]);
    expect(lines).to.include('  node-not-ready rebootlab-worker: [38.6, 61.5] s → [48.6, 71.5] s');
    // An item one version's forecast lacks is a gap of the model, not a change Kubernetes made: said so, not compared.
    expect(lines).to.include('  node-ready-again rebootlab-worker: forecast on v1.35.4 only ([419.0, 438.0] s), its mechanism not modelled on the other version: not compared');
  });

  it('has nothing to say without a version axis, and the text and Markdown say it under their own heading', async () => {
    const grace = 'experiments/grace-matrix.yaml';
    const plain = predictExperiment({ ...(await loadExperiment(join(REPO_ROOT, grace))), file: grace });
    expect(plain.versionChanges).to.equal(undefined);
    expect(renderForecastText(plain)).to.not.match(/when you upgrade/);
    const doc = predictExperiment({ ...(await loadExperiment(join(REPO_ROOT, FILE))), file: FILE });
    const text = renderForecastText(doc);
    expect(text).to.match(/side by side \(columns: cluster\.kubernetesVersion · cluster\.apiServer\.defaultUnreachableTolerationSeconds\):\nevent +v1\.35\.4 · 300 +v1\.35\.4 · 30 /);
    expect(text).to.match(/\nfrom v1\.36\.3 to v1\.37\.2 \(defaultUnreachableTolerationSeconds 30\):\n  no forecast window changes \(\d+ events compared\)\n  node-health, /);
    const markdown = renderForecastMarkdown(doc);
    expect(markdown).to.match(/## What changes in failover when you upgrade/);
    expect(markdown).to.match(/\*\*from v1\.35\.4 to v1\.36\.3 \(defaultUnreachableTolerationSeconds 300\):\*\*\n\n- no forecast window changes/);
  });
});
