// Hostile input found in the 5 Dec round b, through the real CLI (a subprocess): the user's shell text of
// fault.backend.command (bidi and control characters, Trojan Source), YAML keys and tags no check reads as written,
// `--set` paths with empty parts or list indexes past the end, and a pending-restore.json whose user command undo
// holds what validation refuses. Each is one line naming the file and field or flag, exit 2, never a warning of Node's.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/run-cli.js';

const HEAD = 'apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: {name: x}\n';
const EXISTING = `${HEAD}cluster: {provider: existing, kubeconfig: /nonexistent/kubeconfig, context: lab}\n`;
const QUICK = 'experiments/reboot-quick.yaml';

/** stderr as lines, without the empty last one. */
const lines = (r: CliResult): string[] => r.stderr.split('\n').filter((l) => l !== '');

/** Asserts exit 2 with exactly `expected` on stderr, nothing about a bug, no stack, no Node warning. */
function badInput(result: CliResult, ...expected: string[]): void {
  expect(result.stderr).to.not.match(/bug in rebootlab|unexpected error|\n\s+at |Warning:/);
  expect(lines(result), result.stderr).to.deep.equal(expected);
  expect(result.exitCode, result.stderr).to.equal(2);
}

describe('cli: hostile shell text, YAML keys and tags, --set paths (5 Dec round b)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-hostile-b-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const powerOff = (off: string, on: string): string =>
    `${EXISTING}fault:\n  type: power-off\n  duration: 30s\n  backend:\n    command:\n      off: ${JSON.stringify(off)}\n      on: ${JSON.stringify(on)}\n`;

  describe('fault.backend.command: the user\'s own shell text', () => {
    it('a bidi override or isolate (Trojan Source) and a NUL are refused, one line per field naming the character', async () => {
      const f = file('bidi.yaml', powerOff('virsh destroy {node} #\u202e } \u2066// ok\u2069', 'virsh start {node}\u0000; reboot'));
      badInput(await runCli(['validate', f]),
        `ERROR: ${f}:10:12: fault.backend.command.off: holds U+202E, a bidirectional formatting character, at character 23 (the text a reviewer reads would differ from what runs); remove it (line breaks and tabs are fine)`,
        `ERROR: ${f}:11:11: fault.backend.command.on: holds U+0000, a control character, at character 19 (it hides text on a terminal and cannot be passed to a command); remove it (line breaks and tabs are fine)`);
    });

    it('each bidi formatting character and an escape are refused, in one validate of every file; plan refuses too', async () => {
      const characters = ['\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u001b', '\u2028'];
      const files = characters.map((c, i) => file(`c${i}.yaml`, powerOff(`virsh destroy ${c}{node}`, 'virsh start {node}')));
      const result = await runCli(['validate', ...files]);
      expect(result.exitCode).to.equal(2);
      expect(lines(result)).to.deep.equal(characters.map((c, i) =>
        `ERROR: ${files[i]}:10:12: fault.backend.command.off: holds U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, a ${c === '\u001b' || c === '\u2028' ? 'control' : 'bidirectional formatting'} character, at character 15 (${c === '\u001b' || c === '\u2028' ? 'it hides text on a terminal' : 'the text a reviewer reads would differ from what runs'}); remove it (line breaks and tabs are fine)`));
      const plan = await runCli(['plan', files[3]!]);
      expect(plan.exitCode).to.equal(2);
      expect(lines(plan)).to.have.length(1);
      expect(plan.stdout).to.equal('');
    });

    it('line breaks and tabs are a script\'s own: accepted, and plan shows the script on one line as it runs', async () => {
      const f = file('ml.yaml', powerOff("virsh destroy {node}\n\techo \"it's off\"\n", "virsh start {node} # it's on"));
      expect(await runCli(['validate', f])).to.deep.include({ exitCode: 0, stdout: `ok ${f}\n`, stderr: '' });
      const plan = await runCli(['plan', f]);
      expect(plan.exitCode, plan.stderr).to.equal(0);
      // Before: `sh -c 'virsh destroy {node}` with the rest on the next lines, and `sh -c 'virsh start {node} # it's on'`
      // whose quotes did not match what runs.
      expect(plan.stdout).to.contain(`\n    sh -c $'virsh destroy {node}\\n\\techo "it\\'s off"\\n'\n        undo: sh -c 'virsh start {node} # it'\\''s on'\n`);
    });
  });

  describe('YAML that no check reads as written', () => {
    it('a list as a key is placed at the key, without Node\'s "Keys with collection values" warning', async () => {
      const f = file('k.yaml', `${HEAD}fault: {type: reboot}\n? [a, b]\n: 1\n`);
      badInput(await runCli(['validate', f]), `ERROR: ${f}:5:3: invalid YAML: a key must be a name, not a list`);
    });

    it('a matrix tagged !!omap is refused, not dropped (it ran 1 variant instead of 2)', async () => {
      const f = file('omap.yaml', `${HEAD}fault: {type: power-off, duration: 30s}\nmatrix: !!omap [{fault.duration: [10s, 20s]}]\n`);
      badInput(await runCli(['plan', f]),
        `ERROR: ${f}:5:16: invalid YAML: tag !!omap is not read here: an experiment holds plain strings, numbers, booleans, lists and mappings; remove the tag`);
    });

    it('!!binary, !!timestamp, !!set and an unknown tag are named as tags, not "expected a string, got a mapping"', async () => {
      const f = file('t.yaml', `${HEAD}fault: {type: power-off, duration: !!timestamp 2001-12-14, target: !!binary aGVsbG8=}\nworkloads: !!set {a}\nrepeat: !rebootlab 2\n`);
      const result = await runCli(['validate', f]);
      expect(result.exitCode).to.equal(2);
      expect(lines(result).map((l) => /tag (\S+) is not read here/.exec(l)?.[1])).to.deep.equal(['!!timestamp', '!!binary', '!!set', '!rebootlab']);
    });

    it('the plain tags are still read: !!str 5 is the string "5"', async () => {
      const f = file('s.yaml', `${HEAD}fault: {type: power-off, duration: !!str 30s}\nrepeat: !!int 2\n`);
      expect(await runCli(['validate', f])).to.deep.include({ exitCode: 0, stderr: '' });
    });
  });

  describe('--set paths', () => {
    it('an empty part is refused, naming the flag (fault..type=x was applied as fault.type)', async () => {
      for (const set of ['fault..type=freeze', 'fault.=x', '.fault.type=freeze']) {
        badInput(await runCli(['validate', QUICK, '--set', set]),
          `ERROR: ${QUICK} (--set ${set}): the path has an empty part (two dots in a row, or a dot at its start or end); write it as in the file, e.g. --set workloads[0].replicas=3`);
      }
    });

    it('an index past the end of a list is one line naming the flag, not one per empty item', async () => {
      badInput(await runCli(['validate', QUICK, '--set', 'workloads[99].replicas=3']),
        `ERROR: ${QUICK}:12:3 (--set workloads[99].replicas=3): workloads[99]: no such item: workloads has 4 (workloads[0] to workloads[3]); use one of them, or workloads[4] to add one`);
      badInput(await runCli(['validate', QUICK, '--set', 'steps[2].action=cordon']),
        `ERROR: ${QUICK}:4:1 (--set steps[2].action=cordon): steps[2]: no such item: steps has none; use steps[0] to add the first`);
    });

    it('a list index in another spelling (1e2, 0x1, " 1") is refused on one line, not read as a number (98 empty items, none naming the flag)', async () => {
      for (const [set, key] of [['workloads.1e2.replicas=3', '1e2'], ['workloads.0x1.replicas=3', '0x1'], ['workloads. 1.replicas=3', ' 1']] as const) {
        badInput(await runCli(['validate', QUICK, '--set', set]),
          `ERROR: ${QUICK}:12:3 (--set ${set}): workloads.${key}: workloads is a list: its items are numbered in decimal digits (workloads[0], workloads.0), not "${key}"`);
      }
    });

    it('an item added at the end names the flag in its issues, not the line of the list', async () => {
      const result = await runCli(['validate', QUICK, '--set', 'workloads[4].replicas=3']);
      expect(result.exitCode).to.equal(2);
      expect(lines(result)).to.have.length.greaterThan(0);
      for (const line of lines(result)) expect(line).to.match(new RegExp(`^ERROR: ${QUICK} \\(--set workloads\\[4\\]\\.replicas=3\\): workloads\\[4\\]`));
      expect(await runCli(['validate', QUICK, '--set', 'workloads[4]={name: extra, kind: Deployment}'])).to.deep.include({ exitCode: 0, stderr: '' });
    });
  });

  it('validate names the experiment file once in a manifest\'s error (it was "file: file: workloads[0].manifest: …")', async () => {
    badInput(await runCli(['validate', QUICK, '--set', 'workloads[0]={name: m, manifest: /dev/zero}']),
      `ERROR: ${QUICK}: workloads[0].manifest: cannot read /dev/zero: not a regular file`);
  });

  describe('doctor --restore: a user command undo holding what validation refuses', () => {
    for (const [name, context, template] of [
      ['a bidi override in the template', 'lab', 'virsh start {node} #\u202e'],
      ['a NUL in the template', 'lab', 'virsh start {node}\u0000'],
      ['an escape in the context', 'lab\u001b[2J', 'virsh start {node}'],
    ] as const) {
      it(`${name}: exit 2 before any tool, the file kept`, async () => {
        const runDir = join(dir, 'reports', 'r');
        mkdirSync(runDir, { recursive: true });
        const pending = join(runDir, 'pending-restore.json');
        const content = JSON.stringify({ pid: 999999, writtenAtMs: 1, entries: [{ label: 'p', nodes: ['vm-1'], commands: [['rebootlab-user-undo', context, template, 'vm-1', '', '', '10.0.0.7']] }] });
        writeFileSync(pending, content);
        const result = await runCli(['doctor', '--restore', '--reports', join(dir, 'reports')], { env: { PATH: join(dir, 'no-tools'), REBOOTLAB_CACHE: join(dir, 'cache') } });
        expect(lines(result), result.stderr).to.have.length(1);
        expect(lines(result)[0]).to.match(new RegExp(`^ERROR: ${pending}: not one of rebootlab's undo commands: rebootlab-user-undo .*; nothing run; restore its faults by hand, then delete it$`));
        expect(result.stderr).to.not.match(/[\u0000\u001b\u202e]/);
        expect(result.stdout).to.equal('');
        expect(result.exitCode).to.equal(2);
        expect(readFileSync(pending, 'utf8')).to.equal(content);
      });
    }
  });
});
