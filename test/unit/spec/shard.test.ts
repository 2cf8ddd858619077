// CI fan-out: --shard i/n runs a deterministic slice of matrix × repeat; compare merges the runners' directories
// into the same table one runner's directory gives.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../../lib/common/errors.js';
import { compareRuns, renderComparison } from '../../../lib/report/index.js';
import { loadExperiment } from '../../../lib/spec/load.js';
import { parseShard, shardVariants } from '../../../lib/spec/matrix.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

describe('spec/matrix: --shard i/n', () => {
  it('the shards of grace-matrix.yaml run every variant exactly once, the same on every runner', async () => {
    const loaded = await loadExperiment(join(REPO_ROOT, 'experiments/grace-matrix.yaml'), { set: ['repeat=3'] });
    const ids = (v: { variantName: string; repeatIndex: number }) => `${v.variantName}#${v.repeatIndex}`;
    for (const count of [1, 2, 3, 4]) {
      const shards = Array.from({ length: count }, (_, i) => shardVariants(loaded.variants, { index: i + 1, count }).map(ids));
      expect(shards.flat().sort()).to.deep.equal(loaded.variants.map(ids).sort());
      expect(shardVariants(loaded.variants, { index: 1, count }).map(ids)).to.deep.equal(shards[0]);
    }
  });

  it('refuses a malformed shard and an empty one with one line', async () => {
    expect(() => parseShard('0/2')).to.throw(InputError, '--shard 0/2: write i/n with 1 ≤ i ≤ n, e.g. --shard 1/2');
    expect(() => parseShard('2')).to.throw(InputError);
    const loaded = await loadExperiment(join(REPO_ROOT, 'experiments/reboot-quick.yaml'));
    expect(() => shardVariants(loaded.variants, { index: 2, count: 2 })).to.throw(InputError, '--shard 2/2: the experiment has only 1 run(s) (matrix × repeat); use at most 1 shards');
  });

  it('compare of two runners\' directories gives the table of one directory holding every run', () => {
    // A 2-variant × 2-repeat matrix, as one runner lays it out (<variant>-r<k>/) and as two shards do (round robin),
    // each run the recorded outage-tuned run relabelled with its variant and repeat.
    const runs = [['grace--g-20s', 0], ['grace--g-20s', 1], ['grace--g-40s', 0], ['grace--g-40s', 1]] as const;
    const one = mkdtempSync(join(tmpdir(), 'rebootlab-shard-one-'));
    const shards = [mkdtempSync(join(tmpdir(), 'rebootlab-shard-a-')), mkdtempSync(join(tmpdir(), 'rebootlab-shard-b-'))];
    const put = (dir: string, variant: string, repeatIndex: number) => {
      cpSync(join(REPO_ROOT, 'test/fixtures/runs/kind-outage-tuned-recorded'), dir, { recursive: true });
      const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
      result.metadata = { ...result.metadata, experiment: 'grace', variant, repeatIndex };
      result.spec.settings.controllerManager.nodeMonitorGracePeriodMs = variant.endsWith('20s') ? 20_000 : 40_000;
      writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
    };
    runs.forEach(([variant, repeat], k) => {
      put(join(one, `${variant}-r${repeat}`), variant, repeat);
      // Shard 2 finishes first and is listed first: the merge must not depend on it.
      put(join(shards[1 - (k % 2)]!, `${variant}-r${repeat}`), variant, repeat);
    });
    const merged = renderComparison(compareRuns(shards), 'markdown');
    expect(merged).to.equal(renderComparison(compareRuns([one]), 'markdown'));
    expect(merged).to.contain('2 variant(s), 4 run(s)');
  });

  it('the four recorded kind runs of grace-matrix.yaml, split as --shard 1/2 and 2/2 lay them out, merge into the table of the unsharded run', async () => {
    // reports/examples/grace-matrix-kind: one runner's real matrix run (4 runs). Each shard gets the runs shardVariants
    // gives it, under <out>/<experiment>-<UTC time>/<variant>-r<k>/ as `rebootlab run --shard i/2` writes them.
    const example = join(REPO_ROOT, 'reports/examples/grace-matrix-kind');
    const loaded = await loadExperiment(join(REPO_ROOT, 'experiments/grace-matrix.yaml'));
    const shardDirs = [1, 2].map((index) => {
      const out = mkdtempSync(join(tmpdir(), `rebootlab-shard-${index}-`));
      for (const v of shardVariants(loaded.variants, { index, count: 2 })) {
        const run = `${v.variantName}-r${v.repeatIndex}`;
        for (const file of ['result.json', 'run.json']) cpSync(join(example, run, file), join(out, `grace-matrix-2026120${index}T000000Z`, run, file));
      }
      return out;
    });
    const whole = compareRuns([example]);
    const merged = compareRuns(shardDirs.reverse());
    expect(merged.variants.map((v) => [v.name, v.runs.map((r) => r.repeatIndex)])).to.deep.equal([
      ['grace-matrix--nodeMonitorGracePeriod-20s', [0, 1]], ['grace-matrix--nodeMonitorGracePeriod-40s', [0, 1]],
    ]);
    const withoutDirs = (c: typeof whole) => ({ ...c, variants: c.variants.map((v) => ({ ...v, runs: v.runs.map(({ dir: _dir, ...r }) => r) })) });
    expect(withoutDirs(merged)).to.deep.equal(withoutDirs(whole));
    for (const format of ['markdown', 'text'] as const) expect(renderComparison(merged, format)).to.equal(renderComparison(whole, format));
    // The table that unsharded run wrote itself (compare.md; written with a trailing blank line then).
    expect(renderComparison(merged, 'markdown').trimEnd()).to.equal(readFileSync(join(example, 'compare.md'), 'utf8').trimEnd());
    for (const dir of shardDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('the two shards run for real on kind (two processes, two clusters) merge into the table one directory holding their four runs gives, with the rows, order and pooling of the unsharded run', () => {
    // test/fixtures/shards/grace-matrix: result.json and run.json of `rebootlab run experiments/grace-matrix.yaml
    // --shard 1/2` and `--shard 2/2` on kind (1 Dec 2026), as each runner wrote them.
    const shards = ['shard-1', 'shard-2'].map((s) => join(REPO_ROOT, 'test/fixtures/shards/grace-matrix', s));
    const one = mkdtempSync(join(tmpdir(), 'rebootlab-shard-one-'));
    for (const shard of shards) {
      for (const stamp of readdirSync(shard)) {
        for (const run of readdirSync(join(shard, stamp))) cpSync(join(shard, stamp, run), join(one, 'grace-matrix-20261201T090000Z', run), { recursive: true });
      }
    }
    const merged = compareRuns(shards);
    const single = compareRuns([one]);
    const withoutDirs = (c: typeof merged) => ({ ...c, variants: c.variants.map((v) => ({ ...v, runs: v.runs.map(({ dir: _dir, ...r }) => r) })) });
    expect(withoutDirs(merged)).to.deep.equal(withoutDirs(single));
    expect(renderComparison(merged, 'markdown')).to.equal(renderComparison(single, 'markdown'));
    // The unsharded run's table (reports/examples/grace-matrix-kind): same variants in the same order, same repeats
    // pooled, same metric rows and differing settings; only the timings of other runs differ.
    const unsharded = compareRuns([join(REPO_ROOT, 'reports/examples/grace-matrix-kind')]);
    const shape = (c: typeof merged) => ({
      baseline: c.baseline, metrics: c.metrics.map((m) => m.id),
      variants: c.variants.map((v) => ({ name: v.name, repeats: v.runs.map((r) => r.repeatIndex), settings: v.settings, passed: v.passed, counts: Object.values(v.metrics).map((m) => m.count) })),
    });
    expect(shape(merged)).to.deep.equal(shape(unsharded));
    rmSync(one, { recursive: true, force: true });
  });
});
