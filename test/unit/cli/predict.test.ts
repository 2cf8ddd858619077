// `rebootlab predict`: the forecast of every shipped and catalog experiment file, without a cluster. Structural
// assertions on every file (each one crossed with the file's own hand-written expectations), golden text for a
// few, and the CLI black-box (exit codes, formats, the one-line error for a scripted experiment).
import { expect } from 'chai';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Forecast, ForecastItem } from '../../../lib/analyze/forecast/index.js';
import { faultEffect } from '../../../lib/analyze/forecast/index.js';
import { heartbeatIntervalSeconds } from '../../../lib/analyze/windows.js';
import { renderForecastMarkdown, renderForecastText, type ForecastDocument } from '../../../lib/report/forecast-render.js';
import { predictExperiment } from '../../../lib/run/predict-command.js';
import { loadExperiment } from '../../../lib/spec/load.js';
import { REPO_ROOT, runCli } from '../../helpers/run-cli.js';

const UPDATE = process.env.REBOOTLAB_UPDATE_FIXTURES === '1';
const GOLDEN_DIR = join(REPO_ROOT, 'test/fixtures/predict');
/** Every shipped and catalog YAML experiment. */
const FILES = [
  ...readdirSync(join(REPO_ROOT, 'experiments')).filter((f) => f.endsWith('.yaml')).map((f) => `experiments/${f}`),
  ...readdirSync(join(REPO_ROOT, 'experiments/catalog')).filter((f) => f.endsWith('.yaml')).map((f) => `experiments/catalog/${f}`),
].sort();
/** Files whose text output is pinned (a plain outage, a matrix, a zone with outcome sets, the runtime's own Ready=False, a Node deletion, Jobs, partitions' Ready again by length and scope). */
const GOLDEN = ['experiments/outage-tuned.yaml', 'experiments/grace-matrix.yaml', 'experiments/zone-partial-disruption.yaml', 'experiments/catalog/runtime-stop.yaml', 'experiments/catalog/node-deleted.yaml', 'experiments/catalog/jobs-node-lost.yaml', 'experiments/catalog/jobs-indexed-node-lost.yaml', 'experiments/catalog/partition-heal.yaml'];

const firstOf = (f: Forecast, event: string): ForecastItem | undefined => f.items.find((i) => i.event === event && i.node === f.targets[0]);
const overlaps = (w: { fromSeconds: number; toSeconds: number } | null, [a, b]: [number, number]) => w !== null && w.fromSeconds <= b && w.toSeconds >= a;

