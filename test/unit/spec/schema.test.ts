// schema/experiment.schema.json and schema/result.schema.json must be what `npm run schema` and `npm run schema:result` generate.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createGenerator } from 'ts-json-schema-generator';

describe('schema/experiment.schema.json', function () {
  this.timeout(60_000);

  it('is up to date with lib/spec/v1alpha1/types.ts (run npm run schema)', () => {
    const generated = createGenerator({
      path: 'lib/spec/v1alpha1/types.ts',
      type: 'Experiment',
      schemaId: 'https://rebootlab.dev/schema/experiment.schema.json',
      skipTypeCheck: true,
    }).createSchema('Experiment');
    const checkedIn = JSON.parse(readFileSync('schema/experiment.schema.json', 'utf8')) as unknown;
    expect(JSON.parse(JSON.stringify(generated))).to.deep.equal(checkedIn, 'schema/experiment.schema.json is stale: run npm run schema');
  });
});

describe('schema/result.schema.json', function () {
  this.timeout(60_000);

  it('is up to date with lib/report/result-types.ts (run npm run schema:result)', () => {
    const generated = createGenerator({
      path: 'lib/report/result-types.ts',
      type: 'Result',
      schemaId: 'https://rebootlab.dev/schema/result.schema.json',
      skipTypeCheck: true,
    }).createSchema('Result');
    const checkedIn = JSON.parse(readFileSync('schema/result.schema.json', 'utf8')) as unknown;
    expect(JSON.parse(JSON.stringify(generated))).to.deep.equal(checkedIn, 'schema/result.schema.json is stale: run npm run schema:result');
  });
});
