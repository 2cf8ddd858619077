// schema/experiment.schema.json must be what `npm run schema` generates from lib/spec/v1alpha1/types.ts.
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
