#!/usr/bin/env node
// Entry point of the rebootlab CLI: the compiled code lives in dist/, built by `npm ci` / `npm install`
// (the `prepare` script) or `npm run build`.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/lib/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(`ERROR: rebootlab is not built (${entry.pathname} is missing); run 'npm ci' or 'npm run build' in ${new URL('..', import.meta.url).pathname}\n`);
  process.exit(2);
}
const { main } = await import(entry.href);
main(process.argv.slice(2));
