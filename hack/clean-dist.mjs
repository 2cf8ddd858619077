// Removes dist/ before a build: tsc never deletes the output of moved or deleted sources, so a stale compiled
// test (or command) could otherwise keep running from dist/.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), { recursive: true, force: true });
