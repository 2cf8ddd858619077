// The import graph of lib/ keeps the flow (spec → cluster → workloads → faults → observe → analyze → report → run →
// script → cli, common under all), has no circle, and its providers do not import each other. The rules and their
// checker are in test/helpers/import-graph.ts; the planted cases below prove the checker fails on each.
import { expect } from 'chai';
import { checkImportGraph, importsOf, packagesLoadedWith, readImportGraph, type ImportEdge } from '../helpers/import-graph.js';

/** A graph from inline sources (lib-relative path → TypeScript text). */
function graphOf(sources: Record<string, string>): Map<string, ImportEdge[]> {
  return new Map(Object.entries(sources).map(([file, text]) => [file, importsOf(file, text)]));
}

describe('the import graph of lib/', () => {
  it('keeps every rule (test/helpers/import-graph.ts)', function () {
    this.timeout(20_000);
    const graph = readImportGraph('lib');
    expect(graph.size, 'TypeScript files found under lib/').to.be.greaterThan(100);
    expect(checkImportGraph(graph)).to.deep.equal([]);
  });

  it('the CLI loads @kubernetes/client-node only for a command that reaches a cluster (it takes 1.4 s to load: predict, validate and --help stay under 1 s)', function () {
    this.timeout(20_000);
    const graph = readImportGraph('lib');
    const loaded = packagesLoadedWith(graph, 'cli/main.ts');
    expect(loaded).to.include('yargs');
    expect(loaded).to.not.include('@kubernetes/client-node');
    // The walk does find it where it is loaded with a module.
    expect(packagesLoadedWith(graph, 'run/consent.ts')).to.include('@kubernetes/client-node');
  });

  describe('the checker fails on', () => {
    const base = {
      'common/errors.ts': 'export class InputError extends Error {}',
      'faults/inject.ts': "import { InputError } from '../common/errors.js';\nexport const x = 1;",
      'observe/types.ts': 'export interface Observation { seq: number }',
    };

    it('an import running against the flow (observe knows nothing of faults), static or dynamic', () => {
      const graph = graphOf({ ...base, 'observe/journal.ts': "import { x } from '../faults/inject.js';\nconst later = () => import('../faults/inject.js');" });
      expect(checkImportGraph(graph)).to.deep.equal([
        'observe/journal.ts: imports ../faults/inject.js: observe may not import faults (it may import common)',
        'observe/journal.ts: imports ../faults/inject.js: observe may not import faults (it may import common)',
      ]);
    });

    it('an import circle inside a folder, type-only imports included', () => {
      const graph = graphOf({
        ...base,
        'analyze/types.ts': "import type { Summary } from './probe-timeline.js';\nexport interface Analysis { s: Summary }",
        'analyze/probe-timeline.ts': "import type { Analysis } from './types.js';\nexport interface Summary { a?: Analysis }",
      });
      expect(checkImportGraph(graph)).to.deep.equal(['import circle: analyze/probe-timeline.ts → analyze/types.ts → analyze/probe-timeline.ts']);
    });

    it('a provider importing a sibling provider', () => {
      const graph = graphOf({
        ...base,
        'cluster/kind/effective-settings.ts': 'export const read = 1;',
        'cluster/kwok/cluster.ts': "import { read } from '../kind/effective-settings.js';",
      });
      expect(checkImportGraph(graph)).to.deep.equal([
        'cluster/kwok/cluster.ts: imports ../kind/effective-settings.js: sibling providers share code through lib/cluster/, never cluster/kwok → cluster/kind',
      ]);
    });

    it('a value imported by a types file, a package in a pure folder, execa outside common/exec.ts, a missing file', () => {
      const graph = graphOf({
        ...base,
        'analyze/types.ts': "import { InputError } from '../common/errors.js';\nimport { readFileSync } from 'node:fs';",
        'run/docker.ts': "import { execa } from 'execa';\nimport { gone } from './gone.js';",
      });
      expect(checkImportGraph(graph)).to.deep.equal([
        'analyze/types.ts: imports ../common/errors.js: a types file imports types only (import type)',
        'analyze/types.ts: imports node:fs: analyze is pure (no package, no Node built-in)',
        'run/docker.ts: imports ./gone.js: no such file lib/run/gone.ts',
        'run/docker.ts: imports execa: only common/exec.ts runs processes',
      ]);
    });

    it('but allows what the table allows: a type file of a folder to its right named as a file, and JSON data outside lib/', () => {
      const graph = graphOf({
        ...base,
        'faults/markers.ts': "import type { Observation } from '../observe/types.js';\nimport pinned from '../../versions.json' with { type: 'json' };",
      });
      expect(checkImportGraph(graph)).to.deep.equal([]);
    });
  });
});
