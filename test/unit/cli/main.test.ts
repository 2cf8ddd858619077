// Black-box tests of the CLI through a real subprocess (`node bin/rebootlab.js`): exit codes and exact stderr.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runCli } from '../../helpers/run-cli.js';

const FIXTURES = 'test/fixtures/experiments';

describe('cli', function () {
  this.timeout(30_000);

  it('validate experiments/*.yaml: exit 0, "ok <file>" per shipped experiment', async () => {
    const files = readdirSync('experiments').filter((f) => f.endsWith('.yaml')).map((f) => `experiments/${f}`);
    expect(files).to.include.members(['experiments/reboot-quick.yaml', 'experiments/outage-tuned.yaml', 'experiments/outage-default.yaml']);
    const result = await runCli(['validate', ...files]);
    expect(result.stderr).to.equal('');
    expect(result.exitCode).to.equal(0);
    expect(result.stdout).to.equal(files.map((f) => `ok ${f}\n`).join(''));
  });

  // Each invalid fixture has exactly one issue, so one subprocess over all of them must print one line
  // per file, in argument order: the line in the file's first comment.
  it('validate <every invalid fixture>: exit 2, one line per file naming file:line:col and field, no stack', async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.startsWith('invalid-')).sort().map((f) => `${FIXTURES}/${f}`);
    const expected = files.map((file) => `ERROR: ${/^# (.*)$/m.exec(readFileSync(file, 'utf8'))![1]}`);
    const result = await runCli(['validate', ...files]);
    expect(result.exitCode).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(result.stderr.trimEnd().split('\n')).to.deep.equal(expected);
    for (const [index, line] of expected.entries()) expect(line).to.match(new RegExp(`^ERROR: ${files[index]!.replace(/\./g, '\\.')}:\\d+:\\d+: `));
    expect(result.stderr).to.not.match(/\n\s+at /);
  });

  for (const name of ['invalid-unknown-field.yaml', 'invalid-control-plane-target.yaml', 'invalid-pod-eviction-timeout.yaml']) {
    it(`run ${name}: exit 2, exactly one line, no stack`, async () => {
      const file = `${FIXTURES}/${name}`;
      const result = await runCli(['run', file]);
      expect(result.exitCode).to.equal(2);
      expect(result.stderr).to.equal(`ERROR: ${/^# (.*)$/m.exec(readFileSync(file, 'utf8'))![1]}\n`);
    });
  }

  it('run <invalid file>: exit 2 with exactly one line, before any cluster exists', async () => {
    const file = `${FIXTURES}/invalid-duration-bare-number.yaml`;
    const result = await runCli(['run', file]);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal(
      `ERROR: ${file}:8:29: cluster.controllerManager.nodeMonitorGracePeriod: 40 has no unit; add a unit, e.g. "40s"\n`,
    );
  });

  it('run --set with a bad value: exit 2 naming the flag', async () => {
    const result = await runCli(['run', 'experiments/outage-tuned.yaml', '--set', 'fault.duration=30']);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal(
      'ERROR: experiments/outage-tuned.yaml (--set fault.duration=30): fault.duration: 30 has no unit; add a unit, e.g. "30s"\n',
    );
  });

  it('run --reporter with an unknown name: exit 2, one line, before any cluster exists (also for a script)', async () => {
    for (const file of ['experiments/reboot-quick.yaml', 'experiments/rolling-reboot.ts']) {
      const result = await runCli(['run', file, '--reporter', 'list,jnuit']);
      expect(result.exitCode, file).to.equal(2);
      expect(result.stderr).to.equal('ERROR: --reporter: unknown reporter "jnuit"; known: list, json, markdown, html, junit, github\n');
    }
  });

  it('a missing file: exit 2, one line', async () => {
    const result = await runCli(['validate', 'no-such-file.yaml']);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal('ERROR: no-such-file.yaml: cannot read: no such file\n');
  });

  it('an unknown flag: exit 2, one line', async () => {
    const result = await runCli(['validate', 'experiments/reboot-quick.yaml', '--bogus']);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal('ERROR: unknown flag --bogus; see rebootlab --help\n');
  });

  it('an unknown command: exit 2, one line with a suggestion', async () => {
    const result = await runCli(['valdate', 'x.yaml']);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal('ERROR: unknown command "valdate"; did you mean validate?; see rebootlab --help\n');
  });

  it('no command: exit 2, one line', async () => {
    const result = await runCli([]);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr.split('\n').filter(Boolean)).to.have.length(1);
  });

  it('a bad choice: exit 2, one line naming the argument, the value and the choices', async () => {
    const result = await runCli(['cluster', 'explode']);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal('ERROR: rebootlab cluster <action>: "explode" is not one of create, delete, list\n');
  });

  it('a bad flag value: exit 2, one line naming the flag, the value and the choices, each flag once', async () => {
    const predict = await runCli(['predict', 'experiments/reboot-quick.yaml', '--format', 'xml']);
    expect(predict).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: --format: "xml" is not one of text, markdown, json\n' });
    const two = await runCli(['compare', 'test/fixtures/runs/reboot-quick', '--format=xml', '-o', 'yaml']);
    expect(two).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: --format: "xml" is not one of text, markdown, html, json; --output: "yaml" is not one of text, json\n' });
  });

  it('a missing positional argument: exit 2, one line naming the command, what is missing and its usage', async () => {
    expect(await runCli(['run'])).to.deep.equal({ exitCode: 2, stdout: '', stderr: 'ERROR: rebootlab run: missing the experiment file; usage: rebootlab run <file.yaml>\n' });
    expect(await runCli(['-o', 'json', 'compare', '--format', 'markdown'])).to.deep.equal({
      exitCode: 2, stdout: '', stderr: 'ERROR: rebootlab compare: missing the run directories; usage: rebootlab compare <run-dir> [<run-dir> ...] (or a matrix run directory)\n',
    });
    expect((await runCli(['report'])).stderr).to.equal('ERROR: rebootlab report: missing the run directory; usage: rebootlab report <run-dir>\n');
  });

  it('an experiment file taken as a flag\'s value (run --out x.yaml): exit 2, one line saying so and what to write', async () => {
    expect(await runCli(['run', '--out', 'experiments/reboot-quick.yaml'])).to.deep.equal({
      exitCode: 2, stdout: '',
      stderr: 'ERROR: rebootlab run: missing the experiment file: experiments/reboot-quick.yaml was taken as the value of --out; put the experiment file first and give --out a value of its own (rebootlab run experiments/reboot-quick.yaml --out <value>)\n',
    });
    expect(await runCli(['predict', '--set', 'experiments/reboot-quick.yaml'])).to.deep.equal({
      exitCode: 2, stdout: '',
      stderr: 'ERROR: rebootlab predict: missing the experiment file: experiments/reboot-quick.yaml was taken as the value of --set; put the experiment file first and give --set a value of its own (rebootlab predict experiments/reboot-quick.yaml --set <value>)\n',
    });
  });

  // A value flag given last, before another flag, or empty was taken as '' or its default (`run x.yaml --out` wrote
  // to reports/, `cluster create --name` blamed the name ""). Each command line here fails harmlessly without the check.
  // (More flags, parsed in process: test/unit/cli/arguments.test.ts.)
  it('a flag without its value: exit 2, one line naming the flag, before the command does anything', async function () {
    this.timeout(60_000);
    const invalid = `${FIXTURES}/invalid-duration-bare-number.yaml`;
    const cases: [string[], string][] = [
      [['run', invalid, '--out'], '--out'],
      [['run', invalid, '--out='], '--out'],
      [['run', invalid, '--out', '--keep-cluster'], '--out'],
      [['run', invalid, '-o'], '-o'],
      [['cluster', 'create', '--name'], '--name'],
      [['report', 'no-such-run', '--reporter'], '--reporter'],
      [['compare', 'no-such-run', '--format'], '--format'],
    ];
    const results = await Promise.all(cases.map(([argv]) => runCli(argv, { timeoutMs: 50_000 })));
    for (const [index, [argv, flag]] of cases.entries()) {
      expect(results[index], argv.join(' ')).to.deep.equal({ exitCode: 2, stdout: '', stderr: `ERROR: ${flag}: missing its value; see rebootlab --help\n` });
    }
    // A value that starts with "-" is still a value when it is a number, or written with "=".
    const negative = await runCli(['run', invalid, '--tolerance-seconds', '-1', '--out=reports']);
    expect(negative.stderr).to.match(/^ERROR: test\/fixtures\/experiments\/invalid-duration-bare-number\.yaml:8:29: /);
  });

  // docs/cli.md's plan row: the plan is printed, then a version that is not built here is one line and the command
  // that builds it, exit 3. A docker on PATH whose engine answers but has no image and reaches no registry, whatever
  // this machine has built.
  it('plan of a version that is not built here: the plan on stdout, then "not built" and the toolchain command, exit 3', async () => {
    const tools = mkdtempSync(join(tmpdir(), 'rebootlab-fake-docker-'));
    writeFileSync(join(tools, 'docker'), '#!/bin/sh\n[ "$1" = version ] && { echo 20.10.24; exit 0; }\necho "no such image: $*" >&2\nexit 1\n');
    chmodSync(join(tools, 'docker'), 0o755);
    const env = { PATH: tools, REBOOTLAB_CACHE: '/nonexistent-rebootlab-cache' };
    const result = await runCli(['plan', 'experiments/reboot-quick.yaml', '--set', 'cluster.kubernetesVersion=v1.36.3'], { env }).finally(() => rmSync(tools, { recursive: true, force: true }));
    expect(result.stdout).to.match(/^plan of experiments\/reboot-quick\.yaml: 1 run\(s\); nothing below has been done\n/);
    expect(result.stderr).to.equal(
      'ERROR: Kubernetes v1.36.3 is not built here: no node image rebootlab/node:v1.36.3, and kindest/node:v1.36.3 cannot be pulled (no registry reachable)\n'
      + 'Run: npm run toolchain -- --kubernetes v1.36.3\n',
    );
    expect(result.exitCode).to.equal(3);
  });

  // Without a Docker engine, plan and run said the version "is not built here ... (no registry reachable)" and sent the
  // user to build it; doctor said the engine did not answer. No docker on PATH, then a docker whose daemon is not there.
  it('plan and run without a Docker engine say the engine did not answer and how to start it, exit 3', async function () {
    this.timeout(60_000);
    const tools = mkdtempSync(join(tmpdir(), 'rebootlab-fake-docker-'));
    const down = 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?';
    writeFileSync(join(tools, 'docker'), `#!/bin/sh\necho "${down}" >&2\nexit 1\n`);
    chmodSync(join(tools, 'docker'), 0o755);
    const hint = 'Start Docker: bash hack/docker.sh in the rebootlab checkout (or your own way), then run this again\n';
    const cache = { REBOOTLAB_CACHE: '/nonexistent-rebootlab-cache' };
    const noTools = { PATH: '/nonexistent-rebootlab-tools', ...cache };
    const args = ['experiments/reboot-quick.yaml', '--set', 'cluster.kubernetesVersion=v1.36.3'];
    try {
      const [plan, run, stopped] = await Promise.all([
        runCli(['plan', ...args], { env: noTools, timeoutMs: 50_000 }),
        runCli(['run', ...args, '--out', join(tools, 'reports')], { env: noTools, timeoutMs: 50_000 }),
        runCli(['plan', ...args], { env: { PATH: tools, ...cache }, timeoutMs: 50_000 }),
      ]);
      const line = (why: string) => `ERROR: Kubernetes v1.36.3: cannot tell whether it is built here: the Docker engine did not answer (docker version --format '{{.Server.Version}}' failed: ${why})\n${hint}`;
      expect(plan.stdout).to.match(/^plan of experiments\/reboot-quick\.yaml: 1 run\(s\); nothing below has been done\n/);
      expect(plan.stderr).to.equal(line('docker: command not found'));
      expect(plan.exitCode).to.equal(3);
      expect(run.stderr).to.equal(line('docker: command not found'));
      expect(run.exitCode).to.equal(3);
      expect(stopped.stderr).to.equal(line(down));
      expect(stopped.exitCode).to.equal(3);
    } finally {
      rmSync(tools, { recursive: true, force: true });
    }
  });

  it('--help: exit 0, usage on stdout', async () => {
    const result = await runCli(['--help']);
    expect(result.exitCode).to.equal(0);
    expect(result.stdout).to.match(/rebootlab run <experiment>/);
  });

  it('validate -o json: one JSON document with every file', async () => {
    const result = await runCli(['validate', '-o', 'json', 'experiments/reboot-quick.yaml', `${FIXTURES}/invalid-count-zero.yaml`]);
    expect(result.exitCode).to.equal(2);
    const parsed = JSON.parse(result.stdout) as { files: { file: string; ok: boolean; issues: { line: number; path: string }[] }[] };
    expect(parsed.files.map((f) => f.ok)).to.deep.equal([true, false]);
    expect(parsed.files[1]!.issues[0]).to.deep.include({ line: 8, column: 10, path: 'fault.count' });
  });
});
