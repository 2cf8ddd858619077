// Test helpers that locate the offline toolchain (hack/toolchain.sh writes toolchain.env) and drive kind.
import { join } from 'node:path';
import { cacheDir, readToolchainEnv } from '../../lib/common/cache.js';

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
  const env = readToolchainEnv();
  if (!env.REBOOTLAB_KIND) throw new Error(`${join(cacheDir(), 'toolchain.env')} not found: run 'npm run toolchain' first`);
  return {
    kind: env.REBOOTLAB_KIND,
    nodeImage: env.REBOOTLAB_NODE_IMAGE!,
    kubernetesVersion: env.REBOOTLAB_KUBERNETES_VERSION!,
    kubernetesBin: env.REBOOTLAB_KUBERNETES_BIN!,
  };
}
