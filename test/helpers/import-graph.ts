// The import graph of lib/ and the rules it must keep (Playwright's DEPS.list + check_deps, as a unit test):
// data flows one way, spec → cluster → workloads → faults → observe → analyze → report → run → script → cli, with
// common under all; no import circle; sibling providers share code through lib/cluster, never import each other.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * What each folder of lib/ may import besides itself: a folder name (any file in it) or one file
 * (`observe/types.ts`). The order is the flow; `common` is under all; the rest is STYLE.md §2 as the tree keeps it:
 * observe knows nothing of faults or the cluster (it gets a kubeconfig), analyze is pure (journal records and the
 * resolved spec in, results out), reports read what analysis returns.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  common: [],
  spec: ['common'],
  cluster: ['spec', 'common'],
  workloads: ['cluster', 'spec', 'common'],
  // STYLE.md §2: faults may record fault markers with the journal's record types.
  faults: ['workloads', 'cluster', 'spec', 'common', 'observe/types.ts'],
  observe: ['common'],
  analyze: ['observe', 'spec', 'common'],
  report: ['analyze', 'observe', 'spec', 'common'],
  run: ['report', 'analyze', 'observe', 'faults', 'workloads', 'cluster', 'spec', 'common'],
  script: ['run', 'report', 'analyze', 'observe', 'faults', 'workloads', 'cluster', 'spec', 'common'],
  cli: ['script', 'run', 'report', 'analyze', 'observe', 'faults', 'workloads', 'cluster', 'spec', 'common'],
  // lib/index.ts, the public API: re-exports only.
  'index.ts': ['cli', 'script', 'run', 'report', 'analyze', 'observe', 'faults', 'workloads', 'cluster', 'spec', 'common'],
};

/** Folders whose code is pure: no package and no Node built-in (no file system, no network, no process). */
export const PURE_FOLDERS: readonly string[] = ['analyze'];

/** The one file that may import execa (STYLE.md §2: every process goes through it). */
export const EXECA_IMPORTER = 'common/exec.ts';

/** One import of a lib/ file: what it names (as written), whether only types, and where it resolves (lib-relative, posix). */
export interface ImportEdge {
  specifier: string;
  typeOnly: boolean;
  /** An `import()` call: loaded when the code runs, not with the importing module. */
  dynamic: boolean;
  /** lib-relative path of the imported file (`observe/types.ts`), `../versions.json` outside lib/, null for a package. */
  target: string | null;
}

/** The imports of one source file: static, `export … from`, dynamic `import()` and `import('x').T` type queries. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic = false) => edges.push({ specifier, typeOnly, dynamic, target: resolveSpecifier(file, specifier) });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypeOnly = bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly) && clause?.name === undefined;
      add(node.moduleSpecifier.text, clause !== undefined && (clause.isTypeOnly || allNamedTypeOnly));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allNamedTypeOnly = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, node.isTypeOnly || allNamedTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** `specifier` as imported from lib-relative `file`: a lib-relative posix path (`.js` → `.ts`), or null for a package. */
function resolveSpecifier(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
}

/** The top folder of a lib-relative path (`analyze` for `analyze/measurements/pods.ts`), or the file for lib/index.ts. */
export function folderOf(path: string): string {
  return path.split('/')[0]!;
}

/** The provider folder of a lib-relative path (`cluster/kind` for `cluster/kind/actions.ts`), or null. */
function providerOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'cluster' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : null;
}

/** A types-only file (`types.ts`, `*-types.ts`): it may import types only, so it never pulls code in. */
function isTypesFile(path: string): boolean {
  return /(^|\/|-)types\.ts$/.test(path);
}

/**
 * Every broken rule of the graph of `files` (lib-relative posix path → its imports), one line each, sorted:
 * an import against the flow, a relative import leaving lib/ (other than a JSON data file), a sibling provider
 * imported, a value imported by a types file, a package or built-in in a pure folder, execa outside
 * common/exec.ts, an import of a file that does not exist, and every import circle (a strongly connected
 * component of the file graph, types included: a circle of types is still a tangle to read).
 */
