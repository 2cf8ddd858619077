// Scripts are typed end to end: compiling a fixture with a misspelled fault type, a misspelled node action and
// durations without a unit fails with one compiler error per bad line; a shipped script compiles cleanly.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../../lib/common/errors.js';
import { compileScript } from '../../../lib/script/index.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/scripts/type-errors.ts');

describe('scripted experiments: type checking', function () {
  this.timeout(120_000); // the TypeScript compiler needs about 15 s per program on 2 cores

  it('rejects a misspelled fault type, a misspelled node action and unit-less durations, one error per BAD line', async function () {
    const badLines = readFileSync(FIXTURE, 'utf8').split('\n').flatMap((line, i) => (line.includes('// BAD') ? [i + 1] : []));
    expect(badLines).to.deep.equal([4, 6, 7, 8, 9]);
    const error = await compileScript(FIXTURE).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(InputError);
    const issues = (error as InputError).issues;
    expect(issues.map((i) => i.line)).to.deep.equal(badLines);
    expect(issues[0].message).to.match(/TS2322: Type '"20"' is not assignable to type 'Duration/);
    // FaultType and NodeAction are derived from the catalogues (lib/spec/faults.ts, steps.ts): the compiler spells out
    // the accepted names, which tells the author what to write instead.
    expect(issues[1].message).to.match(/'"rebot"' is not assignable to parameter of type '"reboot" \| "power-off" \|/);
    expect(issues[2].message).to.match(/Type 'number' is not assignable to type 'Duration/);
    expect(issues[3].message).to.match(/'"90"' is not assignable to parameter of type 'Duration'/);
    // TypeScript prints a long union by type id and elides its middle ("... 7 more ..."): the names it shows first are
    // the catalogues' own (the fault primitive shutdown, then the step actions).
    expect(issues[4].message).to.match(/'"pause-node"' is not assignable to parameter of type '"shutdown" \| "delete-node-object" \| .*"drain" \|/);
  });

  it('compiles a shipped script (experiments/rolling-reboot.ts) into dist/experiments', async function () {
    const { jsFile } = await compileScript(join(REPO_ROOT, 'experiments/rolling-reboot.ts'));
    expect(jsFile).to.equal(join(REPO_ROOT, 'dist/experiments/rolling-reboot.js'));
    expect(readFileSync(jsFile, 'utf8')).to.contain("from 'rebootlab'");
  });

  it('compiles a shipped script from another working directory (@types looked up from the script, issue 27 item 8)', async function () {
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      const { jsFile } = await compileScript(join(REPO_ROOT, 'experiments/rolling-reboot.ts'));
      expect(jsFile).to.equal(join(REPO_ROOT, 'dist/experiments/rolling-reboot.js'));
    } finally {
      process.chdir(cwd);
    }
  });
});
