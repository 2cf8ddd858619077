// Tests for lib/report: deterministic result.json, golden files, schema conformance, summary tables.
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Multiplexer } from '../../../lib/report/multiplexer.js';
import { reporterFactory } from '../../../lib/report/registry.js';
import { rebuildReports } from '../../../lib/report/write-reports.js';
import { FIXTURE_RUNS_DIR } from '../analyze/fixture-runs.js';

const SCHEMA_PATH = fileURLToPath(new URL('../../../../schema/result.schema.json', import.meta.url));
/** Every run directory under test/fixtures/runs: a copied recorded run is picked up without editing this file. */
const SCENARIOS = readdirSync(FIXTURE_RUNS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
/** Set REBOOTLAB_UPDATE_FIXTURES=1 to rewrite test/fixtures/runs/<scenario>/result.json after an intended change. */
const UPDATE = process.env.REBOOTLAB_UPDATE_FIXTURES === '1';

function copyRun(scenario: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rebootlab-${scenario}-`));
  for (const f of ['observations.jsonl', 'run.json']) cpSync(join(FIXTURE_RUNS_DIR, scenario, f), join(dir, f));
  return dir;
}

describe('report: rebuilt from a run directory', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));
  for (const scenario of SCENARIOS) {
    describe(scenario, () => {
      let dir: string;
      before(async () => {
        dir = copyRun(scenario);
        await rebuildReports(dir);
      });
      after(() => rmSync(dir, { recursive: true, force: true }));

      it('rebuilding again gives a byte-identical result.json', async () => {
        const first = readFileSync(join(dir, 'result.json'), 'utf8');
        await rebuildReports(dir);
        expect(readFileSync(join(dir, 'result.json'), 'utf8')).to.equal(first);
      });
      it('result.json equals the checked-in test/fixtures/runs/<scenario>/result.json', () => {
        const actual = readFileSync(join(dir, 'result.json'), 'utf8');
        const golden = join(FIXTURE_RUNS_DIR, scenario, 'result.json');
        if (UPDATE) writeFileSync(golden, actual);
        expect(existsSync(golden), `${golden} is missing; run REBOOTLAB_UPDATE_FIXTURES=1 npm run test:unit once and review it`).to.equal(true);
        expect(actual).to.equal(readFileSync(golden, 'utf8'));
      });
      it('result.json conforms to schema/result.schema.json', () => {
        const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
        expect(validate(result), JSON.stringify(validate.errors)).to.equal(true);
        expect(result).to.include({ apiVersion: 'rebootlab.dev/v1alpha1', kind: 'Result', status: 'passed' }); // every run.json expectation holds
      });
      it('summary.md has the expectation, prediction, node, pod and workload tables with ✓ marks', () => {
        const md = readFileSync(join(dir, 'summary.md'), 'utf8');
        for (const heading of ['## Expectations', '## Predicted vs observed', '## Nodes', '## Pods', '## Workloads', '## Effective settings']) expect(md).to.include(heading);
        expect(md).to.match(/^\| ✓ \| `/m);
        expect(md).to.not.match(/^\| ✗ \| `/m);
      });
      it('a run with a forecast shows it against what happened in summary.md and report.html (each miss marked), its totals next to the explained items', () => {
        const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
        const md = readFileSync(join(dir, 'summary.md'), 'utf8');
        expect(md).to.match(/predictions held \(\d+ of \d+ predicted from their causes, \d+ of \d+ explained by reading the run\)/);
        if (!result.forecast) return expect(md).to.not.include('## Forecast vs observed');
        const section = md.slice(md.indexOf('## Forecast vs observed'));
        // Which fixture's frozen forecast missed what is pinned in test/unit/analyze/forecast.test.ts (FROZEN_MISSED).
        const missed = result.forecast.missed.length;
        expect(section.split('\n## ')[0]).to.include(`${result.forecast.heldCount} of ${result.forecast.judgedCount} forecast items held, ${missed} missed`);
        expect(section.split('\n## ')[0].match(/✗ missed/g) ?? []).to.have.length(missed);
        expect(readFileSync(join(dir, 'report.html'), 'utf8')).to.include('data-table="forecast"');
      });
    });
  }

  it('power-off: summary lists no missed prediction first and shows detection 22.300 s inside [H + G − 1, H\' + G + 2M + 1] from the last heartbeat, a status post at −1.7 s received at 0.3 s (after the last renewal at −1.8 s)', async () => {
    const dir = copyRun('power-off-past-toleration');
    await rebuildReports(dir);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    expect(md).to.include('| ✓ | node-not-ready | kind-worker | [17.300, 31.300] s | 22.300 s |');
    expect(md).to.include('| last heartbeat of kind-worker: node status post (Ready lastHeartbeatTime, whole seconds) at -1.700 s |');
    expect(md.indexOf('## Missed predictions')).to.be.above(0).and.below(md.indexOf('## Expectations'));
    expect(md).to.include('Time zero is the start of the first fault command');
    expect(md).to.include('kind-worker: power-off command started 0.000 s, returned 0.300 s (took 0.300 s)');
  });

  it('summary.md writes strings from run.json and the journal as text: a |, line break, backtick, <script> or [link](url) in them breaks no table and adds no tag or link', async () => {
    const dir = copyRun('kind-sts-force-delete-recorded');
    const hostile = 'x|y\n# h `c` <script>alert(1)</script> [a](http://e.invalid) ![i](http://e.invalid/i.png)';
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...info, experiment: hostile, variant: `v|${hostile}`, cluster: { ...info.cluster, name: hostile }, expectations: [...info.expectations, `count(${hostile}) == 0`] }));
    const journal = join(dir, 'observations.jsonl');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace('Marking for deletion Pod rebootlab/db-0', hostile.replace(/\n/g, '\\n')));
    await rebuildReports(dir);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    // The expectation is a code span (its text literal, a longer fence around its backtick); everything else is escaped text.
    expect(md).to.include('| ✗ | ``count(x\\|y\\n# h `c` <script>alert(1)</script> [a](http://e.invalid) ![i](http://e.invalid/i.png)) == 0`` |');
    expect(md.replace(/``count\(.*\) == 0``/, '')).to.not.match(/<script|<b>|(?<!\\)\](?=\(http)/);
    expect(md).to.not.match(/^# h/m);
    const title = '# x\\|y\\\\n# h \\`c\\` &lt;script>alert(1)&lt;/script> [a\\](http://e.invalid) ![i\\](http://e.invalid/i.png)';
    expect(md.split('\n')[0]).to.equal(`${title} (v\\|${title.slice(2)}): failed`);
    // Each table row has as many cell separators (unescaped |) as its header row: no cell was split or ended.
    const separators = (line: string) => line.replace(/\\./g, '').split('|').length;
    const lines = md.split('\n');
    lines.forEach((line, i) => {
      if (!line.startsWith('|')) return;
      let header = i;
      while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
      expect(separators(line), line).to.equal(separators(lines[header]!));
    });
    expect(md).to.include('| TaintManagerEviction | Pod/rebootlab/db-0 | taint-eviction-controller | 2 | x\\|y\\\\n# h');
    expect(md).to.include('x\\|y\\\\n# h \\`c\\` &lt;script>alert(1)&lt;/script> [a\\](http://e.invalid)');
  });

  it('summary.md and report.html show the endpoint timeline and the Events of a workload behind a Service', async () => {
    // The recorded StatefulSet db had its headless Service db; run.json of that run predates serviceName.
    const dir = copyRun('kind-sts-force-delete-recorded');
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    info.workloads = info.workloads.map((w: { kind: string; name: string }) => (w.kind === 'StatefulSet' ? { ...w, serviceName: w.name } : w));
    writeFileSync(join(dir, 'run.json'), JSON.stringify(info));
    await rebuildReports(dir);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    expect(md).to.include('## Endpoints (what Service clients were offered)');
    expect(md).to.include('| db | db | 1 | 0 | 43.551 s | 20.351 s |');
    expect(md).to.include('| rebootlab/db-0 | db | yes | 20.351 s | 50.384 s | 62.273 s | 63.902 s |');
    expect(md).to.include('## Events');
    expect(md).to.include('| 50.162 s | TaintManagerEviction | Pod/rebootlab/db-0 | taint-eviction-controller | 2 | Marking for deletion Pod rebootlab/db-0 | lastTimestamp (1 s) |');
    expect(page).to.include('data-table="endpoints"');
    expect(page).to.include('data-table="events"');
    expect(page).to.include('db-0 endpoint not ready: 20.351 s → 50.384 s');
    expect(page).to.include('endpoint of replacement db-0 ready at 63.902 s');
    expect(page).to.include('Service db: 0 ready endpoints');
  });

  it('a failed expectation makes status failed', async () => {
    const dir = copyRun('reboot-quick');
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    info.expectations = ['pods[workload=web].outcome == evicted-replaced'];
    writeFileSync(join(dir, 'run.json'), JSON.stringify(info));
    const result = await rebuildReports(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(result.status).to.equal('failed');
    expect(result.summary.expectationsFailed).to.equal(1);
  });

  it('an interrupted run is status interrupted', async () => {
    const dir = copyRun('reboot-quick');
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...info, interrupted: true }));
    const result = await rebuildReports(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(result.status).to.equal('interrupted');
  });
});

describe('report: registry and multiplexer', () => {
  it('an unknown reporter name is bad input (exit code 2) naming the known ones', () => {
    expect(() => reporterFactory('htm')).to.throw('unknown reporter "htm"; known: list, json, markdown, html, junit, github').with.property('exitCode', 2);
  });
  it('a throwing reporter is logged and the next one still runs', async () => {
    const warnings: string[] = [];
    let reached = false;
    const mux = new Multiplexer(
      [
        { name: 'bad', reporter: { onEnd: () => { throw new Error('disk full'); } } },
        { name: 'good', reporter: { onEnd: () => { reached = true; } } },
      ],
      (_l, m) => warnings.push(m),
    );
    await mux.onEnd({} as never);
    expect(warnings).to.deep.equal(['reporter bad failed in onEnd: disk full']);
    expect(reached).to.equal(true);
  });
});