export function checkImportGraph(files: ReadonlyMap<string, readonly ImportEdge[]>): string[] {
  const problems: string[] = [];
  for (const [file, edges] of files) {
    const from = folderOf(file);
    const allowed = MAY_IMPORT[from];
    if (allowed === undefined) problems.push(`${file}: folder ${from} is not in the graph's table (test/helpers/import-graph.ts MAY_IMPORT)`);
    for (const edge of edges) {
      const at = `${file}: imports ${edge.specifier}`;
      if (edge.target === null) {
        if (PURE_FOLDERS.includes(from)) problems.push(`${at}: ${from} is pure (no package, no Node built-in)`);
        if (edge.specifier === 'execa' && file !== EXECA_IMPORTER) problems.push(`${at}: only ${EXECA_IMPORTER} runs processes`);
        continue;
      }
      if (edge.target.startsWith('../')) {
        if (!edge.target.endsWith('.json')) problems.push(`${at}: outside lib/`);
        continue;
      }
      if (!files.has(edge.target)) {
        problems.push(`${at}: no such file lib/${edge.target}`);
        continue;
      }
      const to = folderOf(edge.target);
      if (to !== from && allowed !== undefined && !allowed.includes(to) && !allowed.includes(edge.target)) {
        problems.push(`${at}: ${from} may not import ${to} (it may import ${allowed.join(', ') || 'nothing from lib/'})`);
      }
      const [ownProvider, theirProvider] = [providerOf(file), providerOf(edge.target)];
      if (ownProvider !== null && theirProvider !== null && ownProvider !== theirProvider) {
        problems.push(`${at}: sibling providers share code through lib/cluster/, never ${ownProvider} → ${theirProvider}`);
      }
      if (isTypesFile(file) && !edge.typeOnly) problems.push(`${at}: a types file imports types only (import type)`);
    }
  }
  for (const circle of circlesOf(files)) problems.push(`import circle: ${circle.join(' → ')} → ${circle[0]}`);
  return problems.sort();
}

/** Every strongly connected component of more than one file (or a file importing itself), each as one cycle through it. */
export function circlesOf(files: ReadonlyMap<string, readonly ImportEdge[]>): string[][] {
  const targets = (file: string) => [...new Set((files.get(file) ?? []).map((e) => e.target).filter((t): t is string => t !== null && files.has(t)))];
  // Tarjan's algorithm, iterative over the sorted files so the output is stable.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strongConnect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of targets(v)) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || targets(v).includes(v)) components.push(component);
    }
  };
  for (const file of [...files.keys()].sort()) if (!index.has(file)) strongConnect(file);
  return components.map((component) => cycleThrough(component.sort()[0]!, new Set(component), targets));
}

/** One cycle from `start` back to itself inside `component` (breadth-first, so the shortest). */
function cycleThrough(start: string, component: ReadonlySet<string>, targets: (file: string) => string[]): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of targets(v).sort()) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component];
}

/** The import graph of the TypeScript files under `libDir` (lib-relative posix paths). */
export function readImportGraph(libDir: string): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const file = relative(libDir, path).split(sep).join('/');
        graph.set(file, importsOf(file, readFileSync(path, 'utf8')));
      }
    }
  };
  walk(libDir);
  return new Map([...graph].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The packages module `start` (lib-relative) loads with it: its static value imports, followed through lib/
 * (type-only imports and `import()` calls are not followed). Sorted.
 */
export function packagesLoadedWith(graph: ReadonlyMap<string, readonly ImportEdge[]>, start: string): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const edge of graph.get(queue.shift() as string) ?? []) {
      if (edge.typeOnly || edge.dynamic) continue;
      if (edge.target === null) packages.add(edge.specifier);
      else if (!seen.has(edge.target) && graph.has(edge.target)) {
        seen.add(edge.target);
        queue.push(edge.target);
      }
    }
  }
  return [...packages].sort();
}
