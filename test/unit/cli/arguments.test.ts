// The command line names what the user typed: positional cluster names (`cluster delete NAME` as well as
// `--name NAME`), extra words called arguments, not flags. Parsed in process by the real yargs parser (main()).
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterNameArgument } from '../../../lib/cli/commands.js';
import { fileTakenByFlag, firstLine, invalidChoicesLine, main, missingArgumentLine, missingValueFlags, parseCommandLine, unknownFlags } from '../../../lib/cli/main.js';

async function cli(argv: string[]): Promise<{ exitCode: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const saved = process.exitCode;
  const exitCode = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  process.exitCode = saved;
  return { exitCode, stderr, stdout };
}

describe('cli: warnings go to the streams main() is given', () => {
  it('report writes the journal warning and its error to the given stderr, not the process stderr', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-streams-'));
    try {
      const run = join(dir, 'r');
      cpSync('test/fixtures/runs/reboot-quick', run, { recursive: true });
      const journal = join(run, 'observations.jsonl');
      const records = readFileSync(journal, 'utf8').split('\n');
      records[3] = '{"seq":3,"type":"nothing","receivedAtMs":1}';
      writeFileSync(journal, records.join('\n'));
      const res = await cli(['report', run]);
      expect(res.stdout).to.equal(`PASSED ${run}: reports rebuilt\n`);
      expect(res.stderr).to.equal(
        `warning: ${journal}:4:1: not a journal record (type is not object, phase, gap, probe or forecast); skipped\n`
        + `ERROR: ${journal}: damaged: line 4:1 was skipped (the warning above); the reports were rebuilt from the other records and say so under Warnings\n`
        + 'rerun the experiment for complete results, or repair that line and run rebootlab report again\n',
      );
      expect(res.exitCode).to.equal(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cli arguments', () => {
  it('a run directory or --baseline-variant with a line break stays on one line (the status line and the error were cut or split)', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-newline-'));
    try {
      const run = join(dir, 'a\nb|`c');
      cpSync('test/fixtures/runs/reboot-quick', run, { recursive: true });
      const report = await cli(['report', run, '--reporter', 'json']);
      expect(report).to.deep.equal({ exitCode: 0, stderr: '', stdout: `PASSED ${join(dir, 'a\\nb|`c')}: reports rebuilt\n` });
      const compare = await cli(['compare', run, '--baseline-variant', 'x\ny']);
      expect(compare).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: baseline variant "x\\ny" is not among the compared runs; variants: reboot-quick\npass --baseline-variant with one of those names\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an empty file or directory argument ('', a variable that expanded to nothing) is one line naming the command, not `ERROR: : cannot read`", async () => {
    const cases: [string[], string][] = [
      [['validate', ''], "rebootlab validate: no experiment file given: the argument is empty (''); usage: rebootlab validate <file.yaml> [<file.yaml> ...]"],
      [['validate', 'experiments/reboot-quick.yaml', ''], "rebootlab validate: no experiment file given: argument 2 is empty (''); usage: rebootlab validate <file.yaml> [<file.yaml> ...]"],
      [['run', ''], "rebootlab run: no experiment file given: the argument is empty (''); usage: rebootlab run <file.yaml>"],
      [['plan', ''], "rebootlab plan: no experiment file given: the argument is empty (''); usage: rebootlab plan <file.yaml>"],
      [['predict', ''], "rebootlab predict: no experiment file given: the argument is empty (''); usage: rebootlab predict <file.yaml>"],
      [['report', ''], "rebootlab report: no run directory given: the argument is empty (''); usage: rebootlab report <run-dir>"],
      [['compare', 'a', ''], "rebootlab compare: no run directory given: argument 2 is empty (''); usage: rebootlab compare <run-dir> [<run-dir> ...] (or a matrix run directory)"],
      [['validate', ' \t'], 'rebootlab validate: no experiment file given: the argument is blank (" \\t"); usage: rebootlab validate <file.yaml> [<file.yaml> ...]'],
      [['report', ' '], 'rebootlab report: no run directory given: the argument is blank (" "); usage: rebootlab report <run-dir>'],
    ];
    for (const [argv, line] of cases) expect(await cli(argv), argv.join(' ')).to.deep.equal({ exitCode: 2, stdout: '', stderr: `ERROR: ${line}\n` });
  });

  it('a lone "-" (standard input) where a file or run directory goes is refused, not dropped (`validate -` passed, checking nothing)', async () => {
    const cases: [string[], string][] = [
      [['validate', '-'], 'rebootlab validate: "-" is not an experiment file: rebootlab does not read one from standard input; give its path; usage: rebootlab validate <file.yaml> [<file.yaml> ...]'],
      [['validate', 'experiments/reboot-quick.yaml', '-'], 'rebootlab validate: "-" is not an experiment file: rebootlab does not read one from standard input; give its path; usage: rebootlab validate <file.yaml> [<file.yaml> ...]'],
      [['predict', '-'], 'rebootlab predict: "-" is not an experiment file: rebootlab does not read one from standard input; give its path; usage: rebootlab predict <file.yaml>'],
      [['report', '-'], 'rebootlab report: "-" is not a run directory: rebootlab does not read one from standard input; give its path; usage: rebootlab report <run-dir>'],
    ];
    for (const [argv, line] of cases) expect(await cli(argv), argv.join(' ')).to.deep.equal({ exitCode: 2, stdout: '', stderr: `ERROR: ${line}\n` });
  });

  it('a flag of a few choices given twice is refused, not read as neither (`-o json -o json` printed text)', async () => {
    const cases: [string[], string][] = [
      [['predict', 'experiments/reboot-quick.yaml', '--format', 'markdown', '--format', 'json'], '--format given twice (markdown, json); give it once'],
      [['predict', 'experiments/reboot-quick.yaml', '-o', 'json', '-o', 'json'], '--output given twice (json, json); give it once'],
      [['validate', 'test/fixtures/no-such.yaml', '-o', 'json', '--output', 'text'], '--output given twice (json, text); give it once'],
    ];
    for (const [argv, line] of cases) expect(await cli(argv), argv.join(' ')).to.deep.equal({ exitCode: 2, stdout: '', stderr: `ERROR: ${line}\n` });
    expect((await cli(['validate', 'experiments/reboot-quick.yaml', '-o', 'json'])).exitCode).to.equal(0);
  });

  it('--baseline-any without --baseline is refused, not ignored (run and compare: it gated nothing)', async () => {
    const line = 'ERROR: --baseline-any without --baseline gates nothing; add --baseline <result.json> (the run to gate against), or drop --baseline-any\n';
    for (const argv of [['run', 'experiments/reboot-quick.yaml', '--baseline-any'], ['compare', 'test/fixtures/runs/reboot-quick', '--baseline-any']]) {
      expect(await cli(argv), argv.join(' ')).to.deep.equal({ exitCode: 2, stdout: '', stderr: line });
    }
  });

  it('reads the cluster name from `cluster <action> NAME` and refuses a different --name', async () => {
    const res = await cli(['cluster', 'delete', 'hb2', '--name', 'other']);
    expect(res).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: two cluster names given: "hb2" and "other"; give NAME or --name NAME once\n' });
  });

  it('names a bad positional cluster name as given, before any cluster is touched', async () => {
    const res = await cli(['cluster', 'create', 'Bad_Name']);
    expect(res.exitCode).to.equal(2);
    expect(res.stderr).to.equal('ERROR: cluster name "Bad_Name" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)\n');
  });

  it('calls an extra word an argument and a dashed one a flag', async () => {
    expect((await cli(['cluster', 'delete', 'hb2', 'extra'])).stderr).to.equal('ERROR: unexpected argument "extra"; see rebootlab --help\n');
    expect((await cli(['cluster', 'delete', '--hb2'])).stderr).to.equal('ERROR: unknown flag --hb2; see rebootlab --help\n');
    expect((await cli(['report', 'a', 'b'])).stderr).to.equal('ERROR: unexpected argument "b"; see rebootlab --help\n');
  });

  it('refuses a name for cluster list', async () => {
    expect((await cli(['cluster', 'list', 'lab'])).stderr).to.equal('ERROR: cluster list takes no name, got "lab"; run: rebootlab cluster list\n');
  });

  it('clusterNameArgument: either spelling, the same name twice, or none', () => {
    expect(clusterNameArgument(['lab', undefined])).to.equal('lab');
    expect(clusterNameArgument([undefined, 'lab'])).to.equal('lab');
    expect(clusterNameArgument(['lab', 'lab'])).to.equal('lab');
    expect(clusterNameArgument([undefined, undefined])).to.equal(undefined);
    expect(() => clusterNameArgument([undefined, ['a', 'b']])).to.throw('two cluster names given: "a" and "b"');
  });

  it('firstLine: one line, flags with dashes, words quoted; the camelCase twin of a kebab flag dropped', () => {
    expect(firstLine('Unknown argument: hb2', ['cluster', 'delete', 'hb2'])).to.equal('unexpected argument "hb2"');
    expect(firstLine('Unknown arguments: dry-run, dryRun', ['run', 'x.yaml', '--dry-run'])).to.equal('unknown flag --dry-run');
    expect(firstLine('Unknown arguments: x, extra', ['run', 'a.yaml', '-x', 'extra'])).to.equal('unknown flag -x; unexpected argument "extra"');
    expect(firstLine('Invalid values:\n  Argument: action', [])).to.equal('invalid values: Argument: action');
  });

  it('missingArgumentLine and invalidChoicesLine: yargs messages as one line, other messages left alone', () => {
    expect(missingArgumentLine('Not enough non-option arguments: got 0, need at least 1', ['--verbose', 'plan'])).to.equal('rebootlab plan: missing the experiment file; usage: rebootlab plan <file.yaml>');
    expect(missingArgumentLine('Not enough non-option arguments: got 0, need at least 1', ['nosuch'])).to.equal(null);
    expect(missingArgumentLine('Unknown argument: x', ['run'])).to.equal(null);
    expect(invalidChoicesLine('Invalid values:\n  Argument: output, Given: "xml", Choices: "text", "json"', ['validate', '-o', 'xml'])).to.equal('--output: "xml" is not one of text, json');
    expect(invalidChoicesLine('Invalid values:\n  Argument: action, Given: "x, Choices: y", Choices: "create", "delete", "list"', ['cluster', 'x, Choices: y'])).to.equal('rebootlab cluster <action>: "x, Choices: y" is not one of create, delete, list');
    expect(invalidChoicesLine('Unknown argument: x', [])).to.equal(null);
  });

  it('fileTakenByFlag: an experiment file written after a value flag with a space; "=" values, booleans and words after "--" left alone', () => {
    const options = { key: { help: true, verbose: true, v: true, out: true, set: true, output: true, o: true }, alias: { verbose: ['v'], output: ['o'] }, boolean: ['help', 'verbose'], count: [] };
    expect(fileTakenByFlag(['run', '--out', 'x.yaml'], options)).to.deep.equal({ flag: '--out', value: 'x.yaml' });
    expect(fileTakenByFlag(['run', '-v', '--set', 'lab.YML'], options)).to.deep.equal({ flag: '--set', value: 'lab.YML' });
    expect(fileTakenByFlag(['run', '-vo', 'script.mts'], options)).to.deep.equal({ flag: '-o', value: 'script.mts' });
    expect(fileTakenByFlag(['run', '--out', 'reports'], options)).to.equal(null);
    expect(fileTakenByFlag(['run', '--out=x.yaml'], options)).to.equal(null);
    expect(fileTakenByFlag(['run', '--verbose', 'x.yaml'], options)).to.equal(null);
    expect(fileTakenByFlag(['run', '--', '--out', 'x.yaml'], options)).to.equal(null);
    expect(fileTakenByFlag(['run', '--out'], options)).to.equal(null);
  });

  it('missingArgumentLine names the experiment file a value flag took, for experiment commands only', () => {
    const options = { key: { help: true, out: true, set: true }, alias: {}, boolean: ['help'], count: [] };
    const message = 'Not enough non-option arguments: got 0, need at least 1';
    expect(missingArgumentLine(message, ['run', '--out', 'x.yaml'], options)).to.equal(
      'rebootlab run: missing the experiment file: x.yaml was taken as the value of --out; put the experiment file first and give --out a value of its own (rebootlab run x.yaml --out <value>)',
    );
    expect(missingArgumentLine(message, ['run', '--out', 'reports'], options)).to.equal('rebootlab run: missing the experiment file; usage: rebootlab run <file.yaml>');
    expect(missingArgumentLine(message, ['report', '--out', 'x.yaml'], options)).to.equal('rebootlab report: missing the run directory; usage: rebootlab report <run-dir>');
  });

  it('unknownFlags: flags the matched command does not define, aliases, camelCase and --no- forms known', () => {
    const options = { key: { help: true, verbose: true, set: true, 'tolerance-seconds': true, toleranceSeconds: true }, alias: { verbose: ['v'], help: ['h'] } };
    expect(unknownFlags(['validate', '--foo', 'x.yaml', '-v', '--no-verbose', '--tolerance-seconds=3', '--set', 'a=1', '-q', '--', '--bar'], options)).to.deep.equal(['--foo', '-q']);
    expect(unknownFlags(['compare', '-1', '-'], options)).to.deep.equal([]);
  });

  it('missingValueFlags: value flags given last, before a flag or "--", or empty; booleans, counts, numbers and "=" values left alone', () => {
    const options = { key: { help: true, verbose: true, v: true, out: true, output: true, o: true, 'tolerance-seconds': true }, alias: { verbose: ['v'], output: ['o'] }, boolean: ['help', 'verbose'], count: [] };
    expect(missingValueFlags(['run', 'x.yaml', '--out'], options)).to.deep.equal(['--out']);
    expect(missingValueFlags(['run', 'x.yaml', '--out', '-v', '--tolerance-seconds', '--', 'a'], options)).to.deep.equal(['--out', '--tolerance-seconds']);
    expect(missingValueFlags(['run', '--out=', 'x.yaml', '-vo'], options)).to.deep.equal(['--out', '-o']);
    expect(missingValueFlags(['run', 'x.yaml', '--out', 'r', '--tolerance-seconds', '-1', '--out=-x', '-v', '--help', '-o', 'json', '--', '--out'], options)).to.deep.equal([]);
    expect(missingValueFlags(['run', 'x.yaml', '--unknown', '--verbose'], options)).to.deep.equal([]);
  });

  it('a flag without its value never runs its command (toolchain --kubernetes built the default version, doctor --reports --restore restored)', async () => {
    const cases: [string[], string][] = [
      [['toolchain', '--kubernetes'], '--kubernetes'],
      [['run', 'x.yaml', '--allow-faults-on'], '--allow-faults-on'],
      [['run', 'x.yaml', '--baseline', '--shard=1/2'], '--baseline'],
      [['plan', 'x.yaml', '--set='], '--set'],
      [['doctor', '--reports', '--restore'], '--reports'],
      [['cluster', 'create', '--experiment'], '--experiment'],
      [['run', 'x.yaml', '--out', ''], '--out'],
      [['run', 'x.yaml', '--tolerance-seconds'], '--tolerance-seconds'],
      [['run', 'x.yaml', '--reporter'], '--reporter'],
      [['compare', 'a', '--baseline-variant'], '--baseline-variant'],
    ];
    for (const [argv, flag] of cases) {
      let error: unknown;
      await parseCommandLine(argv).catch((e: unknown) => (error = e));
      expect(error, argv.join(' ')).to.be.an('error').with.property('message', `${flag}: missing its value; see rebootlab --help`);
      expect(error).to.have.property('exitCode', 2);
    }
  });

  it('a yargs argument error (--set with no value) is bad input, one line', async () => {
    expect(await cli(['validate', 'experiments/reboot-quick.yaml', '--set'])).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: --set: missing its value; see rebootlab --help\n' });
  });
});
