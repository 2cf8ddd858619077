// Compiles a TypeScript experiment script with the project's own TypeScript compiler (type-checked, no
// loader hooks): `rebootlab run x.ts` type-checks first, so a misspelled fault type or a duration without a
// unit stops the run with the compiler's message before any cluster exists. Why tsc and not a loader such as
// tsx: tsx strips types without checking them, and the typed API is the point; the compiled file is plain
// JavaScript that Node runs directly (`node dist/experiments/x.js`), with no second module copy of rebootlab.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
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
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
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
    throw new InputError(`${scriptFile}: ${issues.length} type error(s)`, 'Fix the type errors; your editor shows the same ones', { issues });
  }
  const jsFile = join(outDir, relative(rootDir, dirname(file)), basename(file).replace(/\.(m?)ts$/, '.$1js'));
  return { jsFile };
}
