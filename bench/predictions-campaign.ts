// `npm run bench:predictions`: runs experiment files N times each on real clusters and totals the causal model's
// predictions (held / predicted, every miss with its run directory): the issue-12 acceptance "three repeats each,
// totals reported", and how a user checks the model on their own machine before trusting its windows.
// Usage: node dist/bench/predictions-campaign.js [--repeat 3] [--out reports/campaign] [--only name,name] [--split]
//        [files...]   (default: experiments/*.yaml, experiments/catalog/*.yaml, experiments/*.ts)
// Resumable: an experiment whose directory holds a `campaign-done.json` is not run again; re-running with the same
// --out finishes a campaign that was interrupted and prints the totals of everything under it.
// YAML files run once with `--set repeat=N` (one cluster for the repeats); scripted experiments (.ts) run N times.
// `--split`: YAML files too run N times with `--set repeat=1`, so a long file (upgrade-impact: 6 variants of 8 min)
// can be finished over several sessions: every invocation that ended is kept in `campaign-progress.json`, and a
// resumed campaign starts at the next one (remove the run directory an interrupted invocation left first).
// Each run is a plain `rebootlab run` (cluster created and deleted by it), so nothing here is special to the bench.
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareRuns } from '../lib/report/compare.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(projectRoot, 'bin', 'rebootlab.js');
const DONE_FILE = 'campaign-done.json';
const PROGRESS_FILE = 'campaign-progress.json';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    repeat: { type: 'string', default: '3' },
    out: { type: 'string', default: join('reports', 'campaign') },
    only: { type: 'string' },
    split: { type: 'boolean', default: false },
  },
});
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1) {
  process.stderr.write(`--repeat: ${values.repeat} is not an integer ≥ 1\n`);
  process.exit(2);
}
const out = resolve(values.out);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Shipped experiment files in run order: YAML at the top level, the catalog, then the scripted experiments. */
function defaultFiles(): string[] {
  const list = (dir: string, ext: string) =>
    readdirSync(join(projectRoot, dir)).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f));
  return [...list('experiments', '.yaml'), ...list('experiments/catalog', '.yaml'), ...list('experiments', '.ts')];
}

const nameOf = (file: string) => basename(file).replace(/\.(yaml|ts)$/, '');
const only = values.only ? new Set(values.only.split(',')) : null;
const files = (positionals.length > 0 ? positionals : defaultFiles()).filter((f) => !only || only.has(nameOf(f)));

/** One experiment's entry in the campaign: its exit codes (one per invocation) and wall time, seconds. */
interface CampaignEntry {
  file: string;
  exitCodes: number[];
  wallSeconds: number;
}

for (const file of files) {
  const dir = join(out, nameOf(file));
  if (existsSync(join(dir, DONE_FILE))) {
    log(`${nameOf(file)}: done before, kept`);
    continue;
  }
  mkdirSync(dir, { recursive: true });
  const invocations = file.endsWith('.ts') ? Array.from({ length: repeat }, () => [] as string[])
    : values.split ? Array.from({ length: repeat }, () => ['--set', 'repeat=1']) : [['--set', `repeat=${repeat}`]];
  // Invocations that ended in an earlier campaign (--split, scripts): kept, with their wall time.
  const progressFile = join(dir, PROGRESS_FILE);
  const before = existsSync(progressFile) ? (JSON.parse(readFileSync(progressFile, 'utf8')) as CampaignEntry) : { file, exitCodes: [], wallSeconds: 0 };
  const exitCodes = [...before.exitCodes];
  const started = Date.now() - before.wallSeconds * 1000;
  if (exitCodes.length > 0) log(`${nameOf(file)}: ${exitCodes.length} of ${invocations.length} invocations done before, kept`);
  for (const extra of invocations.slice(exitCodes.length)) {
    log(`${nameOf(file)}: rebootlab run ${file} ${extra.join(' ')}`);
    const res = await execa(process.execPath, [cli, 'run', file, '--out', dir, ...extra], { cwd: projectRoot, reject: false, stdio: ['ignore', 'pipe', 'pipe'], all: true });
    writeFileSync(join(dir, `campaign-run-${exitCodes.length}.log`), res.all ?? '');
    exitCodes.push(res.exitCode ?? -1);
    log(`${nameOf(file)}: exit ${res.exitCode}`);
    const progress: CampaignEntry = { file, exitCodes, wallSeconds: Math.round((Date.now() - started) / 1000) };
    writeFileSync(progressFile, `${JSON.stringify(progress, null, 2)}\n`);
  }
  const entry: CampaignEntry = { file, exitCodes, wallSeconds: Math.round((Date.now() - started) / 1000) };
  writeFileSync(join(dir, DONE_FILE), `${JSON.stringify(entry, null, 2)}\n`);
}