describe('predict', function () {
  it('--format markdown writes a file name with a backtick, | or line break as one code span, breaking no heading', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-predict-md-'));
    try {
      const file = join(dir, 'a`b|c\n# x.yaml');
      copyFileSync(join(REPO_ROOT, 'experiments/reboot-quick.yaml'), file);
      const md = renderForecastMarkdown(predictExperiment(await loadExperiment(file)));
      expect(md.split('\n')[0]).to.equal(`# Forecast of \`\`${dir}/a\`b|c\\n# x.yaml\`\``);
      expect(md).to.not.match(/^# x/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  this.timeout(60_000);

  it('covers every shipped and catalog experiment file (42)', () => expect(FILES).to.have.length(42));

  for (const file of FILES) {
    describe(file, () => {
      let doc: ForecastDocument;
      before(async () => {
        doc = predictExperiment({ ...(await loadExperiment(join(REPO_ROOT, file))), file });
      });

      it('one forecast per variant (repeats are the same), each item well-formed: a window iff it can happen, an outcome per case, a known mechanism, a setting and an assumption', async () => {
        const loaded = await loadExperiment(join(REPO_ROOT, file));
        expect(doc.variants).to.have.length(loaded.variants.filter((v) => v.repeatIndex === 0).length);
        for (const { forecast: f } of doc.variants) {
          expect(f.targets.length, 'targets').to.equal(loaded.experiment.fault.count);
          expect(f.items.length).to.be.greaterThan(0);
          for (const i of f.items) {
            const what = `${i.event} ${i.pod ?? i.workload ?? i.node}`;
            expect(i.window === null, what).to.equal(i.happens === 'never');
            if (i.window) expect(i.window.fromSeconds, what).to.be.at.most(i.window.toSeconds);
            expect(i.outcomes.length, what).to.be.greaterThan(0);
            expect(i.outcomes.some((o) => o.window === null), what).to.equal(i.happens !== 'always');
            expect(f.mechanisms[i.mechanism], what).to.not.equal(undefined);
            expect(i.setting.length * i.assumption.length * i.because.length, what).to.be.greaterThan(0);
          }
        }
      });

      it('forecasts the detection its fault calls for, no wider than the heartbeat interval × 1.04 + the fault\'s own silence latency + 2 × monitor period + 2 s', async () => {
        const loaded = await loadExperiment(join(REPO_ROOT, file));
        doc.variants.forEach(({ forecast: f }, index) => {
          const experiment = loaded.variants.filter((v) => v.repeatIndex === 0)[index]!.experiment;
          const effect = faultEffect(experiment.fault.type, experiment.cluster.provider);
          const s = experiment.cluster.settings;
          const detection = firstOf(f, effect.detection === 'kubelet-reports-not-ready' || effect.detection === 'graceful-shutdown' ? 'node-not-ready-kubelet' : effect.detection === 'node-deleted' ? 'node-deleted' : 'node-not-ready');
          expect(detection, `${f.targets[0]} detection`).to.not.equal(undefined);
          if (effect.detection === 'heartbeats-stop' && detection!.window) {
            const bound = heartbeatIntervalSeconds(s) * 1.04 + effect.heartbeatsStopWithinSeconds + (2 * s.controllerManager.nodeMonitorPeriodMs) / 1000 + 2;
            expect(detection!.window.toSeconds - detection!.window.fromSeconds).to.be.at.most(bound + 0.001);
          }
          if (effect.detection === 'none') expect(detection!.happens, 'a quick fault outlasts no grace period').to.equal('never');
        });
      });

      it('agrees with the file\'s own expectations: every "in [a, b]" on detection, taint or eviction overlaps the forecast, every "evicted-replaced" is forecast evicted', () => {
        const text = readFileSync(join(REPO_ROOT, file), 'utf8');
        const f = doc.variants[0]!.forecast;
        const ranges: [RegExp, string][] = [[/node\.notReadyAfterSeconds in \[(\d+), (\d+)\]/, 'node-not-ready'], [/node\.noExecuteTaintAfterSeconds in \[(\d+), (\d+)\]/, 'no-execute-taint']];
        for (const [re, event] of ranges) {
          const m = re.exec(text);
          if (m) expect(overlaps(firstOf(f, event)?.window ?? null, [Number(m[1]), Number(m[2])]), `${event} vs ${m[0]}`).to.equal(true);
        }
        for (const m of text.matchAll(/pods\[workload=([\w-]+)\]\.evictedAfterSeconds in \[(\d+), (\d+)\]/g)) {
          const evictions = f.items.filter((i) => i.event === 'pod-eviction' && i.workload === m[1]);
          expect(evictions.length, m[0]).to.be.greaterThan(0);
          expect(evictions.some((i) => overlaps(i.window, [Number(m[2]), Number(m[3])])), `${m[0]}: ${JSON.stringify(evictions.map((i) => i.window))}`).to.equal(true);
        }
        for (const m of text.matchAll(/pods\[workload=([\w-]+)\]\.outcome == evicted-replaced/g)) {
          const stops = f.items.filter((i) => (i.event === 'pod-eviction' || i.event === 'pod-deleted') && i.workload === m[1] && i.happens !== 'never');
          expect(stops.length, m[0]).to.be.greaterThan(0);
        }
      });

      if (GOLDEN.includes(file)) {
        it('text output equals test/fixtures/predict/<name>.txt', () => {
          const golden = join(GOLDEN_DIR, `${file.split('/').pop()!.replace('.yaml', '')}.txt`);
          const text = renderForecastText(doc);
          if (UPDATE) writeFileSync(golden, text);
          expect(existsSync(golden), `${golden} missing: REBOOTLAB_UPDATE_FIXTURES=1 npm run test:unit`).to.equal(true);
          expect(text).to.equal(readFileSync(golden, 'utf8'));
        });
      }
    });
  }

  describe('cli', () => {
    it('rebootlab predict <file> --format json: exit 0, a Forecast document; markdown has a table per variant and the side-by-side table for a matrix', async () => {
      const json = await runCli(['predict', 'experiments/outage-tuned.yaml', '--format', 'json']);
      expect(json.exitCode, json.stderr).to.equal(0);
      const doc = JSON.parse(json.stdout) as ForecastDocument;
      expect(doc).to.deep.include({ kind: 'Forecast', file: 'experiments/outage-tuned.yaml' });
      expect(doc.variants[0]!.forecast.targets).to.deep.equal(['rebootlab-worker']);
      const md = await runCli(['predict', 'experiments/grace-matrix.yaml', '--format', 'markdown']);
      expect(md.exitCode, md.stderr).to.equal(0);
      expect(md.stdout).to.include('## grace-matrix--nodeMonitorGracePeriod-20s').and.include('## grace-matrix--nodeMonitorGracePeriod-40s').and.include('## Side by side');
    });

    it('--set changes the forecast: grace 40 s moves detection 20 s later', async () => {
      const at = async (grace: string) => {
        const res = await runCli(['predict', 'experiments/outage-tuned.yaml', '--format', 'json', '--set', `cluster.controllerManager.nodeMonitorGracePeriod=${grace}`]);
        expect(res.exitCode, res.stderr).to.equal(0);
        return (JSON.parse(res.stdout) as ForecastDocument).variants[0]!.forecast.items.find((i) => i.event === 'node-not-ready')!.window!;
      };
      const [a, b] = [await at('20s'), await at('40s')];
      expect(b.fromSeconds - a.fromSeconds).to.be.closeTo(20, 0.001);
    });

    it('1000 simultaneous targets in one zone (bench/zone-outage-1000.yaml as bench:predict sets it): each gets every slot of its cohort, and the text header names 10 of them and how many more', async () => {
      const sets = ['cluster.zones=[z]', 'fault.target.selector=topology.kubernetes.io/zone=z', 'fault.count=1000', 'workloads=[]'].flatMap((s) => ['--set', s]);
      const json = await runCli(['predict', 'bench/zone-outage-1000.yaml', '--format', 'json', ...sets]);
      expect(json.exitCode, json.stderr).to.equal(0);
      const f = (JSON.parse(json.stdout) as ForecastDocument).variants[0]!.forecast;
      expect(f.targets).to.have.length(1000);
      const taints = f.items.filter((i) => i.event === 'no-execute-taint');
      expect(taints.map((i) => i.node).sort()).to.deep.equal([...f.targets].sort());
      // Which node of a cohort gets which token is not known: every node has the same outcomes, the first taint at the
      // first pass that can see the cohort, the last 999 tokens (at 10/s, 99.9 s) later.
      const first = taints[0]!;
      for (const t of taints) expect({ window: t.window, outcomes: t.outcomes }, t.node).to.deep.equal({ window: first.window, outcomes: first.outcomes });
      expect(first.outcomes.filter((o) => o.window !== null).length).to.be.greaterThan(0);
      expect(first.window!.toSeconds - first.window!.fromSeconds).to.be.greaterThan(99.9);
      const text = await runCli(['predict', 'bench/zone-outage-1000.yaml', ...sets]);
      expect(text.exitCode, text.stderr).to.equal(0);
      const header = text.stdout.split('\n').find((l) => l.startsWith('targets: '))!;
      expect(header).to.match(/^targets: (rebootlab-worker\d*, ){10}and 990 more \(1000 in all, each named in its items\); times in seconds/);
      expect(header).to.include(`${f.targets[9]}, and 990 more`);
    });

    it('-o json with another --format is refused on one line (it printed JSON silently: hostile-input tryout, 8 Dec); with --format json it agrees', async () => {
      const clash = await runCli(['predict', 'experiments/outage-tuned.yaml', '-o', 'json', '--format', 'markdown']);
      expect(clash.exitCode).to.equal(2);
      expect(clash.stderr.trim()).to.equal('ERROR: -o json and --format markdown ask for two formats: give one of them');
      expect(clash.stdout).to.equal('');
      const agree = await runCli(['predict', 'experiments/outage-tuned.yaml', '-o', 'json', '--format', 'json']);
      expect(agree.exitCode, agree.stderr).to.equal(0);
      expect(JSON.parse(agree.stdout)).to.have.property('kind', 'Forecast');
    });

    it('a scripted experiment or a missing file: exit 2, one line naming the file, no stack', async () => {
      const script = await runCli(['predict', 'experiments/rolling-reboot.ts']);
      expect(script.exitCode).to.equal(2);
      expect(script.stderr.trim()).to.match(/^ERROR: experiments\/rolling-reboot\.ts: predict reads a YAML experiment/);
      expect(script.stderr).to.not.match(/\n\s+at /);
      const missing = await runCli(['predict', 'experiments/none.yaml']);
      expect(missing.exitCode).to.equal(2);
      expect(missing.stderr).to.include('experiments/none.yaml');
    });
  });
});
