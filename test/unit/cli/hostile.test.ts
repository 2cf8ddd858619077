// Issue 27 through the real CLI (a subprocess, as a user or a CI job runs it): each reproduction of the issue gives
// exit 2 and one clear line (an ERROR line, and the hint when there is one), never "a bug in rebootlab"; `report`
// writes no file through a symbolic link; `doctor --restore` keeps the record of a fault it could not check.
import { expect } from 'chai';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/run-cli.js';

const HEAD = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\n';
const RUN = 'test/fixtures/runs/reboot-quick';

/** stderr as lines, without the empty last one. */
const lines = (r: CliResult): string[] => r.stderr.split('\n').filter((l) => l !== '');

/** Asserts exit 2 with exactly `expected` on stderr (ERROR line, then the hint if any), nothing about a bug. */
function badInput(result: CliResult, ...expected: (string | RegExp)[]): void {
  expect(result.stderr).to.not.match(/bug in rebootlab|unexpected error|\n\s+at /);
  expect(lines(result)).to.have.length(expected.length, result.stderr);
  expected.forEach((e, i) => (typeof e === 'string' ? expect(lines(result)[i]).to.equal(e) : expect(lines(result)[i]).to.match(e)));
  expect(result.exitCode, result.stderr).to.equal(2);
}

