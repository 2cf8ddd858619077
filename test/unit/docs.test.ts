// The docs stay honest (issue 26): every YAML experiment and fragment in README.md and docs/ validates with the
// project's own loader, every `rebootlab` command line in them parses with the CLI's real yargs definitions (without
// running), and every relative link resolves, anchors included. The checker tests below plant broken snippets.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkCommandLine, checkLink, commandLines, docFiles, expandSynopsis, headingAnchors, relativeLinks, validateYamlBlock, yamlFences, yamlKind, type Fence,
} from '../helpers/docs.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

/**
 * The YAML blocks the test does not validate, by file and first line, each with why. Keep it short: mark a piece of
 * an experiment `yaml fragment` instead, which is validated on a base experiment.
 */
const SKIPPED_YAML: readonly { file: string; firstLine: string; why: string }[] = [
  { file: 'docs/providers.md', firstLine: 'cluster:', why: "provider existing: names the user's own manifest (deploy/shop.yaml), which validation reads" },
];

const files = docFiles(REPO_ROOT);
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('the docs (README.md and docs/)', function () {
  this.timeout(60_000);

  it('covers the README and the docs pages', () => {
    expect(files).to.include('README.md');
    expect(files.filter((f) => f.startsWith('docs/')).length, 'pages under docs/').to.be.greaterThan(10);
  });

  it('every YAML experiment and fragment validates; only the listed blocks are skipped', () => {
    const problems: string[] = [];
    const skipped: string[] = [];
    let validated = 0;
    for (const file of files) {
      for (const fence of yamlFences(read(file))) {
        const where = `${file}:${fence.line}`;
        const kind = yamlKind(fence);
        if (kind === 'skip') skipped.push(`${file}: ${fence.body.split('\n')[0]}`);
        else if (kind === 'unmarked') problems.push(`${where}: a yaml block that is no experiment (no apiVersion: rebootlab.dev/v1alpha1); mark it \`yaml fragment\` or, with a reason in SKIPPED_YAML, \`yaml skip\``);
        else {
          validated++;
          for (const issue of validateYamlBlock(REPO_ROOT, { file, line: fence.line }, fence)) problems.push(`${where} (${kind}): ${issue}`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
    expect(skipped).to.deep.equal(SKIPPED_YAML.map((s) => `${s.file}: ${s.firstLine}`));
    expect(validated, 'YAML blocks validated').to.be.greaterThan(5);
  });

  it('every rebootlab command line parses with the real command definitions', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const command of commandLines(file, read(file))) {
        checked++;
        const problem = await checkCommandLine(command.text);
        if (problem) problems.push(`${command.file}:${command.line}: ${command.text}: ${problem}`);
      }
    }
    expect(problems).to.deep.equal([]);
    expect(checked, 'command lines checked').to.be.greaterThan(20);
  });

  it('every relative link resolves to a file or folder of the repository, and its anchor to a heading', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const link of relativeLinks(file, read(file))) {
        checked++;
        const problem = checkLink(REPO_ROOT, link);
        if (problem) problems.push(`${link.file}:${link.line}: ${problem}`);
      }
    }
    expect(problems).to.deep.equal([]);
    expect(checked, 'links checked').to.be.greaterThan(50);
  });

  describe('the checker fails on', () => {
    const fence = (info: string, body: string): Fence => ({ info: info.split(' '), body, line: 1 });
    const place = { file: 'docs/planted.md', line: 1 };
    const experiment = (body: string) => `apiVersion: rebootlab.dev/v1alpha1\nkind: Experiment\nmetadata: { name: planted }\n${body}`;

    it('an experiment with a bare-number duration, an unknown field, an expectation naming a missing workload', () => {
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml', experiment('fault: { type: power-off, duration: 30 }')))).to.deep.equal([
        'fault.duration: 30 has no unit; add a unit, e.g. "30s"',
      ]);
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml', experiment('fault: { type: reboot }\nobserv: {}'))).join('\n')).to.match(/observ/);
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml', experiment('fault: { type: reboot }\nexpect: ["pods[workload=ghost].outcome == unaffected"]'))).join('\n')).to.match(/ghost/);
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml', experiment('fault: { type: reboot }')))).to.deep.equal([]);
    });

    it('a fragment that breaks the base experiment, and a yaml block marked neither way', () => {
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml fragment', 'probes:\n  - { name: p, service: nowhere }')).join('\n')).to.match(/nowhere/);
      expect(validateYamlBlock(REPO_ROOT, place, fence('yaml fragment', 'steps:\n  - { after: 10s, action: restore }'))).to.deep.equal([]);
      expect(yamlKind(fence('yaml', 'cluster: { workers: 2 }'))).to.equal('unmarked');
      expect(yamlKind(fence('yaml skip', 'apiVersion: rebootlab.dev/v1alpha1'))).to.equal('skip');
    });

    it('a command line with an unknown command, an unknown flag, a bad choice or a missing argument', async () => {
      expect(await checkCommandLine('rebootlab runn x.yaml')).to.match(/unknown command "runn"/);
      expect(await checkCommandLine('npx rebootlab run x.yaml --keep')).to.equal('unknown flag --keep; see rebootlab --help');
      expect(await checkCommandLine('rebootlab compare a b --format md')).to.match(/format/);
      expect(await checkCommandLine('rebootlab run --out reports')).to.equal('rebootlab run: missing the experiment file; usage: rebootlab run <file.yaml>');
      expect(await checkCommandLine('rebootlab bogus')).to.match(/"bogus"/);
      expect(await checkCommandLine('rebootlab run x.yaml --set a=1 --reconfigure recreate')).to.equal(null);
      expect(await checkCommandLine('rebootlab report')).to.equal(null);
    });

    it('a synopsis naming a flag the command lacks (synopses are expanded, every optional part included)', async () => {
      expect(expandSynopsis('rebootlab run <file.yaml\\|script.ts> [--out reports] [--set path=value]... [--reconfigure in-place\\|recreate]'))
        .to.equal('rebootlab run file.yaml --out reports --set path=value --reconfigure in-place');
      expect(expandSynopsis('rebootlab doctor --restore --reports <run dir>')).to.equal('rebootlab doctor --restore --reports run-dir');
      expect(expandSynopsis('rebootlab validate <files..>')).to.equal('rebootlab validate files');
      expect(await checkCommandLine('rebootlab compare <dirs..> [--format text\\|markdown] [--tolerance-minutes 5]')).to.match(/unknown flag --tolerance-minutes/);
    });

    it('finds command lines in shell blocks, after prompts and in inline code, but not in output', () => {
      const markdown = [
        '```sh', 'npm ci && npx rebootlab validate a.yaml   # check', '```',
        '```console', '$ rebootlab predict b.yaml', 'rebootlab run c.yaml (output, not a command)', '```',
        'Run `rebootlab plan d.yaml`, in namespace `rebootlab`.',
      ].join('\n');
      expect(commandLines('x.md', markdown).map((c) => `${c.line} ${c.text}`)).to.deep.equal([
        '2 npx rebootlab validate a.yaml', '5 rebootlab predict b.yaml', '8 rebootlab plan d.yaml',
      ]);
    });

    it('a link to a missing file or a missing anchor; GitHub anchors as GitHub makes them', () => {
      const links = relativeLinks('docs/x.md', '[a](faults.md) [b](../lib/nowhere.ts) [c](faults.md#no-such-heading) [d](https://example.com) [e](faults.md#targets)');
      expect(links.map((l) => checkLink(REPO_ROOT, l))).to.deep.equal([
        null,
        '../lib/nowhere.ts: no such file or folder in the repository (lib/nowhere.ts)',
        'faults.md#no-such-heading: docs/faults.md has no heading with anchor #no-such-heading',
        null,
      ]);
      expect([...headingAnchors('# A `code` (x) — y\n## Same\n## Same\n<a id="z"></a>')]).to.deep.equal(['a-code-x--y', 'same', 'same-1', 'z']);
    });
  });
});
