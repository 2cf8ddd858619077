// Test helpers that locate the offline toolchain (hack/toolchain.sh writes toolchain/<version>.env) and drive kind.
import { readToolchainEnv, toolchainEnvFile } from '../../lib/common/cache.js';
import { DEFAULT_KUBERNETES_VERSION, toolchainCommandFor } from '../../lib/common/versions.js';

/** Paths and names the toolchain provisioned for one Kubernetes version, read from $REBOOTLAB_CACHE/toolchain/<version>.env. */
export interface Toolchain {
  kind: string;
  nodeImage: string;
  kubernetesVersion: string;
  kubernetesBin: string;
}

/**
 * Reads the toolchain description `npm run toolchain` wrote for `kubernetesVersion` (default: the default version).
 * @throws Error naming the file and the command to run when it is missing.
 */
export function readToolchain(kubernetesVersion: string = DEFAULT_KUBERNETES_VERSION): Toolchain {
  const env = readToolchainEnv(kubernetesVersion);
  if (!env.REBOOTLAB_KIND) throw new Error(`${toolchainEnvFile(kubernetesVersion)} not found: run '${toolchainCommandFor(kubernetesVersion)}' first`);
  return {
    kind: env.REBOOTLAB_KIND,
    nodeImage: env.REBOOTLAB_NODE_IMAGE!,
    kubernetesVersion: env.REBOOTLAB_KUBERNETES_VERSION!,
    kubernetesBin: env.REBOOTLAB_KUBERNETES_BIN!,
  };
}
