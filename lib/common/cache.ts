// rebootlab's cache directory and the toolchain description `npm run toolchain` writes into it.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** rebootlab's cache directory: `$REBOOTLAB_CACHE`, else `$XDG_CACHE_HOME/rebootlab`, else `~/.cache/rebootlab`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['REBOOTLAB_CACHE']) return env['REBOOTLAB_CACHE'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'rebootlab');
}

/**
 * The `KEY=value` lines hack/toolchain.sh writes to `<cacheDir>/toolchain.env` (REBOOTLAB_KIND,
 * REBOOTLAB_KUBERNETES_BIN, REBOOTLAB_KWOK, REBOOTLAB_ETCD, REBOOTLAB_NODE_IMAGE, REBOOTLAB_KUBERNETES_VERSION),
 * values trimmed; `{}` when the file does not exist (the toolchain was never provisioned).
 */
export function readToolchainEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const file = join(cacheDir(env), 'toolchain.env');
  if (!existsSync(file)) return {};
  const pairs = readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('='));
  return Object.fromEntries(pairs.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).trim()]));
}
