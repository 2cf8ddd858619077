// Table-driven over test/fixtures/experiments: every valid-*.yaml loads, every invalid-*.yaml fails
// with the exact first issue line written in its first-line comment (kind's testdata pattern).
import { readFileSync, readdirSync } from 'node:fs';
import { expect } from 'chai';
import { InputError, formatInputIssue } from '../../../lib/common/errors.js';
import { loadExperiment } from '../../../lib/spec/load.js';

const DIR = 'test/fixtures/experiments';
const files = readdirSync(DIR).sort();

describe('spec/load: fixtures', () => {
  it('has at least 12 invalid and 3 valid fixtures', () => {
    expect(files.filter((f) => f.startsWith('invalid-')).length).to.be.at.least(12);
    expect(files.filter((f) => f.startsWith('valid-')).length).to.be.at.least(3);
  });

  for (const name of files.filter((f) => f.startsWith('valid-'))) {
    it(`loads ${name}`, async () => {
      const loaded = await loadExperiment(`${DIR}/${name}`);
      expect(loaded.variants.length).to.be.at.least(1);
    });
  }

  for (const name of files.filter((f) => f.startsWith('invalid-'))) {
    it(`rejects ${name} with the line in its first comment`, async () => {
      const file = `${DIR}/${name}`;
      const expected = /^# (.*)$/m.exec(readFileSync(file, 'utf8'))?.[1];
      expect(expected, 'first line must be "# <expected error line>"').to.be.a('string');
      const error = await loadExperiment(file).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(InputError);
      const inputError = error as InputError;
      expect(inputError.exitCode).to.equal(2);
      expect(formatInputIssue(inputError.issues[0]!)).to.equal(expected);
      expect(inputError.message).to.equal(expected);
    });
  }
});
