// Compiles a TypeScript experiment script with the project's own TypeScript compiler (type-checked, no
// loader hooks): `rebootlab run x.ts` type-checks first, so a misspelled fault type or a duration without a
// unit stops the run with the compiler's message before any cluster exists. Why tsc and not a loader such as
// tsx: tsx strips types without checking them, and the typed API is the point; the compiled file is plain
// JavaScript that Node runs directly (`node dist/experiments/x.js`), with no second module copy of rebootlab.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../common/errors.js';

/** Where a script's compiled JavaScript goes, and why. */
export interface CompiledScript {
  /** The JavaScript file to import. */
  jsFile: string;
}

/**
 * The package directory holding `file` (nearest package.json upward), and whether it is rebootlab itself.
 */
function packageOf(file: string): { root: string; isRebootlab: boolean } | null {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      let name: string | undefined;
      try {
        name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string } | null)?.name;
      } catch {
        name = undefined; // an unreadable package.json is not rebootlab's; TypeScript reports what it needs from it
      }
      return { root: dir, isRebootlab: name === 'rebootlab' };
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Type-checks and compiles `scriptFile` (and the local modules it imports) with TypeScript's NodeNext settings.
 * Inside the rebootlab repository the output goes where `npm run build` puts it (`dist/<path>.js`, so
 * `import ... from 'rebootlab'` resolves through the package's own `exports`); elsewhere next to the script in
 * `.rebootlab/` (rebootlab then comes from node_modules).
 * @throws InputError listing every compiler error as `file:line:col: message` (exit 2).
 */
export async function compileScript(scriptFile: string): Promise<CompiledScript> {
  const ts = (await import('typescript')).default;
  const file = resolve(scriptFile);
  if (!existsSync(file)) throw new InputError(`${scriptFile}: cannot read: no such file`);
  const pkg = packageOf(file);
  const rootDir = pkg?.isRebootlab ? pkg.root : dirname(file);
  const outDir = pkg?.isRebootlab ? join(pkg.root, 'dist') : join(dirname(file), '.rebootlab');
  const options: import('typescript').CompilerOptions = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, skipLibCheck: true, esModuleInterop: true, sourceMap: true, rootDir, outDir, noEmitOnError: true,
    // Without a tsconfig, TypeScript looks for @types from the working directory: run from elsewhere, the script
    // (and rebootlab's sources inside the repository) lost @types/node. Look from the script's own place instead.
    typeRoots: typeRootsOf(file),
  };
  const program = ts.createProgram([file], options);
  // Only the script's own sources are emitted; rebootlab arrives as declaration files.
  const preEmit = ts.getPreEmitDiagnostics(program);
  const emitted = preEmit.length === 0 ? program.emit() : null;
  const diagnostics = [...preEmit, ...(emitted?.diagnostics ?? [])];
  if (diagnostics.length > 0 || !emitted || emitted.emitSkipped) {
    const issues = diagnostics.map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      if (!d.file || d.start === undefined) return { file: scriptFile, path: '', message };
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return { file: relative(process.cwd(), d.file.fileName), line: line + 1, column: character + 1, path: '', message: `TS${d.code}: ${message}` };
    });
    if (issues.length === 0) issues.push({ file: scriptFile, path: '', message: 'TypeScript emitted nothing' });
    const hint = setupHint(diagnostics.map((d) => ({ code: d.code, text: ts.flattenDiagnosticMessageText(d.messageText, ' ') })), file, pkg?.root ?? null);
    if (hint) issues.unshift({ file: scriptFile, path: '', message: hint });
    throw new InputError(`${scriptFile}: ${issues.length} type error(s)`, hint ?? 'Fix the type errors; your editor shows the same ones', { issues });
  }
  const jsFile = join(outDir, relative(rootDir, dirname(file)), basename(file).replace(/\.(m?)ts$/, '.$1js'));
  return { jsFile };
}

/** Every `node_modules/@types` from the script's directory up to the root, then rebootlab's own (for @types/node). */
function typeRootsOf(file: string): string[] {
  const roots: string[] = [];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const types = join(dir, 'node_modules', '@types');
    if (existsSync(types)) roots.push(types);
    if (dirname(dir) === dir) break;
  }
  // dist/lib/script/ → the package root's node_modules/@types, or the node_modules rebootlab is installed in.
  for (const relative of ['../../../node_modules/@types', '../../../../@types']) {
    const types = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(types) && !roots.includes(types)) roots.push(types);
  }
  return roots;
}

/**
 * What to set up when the compiler's errors say the script is not in a project that can run it: `rebootlab` cannot
 * be resolved from it (TS2307), or it is compiled as CommonJS, where top-level await and `import` fail (TS1309,
 * TS1378, TS1375, TS1479: no `"type": "module"` in its package.json). One line, or undefined for ordinary type errors.
 */
function setupHint(diagnostics: readonly { code: number; text: string }[], file: string, packageRoot: string | null): string | undefined {
  const hints: string[] = [];
  if (diagnostics.some((d) => d.code === 2307 && d.text.includes("'rebootlab'"))) {
    hints.push(`'rebootlab' cannot be found from ${dirname(file)}: install it in the script's project (npm install rebootlab) or put the script in one that has it`);
  }
  if (diagnostics.some((d) => [1309, 1375, 1378, 1479].includes(d.code))) {
    hints.push(packageRoot
      ? `${join(packageRoot, 'package.json')} makes the script CommonJS: add "type": "module" to it (or name the script .mts)`
      : `the script has no package.json, so it is compiled as CommonJS: create one with {"type": "module"} next to it (or name the script .mts)`);
  }
  return hints.length > 0 ? hints.join('; ') : undefined;
}
