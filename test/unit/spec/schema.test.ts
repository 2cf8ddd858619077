// schema/experiment.schema.json, schema/result.schema.json and schema/run-info.schema.json must be what `npm run
// schema`, `npm run schema:result` and `npm run schema:run-info` generate from their TypeScript types.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createGenerator } from 'ts-json-schema-generator';

const SCHEMAS = [
  { file: 'schema/experiment.schema.json', path: 'lib/spec/v1alpha1/types.ts', type: 'Experiment', script: 'npm run schema' },
  { file: 'schema/result.schema.json', path: 'lib/report/result-types.ts', type: 'Result', script: 'npm run schema:result' },
  { file: 'schema/run-info.schema.json', path: 'lib/report/result-types.ts', type: 'RunInfo', script: 'npm run schema:run-info' },
];

for (const { file, path, type, script } of SCHEMAS) {
  describe(file, function () {
    this.timeout(60_000);

    it(`is up to date with ${path} (run ${script})`, () => {
      const schemaId = `https://rebootlab.dev/${file}`;
      const generated = createGenerator({ path, type, schemaId, skipTypeCheck: true }).createSchema(type);
      const checkedIn = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      expect(JSON.parse(JSON.stringify(generated))).to.deep.equal(checkedIn, `${file} is stale: run ${script}`);
    });
  });
}