describe('cli: hostile input (issue 27)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-hostile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('1, 2. validate a.yaml b.yaml: a regex character in a name and .inf are issues of their file, and b.yaml is still checked', async () => {
    const a = file('a.yaml', `${HEAD}cluster: {name: "a(", workers: .inf}\nfault: {type: reboot, target: a(-worker}\nexpect: ["node.readyAtEnd == true"]\n`);
    const result = await runCli(['validate', a, 'experiments/reboot-quick.yaml']);
    badInput(result,
      `ERROR: ${a}:4:17: cluster.name: "a(" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)`,
      `ERROR: ${a}:4:32: cluster.workers: Infinity is not a finite number; write a number such as 3`);
    expect(result.stdout).to.equal('ok experiments/reboot-quick.yaml\n');
  });

  it('3. a 10^6-variant matrix and repeat: 1e9 are refused at once, one line each', async () => {
    const axes = ['nodeEvictionRate', 'secondaryNodeEvictionRate', 'kubeAPIQPS', 'largeClusterSizeThreshold', 'kubeAPIBurst', 'unhealthyZoneThreshold'];
    const matrix = axes.map((x) => `  cluster.controllerManager.${x}: [${Array.from({ length: 10 }, (_, i) => (x === 'unhealthyZoneThreshold' ? (i + 1) / 10 : i + 1)).join(', ')}]`).join('\n');
    const m = file('m.yaml', `${HEAD}fault: {type: reboot}\nmatrix:\n${matrix}\n`);
    const r = file('r.yaml', `${HEAD}fault: {type: reboot}\nrepeat: 1000000000\n`);
    const result = await runCli(['validate', m, r], { timeoutMs: 10_000 });
    badInput(result, new RegExp(`^ERROR: ${m}:6:3: matrix: 10 nodeEvictionRate × .* is 1000000 runs; at most 1000 `), `ERROR: ${r}:5:9: repeat: must be ≤ 1000, got 1000000000`);
  });

  it('5. report replaces a symbolic link in the run directory and never writes its target (a dangling one creates nothing)', async () => {
    const run = join(dir, 'r');
    cpSync(RUN, run, { recursive: true });
    const victim = file('victim', 'X\n');
    rmSync(join(run, 'result.json'));
    symlinkSync(victim, join(run, 'summary.md'));
    symlinkSync(join(dir, 'created-by-a-dangling-link'), join(run, 'result.json'));
    const result = await runCli(['report', run]);
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(readFileSync(victim, 'utf8')).to.equal('X\n');
    expect(existsSync(join(dir, 'created-by-a-dangling-link'))).to.equal(false);
    expect(lstatSync(join(run, 'summary.md')).isFile()).to.equal(true);
    expect(readFileSync(join(run, 'summary.md'), 'utf8')).to.match(/^# /);
    expect(lstatSync(join(run, 'result.json')).isFile()).to.equal(true);
  });

  it('6. doctor --restore with Docker unreachable keeps pending-restore.json and exits non-zero with the reason', async () => {
    const runDir = join(dir, 'reports', 'r');
    mkdirSync(runDir, { recursive: true });
    const pending = join(runDir, 'pending-restore.json');
    writeFileSync(pending, '{"pid":999999,"writtenAtMs":1,"entries":[{"label":"p","nodes":["n"],"commands":[["docker","unpause","rebootlab-worker"]]}]}');
    const env = { DOCKER_HOST: 'unix:///nonexistent/docker.sock', REBOOTLAB_CACHE: join(dir, 'cache') };
    const result = await runCli(['doctor', '--restore', '--reports', join(dir, 'reports')], { env, cwd: process.cwd(), timeoutMs: 50_000 });
    expect(existsSync(pending)).to.equal(true);
    expect(result.exitCode).to.equal(3);
    expect(result.stdout).to.match(/MISSING restore failed: .*docker unpause rebootlab-worker: refused: cannot ask Docker about container rebootlab-worker: .* — fix: rerun rebootlab doctor --restore once Docker and the cluster answer/);
    expect(result.stdout).to.not.match(/restored fault/);
  });

  describe('7. a run.json or baseline of the wrong shape', () => {
    for (const [name, content, line] of [
      ['{}', '{}', 'run.json: not a rebootlab run.json: experiment: missing'],
      ['[]', '[]', 'run.json: not a rebootlab run.json: a list, not a JSON object'],
      ['null', 'null', 'run.json: not a rebootlab run.json: null, not a JSON object'],
      ['settings "fast"', null, 'run.json: not a rebootlab run.json: settings: must be object, got "fast"'],
      ['not JSON', '{"experiment": ', /run\.json: not JSON: /],
    ] as const) {
      it(`report with run.json ${name}: exit 2, the file and the field`, async () => {
        const run = join(dir, 'r');
        cpSync(RUN, run, { recursive: true });
        const info = content ?? JSON.stringify({ ...JSON.parse(readFileSync(join(RUN, 'run.json'), 'utf8')), settings: 'fast' });
        writeFileSync(join(run, 'run.json'), info);
        badInput(await runCli(['report', run]), typeof line === 'string' ? `ERROR: ${join(run, line)}` : new RegExp(`^ERROR: ${run}/${line.source}`), 'pass a run directory written by rebootlab run');
      });
    }

    it('compare --baseline {"kind":"Result"} names the first missing field, not "is not Result"', async () => {
      const baseline = file('b.json', '{"kind":"Result"}');
      badInput(await runCli(['compare', RUN, '--baseline', baseline]), `ERROR: --baseline ${baseline}: not a rebootlab result: apiVersion: missing`, 'pass the result.json of an earlier run');
    });

    it('compare of a run whose result.json is a list', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      writeFileSync(join(run, 'result.json'), '[]');
      badInput(await runCli(['compare', run]), `ERROR: ${run}/result.json: not a rebootlab result: a list, not a JSON object`, `rebuild it with: rebootlab report ${run}`);
    });

    it('a result.json whose nodes hold the wrong type', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const result = JSON.parse(readFileSync(join(RUN, 'result.json'), 'utf8')) as { nodes: { notReadyAfterSeconds: unknown }[] };
      result.nodes[0]!.notReadyAfterSeconds = 'soon';
      writeFileSync(join(run, 'result.json'), JSON.stringify(result));
      badInput(await runCli(['compare', run]), `ERROR: ${run}/result.json: not a rebootlab result: nodes[0].notReadyAfterSeconds: must be number or null, got "soon"`, `rebuild it with: rebootlab report ${run}`);
    });

    // The hint to rebuild result.json with rebootlab report was given when report could not: without observations.jsonl
    // or a readable run.json it fails too. Each hint here is followed to show it is true.
    it('compare of a run whose result.json is missing or broken: rebootlab report only when it can rebuild it', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      rmSync(join(run, 'result.json'));
      badInput(await runCli(['compare', run]), `ERROR: ${run}: not a run directory: no result.json`, `rebuild it with: rebootlab report ${run}`);
      expect((await runCli(['report', run, '--reporter', 'json'])).exitCode).to.equal(0);
      expect((await runCli(['compare', run])).exitCode).to.equal(0);
      const incomplete = (why: string) => `the run is incomplete (${why}), so rebootlab report cannot rebuild it: run the experiment again, or leave ${run} out of the comparison`;
      writeFileSync(join(run, 'result.json'), '[]');
      rmSync(join(run, 'observations.jsonl'));
      badInput(await runCli(['compare', run]), `ERROR: ${run}/result.json: not a rebootlab result: a list, not a JSON object`, incomplete('no observations.jsonl'));
      expect(lines(await runCli(['report', run]))[0]).to.equal(`ERROR: ${run}: not a run directory (needs observations.jsonl and run.json)`);
      cpSync(join(RUN, 'observations.jsonl'), join(run, 'observations.jsonl'));
      writeFileSync(join(run, 'run.json'), '{"experiment": ');
      rmSync(join(run, 'result.json'));
      const result = await runCli(['compare', run]);
      badInput(result, `ERROR: ${run}: not a run directory: no result.json`, new RegExp(`^the run is incomplete \\(${run}/run\\.json: not JSON: .*\\), so rebootlab report cannot rebuild it: run the experiment again, or leave ${run} out of the comparison$`));
      expect(lines(await runCli(['report', run]))[0]).to.match(new RegExp(`^ERROR: ${run}/run\\.json: not JSON: `));
    });

    // rebootlab report reads run.json to rebuild result.json; it cannot rebuild run.json, so the hint must not send the user there.
    it('compare of a run whose run.json is broken: the hint is a new run or leaving the run out, not rebootlab report', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const hint = `run.json is written only by rebootlab run and nothing rebuilds it: run the experiment again, or leave ${run} out of the comparison`;
      writeFileSync(join(run, 'run.json'), '{"experiment": ');
      badInput(await runCli(['compare', run]), new RegExp(`^ERROR: ${run}/run\\.json: not JSON: `), hint);
      writeFileSync(join(run, 'run.json'), JSON.stringify({ matrixValues: ['20s'] }));
      badInput(await runCli(['compare', run]), `ERROR: ${run}/run.json: not a rebootlab run.json: matrixValues: must be an object`, hint);
    });
  });

  it('13. --baseline of another experiment says what differs and is refused unless --baseline-any', async () => {
    const other = 'test/fixtures/runs/power-off-past-toleration';
    badInput(await runCli(['compare', other, '--baseline', `${RUN}/result.json`]),
      `ERROR: --baseline ${RUN}/result.json is a result of experiment "reboot-quick", not "outage-tuned"; fault reboot, not power-off; its timings do not gate these runs`,
      'pass a result.json of the same experiment, fault and variant, or add --baseline-any to gate against it anyway');
    const any = await runCli(['compare', other, '--baseline', `${RUN}/result.json`, '--baseline-any']);
    expect(any.exitCode).to.equal(1);
    expect(any.stdout).to.match(/^REGRESSION detection \(NotReady\): /m);
    // The same experiment gates as before.
    const same = await runCli(['compare', 'test/fixtures/runs/kind-outage-tuned-recorded', '--baseline', `${other}/result.json`]);
    expect(same.stderr).to.equal('');
    expect([0, 1]).to.include(same.exitCode);
  });

  describe('14. misleading lines', () => {
    it('--set before the file takes one value; an unknown --set path names the flag', async () => {
      badInput(await runCli(['validate', '--set', 'nosuch.path=1', 'experiments/reboot-quick.yaml']),
        'ERROR: experiments/reboot-quick.yaml (--set nosuch.path=1): nosuch: unknown field; allowed: apiVersion, cluster, expect, fault, kind, matrix, metadata, observe, probes, repeat, steps, workloads');
    });

    it('validate --foo x.yaml names the unknown flag, not "not enough non-option arguments"', async () => {
      badInput(await runCli(['validate', '--foo', 'experiments/reboot-quick.yaml']), 'ERROR: unknown flag --foo; see rebootlab --help');
      badInput(await runCli(['report', '--bogus', RUN]), 'ERROR: unknown flag --bogus; see rebootlab --help');
    });

    it('an unknown --baseline-variant hint names --baseline-variant', async () => {
      badInput(await runCli(['compare', RUN, '--baseline-variant', 'nope']), 'ERROR: baseline variant "nope" is not among the compared runs; variants: reboot-quick', 'pass --baseline-variant with one of those names');
    });

    it('a binary file is refused without echoing it; a script is named as one; a directory and a FIFO-like device are refused', async () => {
      const binary = file('bin.yaml', `kind: Experiment\n${String.fromCharCode(0, 1, 2, 27)}[2J${'\u00ff'.repeat(9000)}`);
      const result = await runCli(['validate', binary, 'experiments/rolling-reboot.ts', dir, '/dev/zero']);
      badInput(result,
        `ERROR: ${binary}: cannot read: not a text file (a NUL byte at offset 17)`,
        'ERROR: experiments/rolling-reboot.ts: a scripted experiment, not an experiment file (YAML); it is type-checked and validated when run: rebootlab run experiments/rolling-reboot.ts',
        `ERROR: ${dir}: cannot read: is a directory`,
        'ERROR: /dev/zero: cannot read: not a regular file');
    });

    it('an alias without its anchor is placed at the alias', async () => {
      const f = file('a.yaml', `${HEAD}fault: {type: power-off, duration: *nope}\n`);
      badInput(await runCli(['validate', f]), `ERROR: ${f}:4:36: invalid YAML: unknown alias *nope (its anchor &nope must come before it)`);
    });

    it('a file of many issues prints the first ten and counts the rest', async () => {
      const f = file('k.yaml', `${HEAD}fault: {type: reboot}\n${Array.from({ length: 500 }, (_, i) => `k${i}: 1`).join('\n')}\n`);
      const result = await runCli(['validate', f]);
      expect(result.exitCode).to.equal(2);
      expect(lines(result)).to.have.length(11);
      expect(lines(result)[10]).to.equal(`ERROR: ${f}: 490 more issues not shown; fix these first`);
    });

    it('report of a torn journal (a killed run) is INTERRUPTED with exit 1, not 130 (a signal to this process)', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const journal = readFileSync(join(RUN, 'observations.jsonl'), 'utf8');
      writeFileSync(join(run, 'observations.jsonl'), journal.slice(0, journal.length - 50));
      const result = await runCli(['report', run]);
      expect(result.exitCode).to.equal(1);
      expect(result.stdout).to.equal(`INTERRUPTED ${run}: reports rebuilt (the journal ends before run-finished: the run was stopped)\n`);
      expect(result.stderr).to.match(/torn last line/);
    });

    it('report of a journal damaged in the middle writes every report, says so in them, and exits 2 naming file:line:col', async () => {
      // A record in the middle was only a warning: PASSED, exit 0, and result.json / summary.md silent about the loss.
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const journal = join(run, 'observations.jsonl');
      const records = readFileSync(join(RUN, 'observations.jsonl'), 'utf8').split('\n');
      records[9] = `${records[9]!.slice(0, 8)}x${records[9]!.slice(9)}`; // {"seq":9x"type":... : not JSON from column 9
      writeFileSync(journal, records.join('\n'));
      rmSync(join(run, 'result.json'));
      const result = await runCli(['report', run]);
      expect(result.stdout).to.equal(`PASSED ${run}: reports rebuilt\n`);
      badInput(result,
        `warning: ${journal}:10:9: unreadable line (${records[9]!.length} bytes); skipped`,
        `ERROR: ${journal}: damaged: line 10:9 was skipped (the warning above); the reports were rebuilt from the other records and say so under Warnings`,
        'rerun the experiment for complete results, or repair that line and run rebootlab report again');
      const warning = `observations.jsonl is damaged: line 10:9 was skipped (unreadable line (${records[9]!.length} bytes)); what it recorded is missing from these results`;
      expect(JSON.parse(readFileSync(join(run, 'result.json'), 'utf8')).warnings[0]).to.equal(warning);
      expect(readFileSync(join(run, 'summary.md'), 'utf8')).to.include(`## Warnings\n\n- ${warning}`);
    });

    it('report of a journal that ends before any fault (an empty one, or a run killed while creating its cluster) names the journal', async () => {
      // Found by a new-user try: "journal has no fault-injected marker; ..." named neither the file nor the run.
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const journal = readFileSync(join(RUN, 'observations.jsonl'), 'utf8').split('\n');
      for (const kept of [[], journal.slice(0, 2)]) {
        writeFileSync(join(run, 'observations.jsonl'), kept.map((l) => `${l}\n`).join(''));
        badInput(await runCli(['report', run]),
          `ERROR: ${join(run, 'observations.jsonl')}: journal has no fault-injected marker; the run ended before a fault was injected`,
          'rerun the experiment');
      }
    });

    it('report of a journal whose fault-injected line is damaged names that line, not "rerun the experiment" (hostile-input tryout)', async () => {
      const run = join(dir, 'r');
      cpSync(RUN, run, { recursive: true });
      const journal = join(run, 'observations.jsonl');
      const lines = readFileSync(journal, 'utf8').split('\n');
      const at = lines.findIndex((l) => l.includes('"phase":"fault-injected"'));
      const damaged = JSON.parse(lines[at]!) as Record<string, unknown>;
      lines[at] = JSON.stringify({ ...damaged, detail: 'oops' });
      writeFileSync(journal, lines.join('\n'));
      const result = await runCli(['report', run]);
      badInput(result,
        `warning: ${journal}:${at + 1}:1: not a journal record (detail is not an object); skipped`,
        `ERROR: ${journal}: journal has no fault-injected marker, and line ${at + 1}:1 was skipped (not a journal record (detail is not an object))`,
        'repair the skipped line (it may have held the marker) and run rebootlab report again');
    });

    it('compare with a negative or non-numeric --tolerance-*: one line naming the flag, exit 2, no table printed first', async () => {
      // Found by a new-user try: the table was printed, then "baseline toleranceSeconds: ... got NaN" named no flag.
      for (const [flag, value, line] of [
        ['--tolerance-seconds', '-5', 'ERROR: --tolerance-seconds: must be a number ≥ 0 (seconds), got -5'],
        ['--tolerance-percent', 'abc', 'ERROR: --tolerance-percent: must be a number ≥ 0 (percent), got not a number'],
      ] as const) {
        const result = await runCli(['compare', RUN, '--baseline', join(RUN, 'result.json'), flag, value]);
        badInput(result, line, `pass e.g. ${flag} ${flag === '--tolerance-seconds' ? 5 : 10}`);
        expect(result.stdout).to.equal('');
      }
    });

    it('compare and run with an absurd --tolerance-* (1e308, above a day or 1000 %, hex, blank, Infinity, twice, --no-): one line naming the flag, exit 2', async () => {
      // yargs' number type read `0x10` as 16 and `' '` as 0 (the strictest gate), and 1e308 made the gate a no-op.
      for (const [args, line] of [
        [['--tolerance-seconds', '1e308'], 'ERROR: --tolerance-seconds: at most 86400 (seconds), got 1e+308; a larger allowance could never fail the gate'],
        [['--tolerance-seconds', '86401'], 'ERROR: --tolerance-seconds: at most 86400 (seconds), got 86401; a larger allowance could never fail the gate'],
        [['--tolerance-percent', '1001'], 'ERROR: --tolerance-percent: at most 1000 (percent), got 1001; a larger allowance could never fail the gate'],
        [['--tolerance-seconds', '0x10'], 'ERROR: --tolerance-seconds: must be a number ≥ 0 (seconds), got "0x10" (write a decimal number)'],
        [['--tolerance-percent', ' '], 'ERROR: --tolerance-percent: must be a number ≥ 0 (percent), got " " (write a decimal number)'],
        [['--tolerance-seconds=Infinity'], 'ERROR: --tolerance-seconds: must be a number ≥ 0 (seconds), got "Infinity" (write a decimal number)'],
        [['--tolerance-seconds', '1', '--tolerance-seconds', '2'], 'ERROR: --tolerance-seconds: must be a number ≥ 0 (seconds), got 2 values (1, 2); give the flag once'],
        [['--no-tolerance-percent'], 'ERROR: --tolerance-percent: must be a number ≥ 0 (percent), got --no-tolerance-percent'],
      ] as const) {
        const flag = line.slice('ERROR: '.length, line.indexOf(':', 'ERROR: '.length));
        const result = await runCli(['compare', RUN, '--baseline', join(RUN, 'result.json'), ...args]);
        badInput(result, line, `pass e.g. ${flag} ${flag === '--tolerance-seconds' ? 5 : 10}`);
        expect(result.stdout).to.equal('');
      }
      badInput(await runCli(['run', 'experiments/reboot-quick.yaml', '--out', join(dir, 'out'), '--tolerance-percent', '1e9']),
        'ERROR: --tolerance-percent: at most 1000 (percent), got 1000000000; a larger allowance could never fail the gate', 'pass e.g. --tolerance-percent 10');
      // The largest allowed values and decimals still gate.
      const ok = await runCli(['compare', RUN, '--baseline', join(RUN, 'result.json'), '--tolerance-seconds', '86400', '--tolerance-percent', '2.5e2']);
      expect(ok.exitCode, ok.stderr).to.equal(0);
    });

    it('doctor --reports <a file> is refused before anything is checked', async () => {
      const f = file('not-a-dir', 'x');
      badInput(await runCli(['doctor', '--reports', f]), `ERROR: --reports ${f}: not a directory`, 'pass the parent directory of your run directories (rebootlab run --out), e.g. --reports reports');
      badInput(await runCli(['doctor', '--reports', join(dir, 'missing')]), `ERROR: --reports ${join(dir, 'missing')}: no such directory`, 'pass the parent directory of your run directories (rebootlab run --out), e.g. --reports reports');
    });
  });

  it('15. escape sequences in a run directory (run.json variant, node names in the journal) never reach the terminal: report --reporter list and compare write them escaped (tryout of 8 Dec)', async () => {
    const run = join(dir, 'run');
    cpSync(RUN, run, { recursive: true });
    const info = JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')) as { variant: string };
    writeFileSync(join(run, 'run.json'), JSON.stringify({ ...info, variant: 'x\u001b[2Jy' }));
    const journal = join(run, 'observations.jsonl');
    writeFileSync(journal, readFileSync(journal, 'utf8').replaceAll('kind-worker', 'kind-w\\u001b]0;title\\u0007orker'));
    const list = await runCli(['report', run, '--reporter', 'list']);
    expect(list.stderr + list.stdout).to.include('kind-w\\u001b]0;title\\u0007orker');
    const compare = await runCli(['compare', run, run]);
    for (const r of [list, compare]) expect(r.stdout + r.stderr).to.not.match(/[\u001b\u0007]/);
  });
});
