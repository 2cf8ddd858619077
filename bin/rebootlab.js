#!/usr/bin/env node
// Entry point of the rebootlab CLI: the compiled code lives in dist/ (npm run build).
import { main } from '../dist/lib/cli/main.js';
main(process.argv.slice(2));
