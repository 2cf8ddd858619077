// Test helpers that locate the offline toolchain (hack/toolchain.sh writes toolchain.env) and drive kind.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Paths and names the toolchain provisioned, read from $REBOOTLAB_CACHE/toolchain.env. */
export interface Toolchain {
  kind: string;
  nodeImage: string;
  kubernetesVersion: string;
  kubernetesBin: string;
}

/**
 * Reads the toolchain description written by `npm run toolchain`.
 * @throws Error naming the file and the command to run when it is missing.
 */
export function readToolchain(): Toolchain {
  const cache = process.env.REBOOTLAB_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'rebootlab');
  const file = join(cache, 'toolchain.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file} not found: run 'npm run toolchain' first`);
  }
  const env = Object.fromEntries(
    text.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return {
    kind: env.REBOOTLAB_KIND,
    nodeImage: env.REBOOTLAB_NODE_IMAGE,
    kubernetesVersion: env.REBOOTLAB_KUBERNETES_VERSION,
    kubernetesBin: env.REBOOTLAB_KUBERNETES_BIN,
  };
}
