// Finds the tools the kind provider runs (docker, kind) and the node image to boot.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../common/errors.js';
import { cacheDir } from '../../common/cache.js';
import { canRun, run } from '../../common/exec.js';
import { PINNED_KIND_VERSION } from './kubeadm-patches.js';

/** What to run after a missing tool. */
export const TOOLCHAIN_HINT = 'Run: npm run toolchain';


/**
 * The kind binary: `$REBOOTLAB_KIND`, else `$REBOOTLAB_CACHE/bin/kind-v0.30.0/kind` when it exists,
 * else `kind` (looked up on PATH).
 */
export function kindBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env['REBOOTLAB_KIND']) return env['REBOOTLAB_KIND'];
  const cached = join(cacheDir(env), 'bin', `kind-${PINNED_KIND_VERSION}`, 'kind');
  return existsSync(cached) ? cached : 'kind';
}

/** True when a Docker image with this reference exists locally. @throws nothing. */
export async function imageExists(reference: string): Promise<boolean> {
  return canRun('docker', ['image', 'inspect', '--format', '{{.Id}}', reference]);
}

/**
 * The node image to boot: `nodeImage` when set, else `rebootlab/node:<version>` when it exists
 * locally (built offline by the toolchain), else `kindest/node:<version>` (pulled by kind; online only).
 */
export async function resolveNodeImage(nodeImage: string | null, kubernetesVersion: string): Promise<string> {
  if (nodeImage) return nodeImage;
  const local = `rebootlab/node:${kubernetesVersion}`;
  return (await imageExists(local)) ? local : `kindest/node:${kubernetesVersion}`;
}

/**
 * Checks that the Docker engine answers and the kind binary runs.
 * @throws InfraError naming the missing tool, with the hint `Run: npm run toolchain`.
 */
export async function ensureKindTools(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 15_000 });
  } catch (error) {
    throw new InfraError(`docker is not available: ${(error as Error).message}`, TOOLCHAIN_HINT, { cause: error });
  }
  const kind = kindBinary(env);
  try {
    await run(kind, ['version'], { timeoutMs: 15_000 });
  } catch (error) {
    throw new InfraError(`kind is not available (${kind}): ${(error as Error).message}`, TOOLCHAIN_HINT, { cause: error });
  }
}