// Totals over every experiment directory under --out (also those of earlier invocations).
// The causal chain in two columns (predicted from observed causes; explained by reading the run, chosenBy) and the
// forecasts frozen before each fault apart from it.
const rows: string[] = ['| experiment | runs | held / predicted | of which predicted | of which explained | forecast held / judged | exit codes | wall |', '|---|---:|---:|---:|---:|---:|---|---:|'];
const misses: string[] = [];
const forecastMisses: string[] = [];
let [held, predicted, runs, explained, explainedHeld, fHeld, fJudged] = [0, 0, 0, 0, 0, 0, 0];
for (const name of existsSync(out) ? readdirSync(out).sort() : []) {
  const dir = join(out, name);
  if (!existsSync(join(dir, DONE_FILE))) continue;
  const entry = JSON.parse(readFileSync(join(dir, DONE_FILE), 'utf8')) as CampaignEntry;
  let comparison;
  try {
    comparison = compareRuns([dir]);
  } catch (err) {
    rows.push(`| ${name} | 0 | no result: ${(err as Error).message} | | | | ${entry.exitCodes.join(' ')} | ${entry.wallSeconds} s |`);
    continue;
  }
  const n = comparison.variants.reduce((sum, v) => sum + v.runs.length, 0);
  const t = comparison.predictions;
  [held, predicted, runs, explained, explainedHeld] = [held + t.held, predicted + t.predicted, runs + n, explained + t.explained, explainedHeld + t.explainedHeld];
  [fHeld, fJudged] = [fHeld + t.forecast.held, fJudged + t.forecast.judged];
  const f = t.forecast.runs === 0 ? '—' : `${t.forecast.held} / ${t.forecast.judged}`;
  rows.push(`| ${name} | ${n} | ${t.held} / ${t.predicted} | ${t.held - t.explainedHeld} / ${t.predicted - t.explained} | ${t.explainedHeld} / ${t.explained} | ${f} | ${entry.exitCodes.join(' ')} | ${entry.wallSeconds} s |`);
  for (const m of t.forecast.missed) forecastMisses.push(`- ${m.dir}: forecast ${m.event} ${m.subject} at ${m.observedSeconds ?? 'never'} s, window ${m.window ? `[${m.window[0]}, ${m.window[1]}]` : 'never'}`);
  for (const m of t.missed) {
    const window = m.window ? `[${m.window[0]}, ${m.window[1]}]` : 'expected not to happen';
    misses.push(`- ${m.dir}: ${m.event} ${m.pod ?? m.node} at ${m.observedSeconds ?? 'never'} s, window ${window}`);
  }
}
rows.push(`| **all** | ${runs} | **${held} / ${predicted}** | ${held - explainedHeld} / ${predicted - explained} | ${explainedHeld} / ${explained} | **${fHeld} / ${fJudged}** | | |`);
const report = [
  `# Predictions campaign (${out})`, '', ...rows, '',
  misses.length === 0 ? 'No prediction missed.' : `Missed (${misses.length}):`, ...misses, '',
  forecastMisses.length === 0 ? 'No forecast missed.' : `Forecasts missed (${forecastMisses.length}):`, ...forecastMisses, '',
].join('\n');
if (existsSync(out)) writeFileSync(join(out, 'totals.md'), report);
log(report);
