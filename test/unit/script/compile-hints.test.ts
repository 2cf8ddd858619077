// A script outside any project is told what to set up (issue 27 item 8): the compiler fails fast there (no rebootlab
// sources to check), so this runs in the unit tier; compiling from another directory is in test/integration/script.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../../lib/common/errors.js';
import { compileScript } from '../../../lib/script/index.js';

describe('scripted experiments: setup hints', function () {
  this.timeout(60_000);

  it('a script outside any project says what to set up: install rebootlab, "type": "module"', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'rebootlab-outside-'));
    try {
      const script = join(dir, 'x.ts');
      writeFileSync(script, "import { experiment } from 'rebootlab';\nawait experiment({ name: 'x' }, async () => {});\n");
      const error = await compileScript(script).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(InputError);
      const hint = `'rebootlab' cannot be found from ${dir}: install it in the script's project (npm install rebootlab) or put the script in one that has it; the script has no package.json, so it is compiled as CommonJS: create one with {"type": "module"} next to it (or name the script .mts)`;
      expect((error as InputError).hint).to.equal(hint);
      expect((error as InputError).issues[0]!.message).to.equal(hint);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
